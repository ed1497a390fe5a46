import CKioskSys

/// Reads a command's output for progress, the way `kiosk-hud run` does: lines end at "\n" or
/// "\r" (progress meters rewrite one line with "\r"), and each line is tried in this order:
///
/// 1. `PROGRESS n` (0–100, psplash's word) and `MSG text` (the details);
/// 2. the caller's pattern (`--progress-regex`), whose capture is a percentage or "n/m";
/// 3. curl's meter (after its "% Total … % Received" header, a line's first number);
/// 4. dd's `N bytes … copied` against a total given by the caller (`--total-bytes`);
/// 5. the last `n%` on the line (rsync --info=progress2, apt's "Progress: [ 40%]", wget, pip);
/// 6. the last `n/m` on the line ("step 3/7").
///
/// Lines are bounded (4 KiB; the rest of a longer one is ignored), so no output can balloon it.
///
/// Speed: the reader works on bytes (a String is made only for the details and the caller's
/// pattern), and a chunk yields at most one progress and one details, the last of each (what
/// the HUD would show by the next frame anyway). 50 MB of random bytes, whose short "lines"
/// are nearly all looked at, went from 28 s (a String per line, Character arrays) to the
/// figures in docs/measurements.md; `kiosk-hud run -- cat` must keep up with a fast command.
public struct OutputProgress {
    public enum Event: Equatable, Sendable {
        case progress(Double)
        case details(String)
    }

    /// dd's total, for its byte counts.
    public var totalBytes: Double?
    /// The caller's pattern: the capture of a line, or nil.
    public var pattern: ((String) -> String?)?
    /// Every other line becomes the details.
    public var detailsFromOutput = false
    private var line: [UInt8] = []
    private var curlMeter = false

    static let maxLine = 4096

    public init() {}

    /// Feeds output bytes; what the lines they complete say: the last progress and the last
    /// details among them, in the order they came.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var found = Found()
        bytes.withUnsafeBufferPointer { b in
            var start = 0
            var i = 0
            while i < b.count {
                let c = b[i]
                if c == 0x0A || c == 0x0D {
                    if line.isEmpty {
                        take(UnsafeBufferPointer(rebasing: b[start..<min(i, start + OutputProgress.maxLine)]), into: &found)
                    } else {
                        append(b, start, i)
                        line.withUnsafeBufferPointer { take($0, into: &found) }
                        line.removeAll(keepingCapacity: true)
                    }
                    start = i + 1
                }
                i += 1
            }
            append(b, start, b.count)
        }
        return found.events
    }

    public mutating func feed(_ bytes: [UInt8]) -> [Event] { feed(bytes[...]) }

    /// What the last, unterminated line says (at the end of the output).
    public mutating func flush() -> [Event] {
        defer { line.removeAll() }
        var found = Found()
        line.withUnsafeBufferPointer { take($0, into: &found) }
        return found.events
    }

    private mutating func append(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) {
        let room = OutputProgress.maxLine - line.count
        guard to > from, room > 0 else { return }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: b[from..<min(to, from + room)]))
    }

    /// The last progress and details of a chunk (the details kept as bytes until the end).
    private struct Found {
        var progress: Double?
        var details: String?
        var detailsLast = false
        var events: [Event] {
            var e: [Event] = []
            if let progress { e.append(.progress(progress)) }
            if let details { e.insert(.details(details), at: detailsLast ? e.count : 0) }
            return e
        }
        mutating func set(_ p: Double) { progress = p; detailsLast = false }
        mutating func set(_ d: String) { details = d; detailsLast = true }
    }

    private mutating func take(_ raw: UnsafeBufferPointer<UInt8>, into found: inout Found) {
        let t = Bytes(raw).trimmed
        guard !t.isEmpty else { return }
        if t.hasPrefix("PROGRESS ") {
            if let v = t.dropFirst(9).trimmed.number, v >= 0, v <= 100 { found.set(v / 100) }
            return
        }
        if t.hasPrefix("MSG ") { found.set(t.dropFirst(4).string); return }
        if let pattern, let capture = pattern(t.string), let p = fraction(capture) { found.set(p); return }
        let percent = t.lastIndex(of: 0x25)
        if percent != nil, t.contains("% Total"), t.contains("% Received") { curlMeter = true; return }
        if curlMeter, let first = t.word(0), let v = first.number, v >= 0, v <= 100, t.word(9) != nil {
            found.set(v / 100); return
        }
        if let total = totalBytes, total > 0, t.contains(" bytes"), t.contains("copied"), let n = t.word(0)?.number {
            found.set(min(1, n / total)); return
        }
        if percent != nil, let p = t.lastPercent { found.set(p); return }
        if let p = t.lastRatio { found.set(p); return }
        if detailsFromOutput { found.set(Bytes(t.base, t.start, min(t.end, t.start + 160)).string) }
    }
}

/// A part of a line, as bytes: the few operations the formats need, without making Strings.
struct Bytes {
    let base: UnsafeBufferPointer<UInt8>
    let start: Int, end: Int

    init(_ b: UnsafeBufferPointer<UInt8>) { base = b; start = 0; end = b.count }
    init(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) { base = b; start = s; end = e }

