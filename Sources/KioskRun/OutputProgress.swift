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

    /// Feeds output bytes; the events of the lines they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for b in bytes {
            if b == 0x0A || b == 0x0D {
                if !line.isEmpty { events += take(String(decoding: line, as: UTF8.self)) }
                line.removeAll(keepingCapacity: true)
            } else if line.count < OutputProgress.maxLine {
                line.append(b)
            }
        }
        return events
    }

    /// What the last, unterminated line says (at the end of the output).
    public mutating func flush() -> [Event] {
        defer { line.removeAll() }
        return line.isEmpty ? [] : take(String(decoding: line, as: UTF8.self))
    }

    private mutating func take(_ text: String) -> [Event] {
        let t = trimmed(text)
        if t.hasPrefix("PROGRESS ") {
            if let v = number(t.dropFirst(9)), v >= 0, v <= 100 { return [.progress(v / 100)] }
            return []
        }
        if t.hasPrefix("MSG ") { return [.details(String(t.dropFirst(4)))] }
        if let pattern, let capture = pattern(t), let p = fraction(capture) { return [.progress(p)] }
        if has(t, "% Total") && has(t, "% Received") { curlMeter = true; return [] }
        if curlMeter, let first = t.split(separator: " ").first, let v = number(first), v >= 0, v <= 100,
           t.split(separator: " ").count >= 10 {
            return [.progress(v / 100)]
        }
        if let total = totalBytes, total > 0, has(t, " bytes"), has(t, "copied"),
           let n = number(t.prefix { $0 != " " }) {
            return [.progress(min(1, n / total))]
        }
        if let p = lastPercent(t) { return [.progress(p)] }
        if let p = lastRatio(t) { return [.progress(p)] }
        return detailsFromOutput && !t.isEmpty ? [.details(String(t.prefix(160)))] : []
    }
}

/// Whether `text` contains `part` (bytes; no regex engine or Foundation needed).
func has(_ text: String, _ part: String) -> Bool {
    let t = Array(text.utf8), p = Array(part.utf8)
    guard !p.isEmpty, t.count >= p.count else { return p.isEmpty }
    for i in 0...(t.count - p.count) where t[i] == p[0] && Array(t[i..<(i + p.count)]) == p { return true }
    return false
}

private func trimmed(_ s: String) -> String {
    String(String(s.drop { $0 == " " || $0 == "\t" }.reversed()).drop { $0 == " " || $0 == "\t" }.reversed())
}

/// A plain decimal number (digits, at most one point), or nil.
private func number(_ s: Substring) -> Double? {
    guard !s.isEmpty, s.count <= 24, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }) else { return nil }
    return Double(s.filter { $0 != "," })
}

/// "45", "45.5", "3/7" as a fraction (a bare number is a percentage).
private func fraction(_ s: String) -> Double? {
    if let slash = s.firstIndex(of: "/") {
        guard let n = number(s[..<slash]), let m = number(s[s.index(after: slash)...]), m > 0, n <= m else { return nil }
        return n / m
    }
    guard let v = number(Substring(s)), v >= 0, v <= 100 else { return nil }
    return v / 100
}

/// The last "n%" whose number stands on its own (not part of a longer word).
private func lastPercent(_ t: String) -> Double? {
    let chars = Array(t)
    var i = chars.count - 1
    while i > 0 {
        if chars[i] == "%" {
            var j = i
            while j > 0, chars[j - 1].isASCII, chars[j - 1].isNumber || chars[j - 1] == "." { j -= 1 }
            if j < i, j == 0 || !(chars[j - 1].isLetter || chars[j - 1] == "_"), let v = number(Substring(String(chars[j..<i]))), v >= 0, v <= 100 {
                return v / 100
            }
        }
        i -= 1
    }
    return nil
}

/// The last standalone "n/m" (between spaces, brackets or parentheses).
private func lastRatio(_ t: String) -> Double? {
    for word in t.split(whereSeparator: { " ()[]".contains($0) }).reversed() {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let n = Double(parts[0]), let m = Double(parts[1]), m > 0, n <= m else { continue }
        return n / m
    }
    return nil
}