    var isEmpty: Bool { start >= end }
    var count: Int { end - start }
    var string: String { String(decoding: UnsafeBufferPointer(rebasing: base[start..<end]), as: UTF8.self) }

    var trimmed: Bytes {
        var s = start, e = end
        while s < e, base[s] == 0x20 || base[s] == 0x09 { s += 1 }
        while e > s, base[e - 1] == 0x20 || base[e - 1] == 0x09 { e -= 1 }
        return Bytes(base, s, e)
    }

    func dropFirst(_ n: Int) -> Bytes { Bytes(base, min(start + n, end), end) }

    func hasPrefix(_ p: StaticString) -> Bool {
        guard count >= p.utf8CodeUnitCount else { return false }
        let u = p.utf8Start
        for k in 0..<p.utf8CodeUnitCount where base[start + k] != u[k] { return false }
        return true
    }

    /// memmem(3).
    func contains(_ p: StaticString) -> Bool {
        guard count >= p.utf8CodeUnitCount else { return false }
        return kiosk_memmem(base.baseAddress! + start, count, p.utf8Start, p.utf8CodeUnitCount) != nil
    }

    /// memrchr(3): the C library's vector search, several times a byte loop's speed.
    func lastIndex(of c: UInt8, before: Int? = nil) -> Int? {
        let e = before ?? end
        guard e > start, let p = kiosk_memrchr(base.baseAddress! + start, Int32(c), e - start) else { return nil }
        return UnsafeRawPointer(base.baseAddress!).distance(to: p)
    }

    /// The `n`th word (split at spaces), or nil.
    func word(_ n: Int) -> Bytes? {
        var i = start, k = 0
        while i < end {
            while i < end && base[i] == 0x20 { i += 1 }
            guard i < end else { return nil }
            var j = i
            while j < end && base[j] != 0x20 { j += 1 }
            if k == n { return Bytes(base, i, j) }
            k += 1
            i = j
        }
        return nil
    }

    /// A plain decimal number (digits, "," as thousands, at most one "."), or nil.
    var number: Double? {
        guard !isEmpty, count <= 24 else { return nil }
        var whole: Double = 0, fraction: Double = 0, scale: Double = 1, point = false, digits = 0
        for i in start..<end {
            let c = base[i]
            if c &- 0x30 < 10 {
                digits += 1
                if point { scale /= 10; fraction += Double(c - 0x30) * scale } else { whole = whole * 10 + Double(c - 0x30) }
            } else if c == 0x2E, !point { point = true } else if c == 0x2C, !point { continue } else { return nil }
        }
        return digits > 0 ? whole + fraction : nil
    }

    /// The last "n%" whose number stands on its own (not part of a longer word).
    var lastPercent: Double? {
        var before = end
        while let i = lastIndex(of: 0x25, before: before) {
            var j = i
            while j > start, base[j - 1] &- 0x30 < 10 || base[j - 1] == 0x2E { j -= 1 }
            if j < i, j == start || !isWordByte(base[j - 1]), let v = Bytes(base, j, i).number, v <= 100 { return v / 100 }
            before = i
        }
        return nil
    }

    /// The last standalone "n/m" (between spaces, brackets or parentheses): only the words
    /// around a "/" are looked at.
    var lastRatio: Double? {
        func separator(_ c: UInt8) -> Bool { c == 0x20 || c == 0x28 || c == 0x29 || c == 0x5B || c == 0x5D }
        var before = end
        while let i = lastIndex(of: 0x2F, before: before) {
            var s = i, e = i + 1
            while s > start && !separator(base[s - 1]) { s -= 1 }
            while e < end && !separator(base[e]) { e += 1 }
            if let p = ratio(Bytes(base, s, e)) { return p }
            before = s
        }
        return nil
    }

    private func ratio(_ w: Bytes) -> Double? {
        var slash = -1
        for i in w.start..<w.end {
            if w.base[i] == 0x2F { guard slash < 0 else { return nil }; slash = i } else if w.base[i] &- 0x30 >= 10 { return nil }
        }
        guard slash > w.start, slash < w.end - 1, let n = Bytes(base, w.start, slash).number, let m = Bytes(base, slash + 1, w.end).number,
              m > 0, n <= m else { return nil }
        return n / m
    }
}

/// Letters, digits beyond ASCII and "_": a "%" after one of these is part of a word ("x99%").
private func isWordByte(_ c: UInt8) -> Bool {
    (c | 0x20) &- 0x61 < 26 || c == 0x5F || c >= 0x80
}

/// "45", "45.5", "3/7" as a fraction (a bare number is a percentage).
private func fraction(_ s: String) -> Double? {
    var s = s
    return s.withUTF8 { u -> Double? in
        let b = Bytes(u).trimmed
        if let slash = b.lastIndex(of: 0x2F) {
            guard let n = Bytes(u, b.start, slash).number, let m = Bytes(u, slash + 1, b.end).number, m > 0, n <= m else { return nil }
            return n / m
        }
        guard let v = b.number, v <= 100 else { return nil }
        return v / 100
    }
}
