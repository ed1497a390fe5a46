import KioskDaemon

/// `swupdate`: what `daemon --swupdate` reads from SWUpdate's two sockets, decoded in process as
/// SWUpdateProgress decodes it: the progress socket's stream by `SWUpdateDecoder` (its
/// `progress_msg` records, every generation: 2022.12's unversioned, API 1, API 2 with and
/// without its ACK, aligned and packed) and the control socket's by
/// `SWUpdateNotificationDecoder` (`ipc_message` replies: ACK, NACK, NOTIFY_STREAM), each
/// decoder's outputs then through a `SWUpdateMachine` as the daemon feeds it. Inputs: valid
/// streams built field by field (every status, boundary numbers, texts of 0 to the field's size
/// with and without their NUL, non-UTF-8 and multi-byte text, infolen past the field), then
/// mutated: truncated, oversized, wrong magic and versions (at the start, mid-stream, in the
/// ACK), the other word size's records, bytes inserted and cut, random bytes.
///
/// Every input goes to both decoders (the other socket's bytes are garbage to each), fed as one
/// read, as the daemon's 8 KiB reads, and in irregular reads (sizes drawn from the input's own
/// hash, the first at least 8 bytes): every output must be a message, a notification or a
/// typed refusal (`unsupported`, `refused`) after which nothing more comes; decoded text within
/// its field (no NUL; image ≤ 256 scalars, handler ≤ 64, info ≤ 2047, a notification ≤ 2048),
/// numbers within their clamps, no more records than whole records' bytes fed, a progress
/// decoder holding less than a record (plus an ACK) between reads; the notifications the same
/// however the reads were cut, and the progress messages too when the wire and layout came out
/// the same; the machine's progress in 0…1 and its texts bounded.
final class SWUpdateTarget: InProcessTarget {
    let name = "swupdate"
    let fileExtension = "bin"
    var canvasBytes: Int { 800 * 480 * 4 }

    static let alignedSize = SWUpdateLayout.aligned.size, packedSize = SWUpdateLayout.packed.size
    static let recordSize = SWUpdateNotification.recordSize
    /// The daemon's read size (SWUpdateProgress.chunk).
    static let readSize = 8192

    var warmUp: [UInt8] {
        var rng = Rng(seed: 1, index: 1)
        return progressStream(&rng, wire: .unversioned, count: 3)
    }

    // MARK: The check

    func check(_ input: [UInt8], index: Int) -> Violation? {
        let plans = [[input.count], Self.regularReads(input.count), Self.irregularReads(input)]
        var runs: [ProgressRun] = []
        for plan in plans {
            var run = ProgressRun()
            if let v = runProgress(input, plan, &run) { return v }
            runs.append(run)
        }
        // The same wire and layout, however the reads were cut: the same messages.
        if runs[1...].allSatisfy({ $0.wire == runs[0].wire && $0.layout == runs[0].layout }) {
            for r in runs[1...] where r.outputs != runs[0].outputs {
                return Violation(kind: "chunking", detail: "the progress decoder said \(r.outputs.count) things in reads of \(r.plan), \(runs[0].outputs.count) in one read (wire \(String(describing: r.wire)), layout \(String(describing: r.layout)))",
                                 key: "progress outputs depend on the reads")
            }
        }
        var notes: [[SWUpdateNotificationDecoder.Output]] = []
        for plan in plans {
            var out: [SWUpdateNotificationDecoder.Output] = []
            if let v = runNotifications(input, plan, &out) { return v }
            notes.append(out)
        }
        if verboseCases {
            func kinds(_ o: [SWUpdateDecoder.Output]) -> String {
                let m = o.filter { if case .message = $0 { true } else { false } }.count
                return "\(m) messages" + (o.count > m ? ", unsupported" : "")
            }
            let n = notes[0].filter { if case .notification = $0 { true } else { false } }.count
            warn("  progress: " + runs.map { "\(kinds($0.outputs)) (\(String(describing: $0.wire)), \(String(describing: $0.layout)))" }.joined(separator: " | ")
                 + "; control: \(n) notifications" + (notes[0].contains(.refused) ? ", refused" : "") + (notes[0].contains(.acknowledged) ? ", ACK" : ""))
        }
        for (i, n) in notes.enumerated().dropFirst() where n != notes[0] {
            return Violation(kind: "chunking", detail: "the notification decoder said \(n.count) things in reads of \(plans[i].prefix(8))…, \(notes[0].count) in one read",
                             key: "notification outputs depend on the reads")
        }
        return nil
    }

    struct ProgressRun {
        var outputs: [SWUpdateDecoder.Output] = []
        var wire: SWUpdateDecoder.Wire?
        var layout: SWUpdateLayout?
        var plan: [Int] = []
    }

    /// Feeds `input` to a new progress decoder in reads of `plan`'s sizes, its outputs to a machine.
    func runProgress(_ input: [UInt8], _ plan: [Int], _ run: inout ProgressRun) -> Violation? {
        var d = SWUpdateDecoder()
        var machine = SWUpdateMachine(options: SWUpdateMachine.Options(showWhenUpdating: true, rebootsAfterSuccess: true))
        var machine2 = SWUpdateMachine()
        var at = 0, refusals = 0
        run.plan = plan
        _ = machine.handle(.connected, now: 0); _ = machine2.handle(.connected, now: 0)
        for size in plan {
            let wasStopped = d.stopped
            let out = d.feed(input[at..<(at + size)])
            at += size
            if wasStopped && !out.isEmpty {
                return Violation(kind: "after-refusal", detail: "the progress decoder said \(out.count) things after refusing the stream", key: "progress output after unsupported")
            }
            for (k, o) in out.enumerated() {
                switch o {
                case let .message(m):
                    if let v = Self.bounded(m) { return v }
                case let .unsupported(version):
                    refusals += 1
                    if k != out.count - 1 || !d.stopped {
                        return Violation(kind: "after-refusal", detail: "unsupported(\(version)) was not the decoder's last word (\(out.count - k - 1) more, stopped \(d.stopped))",
                                         key: "progress output after unsupported")
                    }
                }
                let event: SWUpdateMachine.Event
                switch o {
                case let .message(m): event = .message(m)
                case let .unsupported(version): event = .unsupported(version: version)
                }
                for a in machine.handle(event, now: Double(at)) + machine2.handle(event, now: Double(at)) {
                    if let v = Self.bounded(a) { return v }
                }
            }
            run.outputs += out
            if !d.stopped && d.pendingCount >= Self.alignedSize + 8 {
                return Violation(kind: "pending", detail: "the progress decoder holds \(d.pendingCount) bytes between reads (a record is \(Self.alignedSize))",
                                 key: "progress decoder holds more than a record")
            }
        }
        let messages = run.outputs.count - refusals
        if messages > input.count / Self.packedSize || refusals > 1 {
            return Violation(kind: "count", detail: "\(messages) messages and \(refusals) refusals from \(input.count) bytes", key: "progress: more records than bytes")
        }
        run.wire = d.wire
        run.layout = d.layout
        return nil
    }

    /// Feeds `input` to a new notification decoder in reads of `plan`'s sizes.
    func runNotifications(_ input: [UInt8], _ plan: [Int], _ all: inout [SWUpdateNotificationDecoder.Output]) -> Violation? {
        var d = SWUpdateNotificationDecoder()
        var machine = SWUpdateMachine()
        var at = 0
        for size in plan {
            let wasStopped = d.stopped
            let out = d.feed(input[at..<(at + size)])
            at += size
            if wasStopped && !out.isEmpty {
                return Violation(kind: "after-refusal", detail: "the notification decoder said \(out.count) things after refusing the stream", key: "notification output after refused")
            }
            for (k, o) in out.enumerated() {
                switch o {
                case .acknowledged: break
                case let .notification(n):
                    if let v = Self.text(n.text, "notification text", 2048) { return v }
                    _ = machine.handle(.notification(n), now: 0)
                case .refused:
                    if k != out.count - 1 || !d.stopped {
                        return Violation(kind: "after-refusal", detail: "refused was not the decoder's last word (\(out.count - k - 1) more, stopped \(d.stopped))",
                                         key: "notification output after refused")
                    }
                }
            }
            all += out
        }
        if all.count > input.count / Self.recordSize {
            return Violation(kind: "count", detail: "\(all.count) outputs from \(input.count) bytes (records of \(Self.recordSize))", key: "notifications: more records than bytes")
        }
        // A failure after these notifications: the reason the machine kept must be bounded.
        for a in machine.handle(.message(SWUpdateMessage(status: .start)), now: 1) + machine.handle(.message(SWUpdateMessage(status: .failure)), now: 2) {
            if let v = Self.bounded(a) { return v }
        }
        return nil
    }

    /// A text field: no NUL, at most `limit` Unicode scalars (the field's bytes).
    static func text(_ s: String, _ what: String, _ limit: Int) -> Violation? {
        let n = s.unicodeScalars.count
        if n > limit { return Violation(kind: "text", detail: "\(what) has \(n) scalars (its field holds \(limit) bytes)", key: "\(what) past its field") }
        if s.unicodeScalars.contains("\u{0}") { return Violation(kind: "text", detail: "\(what) holds a NUL", key: "\(what) holds a NUL") }
        return nil
    }

    static func bounded(_ m: SWUpdateMessage) -> Violation? {
        if let v = text(m.image, "image", 256) ?? text(m.handler, "handler", 64) ?? text(m.info, "info", 2047) { return v }
        if !(0...100).contains(m.downloadPercent) || !(0...100).contains(m.stepPercent) || !(0...1_000_000).contains(m.steps) || !(0...1_000_000).contains(m.step) {
            return Violation(kind: "number", detail: "percent \(m.downloadPercent)/\(m.stepPercent), step \(m.step) of \(m.steps): past the clamps", key: "number past its clamp")
        }
        return nil
    }

    /// The machine's actions: progress in 0…1, texts within the fields they came from (plus the words).
    static func bounded(_ a: SWUpdateMachine.Action) -> Violation? {
        switch a {
        case .show: return nil
        case let .progress(label, details, value):
            if !(value >= 0 && value <= 1) {
                return Violation(kind: "machine", detail: "progress \(value) outside 0…1", key: "machine progress outside 0…1")
            }
            return text(label, "machine label", 256 + 64) ?? text(details, "machine details", 200)
        case let .details(t): return text(t, "machine details", 200)
        case let .success(t), let .failure(t): return text(t, "machine notice", 2047 + 200)
        case let .log(t): return text(t, "machine log line", 200)
        }
    }

    /// The daemon's reads: 8 KiB at a time.
    static func regularReads(_ n: Int) -> [Int] {
        var out: [Int] = []
        var left = n
        while left > 0 { out.append(min(readSize, left)); left -= readSize }
        return out.isEmpty ? [0] : out
    }

    /// Reads of 1 to 3000 bytes (the first at least 8: an ACK arrives in one piece), drawn from
    /// the input's own hash (the same for a saved input).
    static func irregularReads(_ input: [UInt8]) -> [Int] {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in input { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        var rng = Rng(seed: h, index: UInt64(input.count))
        var out: [Int] = []
        var left = input.count
        while left > 0 {
            let n = min(left, max(out.isEmpty ? 8 : 1, rng.pick([1, 3, 4, 7, 8, 100, 2407, 2408, 2409, 2415, 2416, 3000, rng.int(1...3000)])))
            out.append(n)
            left -= n
        }
        return out.isEmpty ? [0] : out
    }

    // MARK: Inputs

    enum Wire { case unversioned, api1, api2Ack, api2 }

    func input(_ rng: inout Rng, index: Int) -> [UInt8] {
        switch rng.weighted([14, 10, 22, 14, 8, 6, 10, 6, 10]) {
        case 0: return progressStream(&rng, wire: rng.pick([.unversioned, .api1, .api2Ack, .api2]), count: 1 + rng.length(8))
        case 1: return notificationStream(&rng, count: 1 + rng.length(8))
        case 2: return mutateStream(progressStream(&rng, wire: rng.pick([.unversioned, .api1, .api2Ack, .api2]), count: 1 + rng.length(6)), &rng, record: rng.pick([Self.alignedSize, Self.packedSize]))
        case 3: return mutateStream(notificationStream(&rng, count: 1 + rng.length(6)), &rng, record: Self.recordSize)
        case 4: return rng.bytes(rng.length(3 * Self.recordSize))
        case 5:  // a plausible first word, then random bytes
            return rng.pick(Self.firstWords).flatMap(le32) + rng.bytes(rng.length(3 * Self.alignedSize))
        case 6: return Mutate.havoc(progressStream(&rng, wire: rng.pick([.unversioned, .api1, .api2Ack, .api2]), count: 1 + rng.length(4)), &rng,
                                    count: 1 + rng.length(24), tokens: Self.tokens)
        case 7:  // the other socket's bytes, or both
            let a = progressStream(&rng, wire: rng.pick([.unversioned, .api1, .api2Ack, .api2]), count: 1 + rng.length(3))
            let b = notificationStream(&rng, count: 1 + rng.length(3))
            return rng.chance(0.5) ? a + b : b + a
        default: return Mutate.havoc(notificationStream(&rng, count: 1 + rng.length(4)), &rng, count: 1 + rng.length(24), tokens: Self.tokens)
        }
    }

    func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }

    static let firstWords: [[UInt32]] = [[0], [0x0001_0000], [0x0001_0100], [0x0002_0000], [0x0002_0000, 0x004B_4341], [0x0003_0000, 0x004B_4341],
                                         [0x0001_0000, 0x004B_4341], [0x0000_0001], [0xFFFF_FFFF], [0x1405_2001], [0x1405_2001, 1], [0x1405_2001, 11]]
    static let tokens: [[UInt8]] = [[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 2, 0], [0, 0, 3, 0], [0x41, 0x43, 0x4B, 0], [0x01, 0x20, 0x05, 0x14],
                                    [0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0x07, 0, 0], [0, 0x08, 0, 0], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                    Array("{\"reboot-mode\":\"no-reboot\"}".utf8), Array("ERROR : ".utf8)]

    /// Numbers worth putting in a 32-bit field: small, the clamps' edges, the top.
    static let numbers: [UInt32] = [0, 1, 2, 3, 9, 10, 50, 99, 100, 101, 255, 256, 65535, 65536, 999_999, 1_000_000, 1_000_001,
                                    0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]

    /// A text for a field of `size` bytes, as bytes (without its NUL): empty, short, the field
    /// less one, the whole field (no NUL), multi-byte or invalid UTF-8, control characters.
    func fieldText(_ rng: inout Rng, size: Int, words: [String]) -> [UInt8] {
        let pieces: [[UInt8]] = words.map { Array($0.utf8) } + [Array("räksmörgås".utf8), Array("🙂".utf8), Array("e\u{301}\u{301}\u{301}".utf8),
                                                                   [0xFF], [0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0x0A], [0x09], [0x1B, 0x5B, 0x32, 0x4A]]
        var t: [UInt8]
        switch rng.below(6) {
        case 0: t = []
        case 1, 2: t = Array(rng.pick(words).utf8)
        case 3: t = (0..<rng.int(1...12)).flatMap { _ in rng.pick(pieces) }
        case 4: t = [UInt8](repeating: rng.pick([0x41, 0x78, 0xFF, 0x80]), count: rng.pick([size - 1, size, size - 2]))
        default: t = (0..<size).map { _ in rng.chance(0.7) ? UInt8(rng.int(0x20...0x7E)) : UInt8(rng.int(0x80...0xFF)) }
        }
        return Array(t.prefix(size))
    }

    static let infos = ["", "{\"reboot-mode\":\"no-reboot\"}", "{\"dry-run\":true}", "{\"cause\": \"ERROR : write failed\"}", "ERROR : no space left on device",
                        "ERROR: corrupted image\nsecond line", "{\"0\": {\"percent\": 5}}", "{", "}", "{\"cause\":}", "\"", "{\"cause\": \"" + String(repeating: "x", count: 400) + "\"}"]

    /// One `progress_msg` of `layout` whose first word is `first`.
    func progressMessage(_ rng: inout Rng, layout: SWUpdateLayout, first: UInt32) -> [UInt8] {
        let size = layout.size, s = layout == .aligned ? 4 : 0
        var b = [UInt8](repeating: 0, count: size)
        func put(_ at: Int, _ v: UInt32) { b.replaceSubrange(at..<(at + 4), with: le32(v)) }
        func number(_ ordinary: ClosedRange<Int>) -> UInt32 { rng.chance(0.7) ? UInt32(rng.int(ordinary)) : rng.pick(Self.numbers) }
        func text(_ at: Int, _ field: Int, _ t: [UInt8]) { b.replaceSubrange(at..<(at + t.count), with: t) }
        put(0, first)
        put(4, rng.chance(0.92) ? UInt32(rng.below(9)) : rng.pick([9, 10, 255, 0xFFFF_FFFF, 0x8000_0000]))
        put(8, number(0...100))
        let bytes = rng.chance(0.5) ? UInt64(rng.below(1 << 30)) : rng.next()
        put(12 + s, UInt32(truncatingIfNeeded: bytes)); put(16 + s, UInt32(truncatingIfNeeded: bytes >> 32))
        put(20 + s, number(0...8)); put(24 + s, number(0...8)); put(28 + s, number(0...100))
        text(32 + s, 256, fieldText(&rng, size: 256, words: ["rootfs.ext4", "u-boot.img", "kernel", "data.tar.gz", "images/root fs"]))
        text(288 + s, 64, fieldText(&rng, size: 64, words: ["rawfile", "ubivol", "archive", "raw", "uboot", "shellscript"]))
        put(352 + s, rng.chance(0.85) ? UInt32(rng.below(6)) : rng.pick([6, 7, 255, 0xFFFF_FFFF]))
        let info: [UInt8] = rng.chance(0.6) ? Array(rng.pick(Self.infos).utf8) : fieldText(&rng, size: 2048, words: Self.infos)
        text(360 + s, 2048, Array(info.prefix(2048)))
        put(356 + s, rng.chance(0.7) ? UInt32(info.count) : rng.pick([0, 1, UInt32(max(0, info.count - 1)), UInt32(info.count + 1), 2047, 2048, 2049, 4096, 0xFFFF_FFFF]))
        if layout == .aligned, rng.chance(0.1) { text(12, 4, rng.bytes(4)) }   // the padding before the byte count
        return b
    }

    /// A progress socket's stream: the wire's first words (API 2's ACK), then `count` messages.
    func progressStream(_ rng: inout Rng, wire: Wire, count: Int) -> [UInt8] {
        let version: UInt32
        switch wire {
        case .unversioned: version = 0
        case .api1: version = 0x0001_0000 | UInt32(rng.below(3)) << 8 | UInt32(rng.below(3))
        case .api2, .api2Ack: version = 0x0002_0000 | UInt32(rng.below(3)) << 8 | UInt32(rng.below(2))
        }
        let layout: SWUpdateLayout = (wire == .api2 || wire == .api2Ack) && rng.chance(0.5) ? .packed : .aligned
        var out: [UInt8] = wire == .api2Ack ? le32(version) + SWUpdateTarget.ackMagic : []
        // A run of an update: start, steps, then an end, or messages in any order.
        let ordered = rng.chance(0.6)
        for i in 0..<count {
            var m = progressMessage(&rng, layout: layout, first: version)
            if ordered {
                let status: UInt32 = i == 0 ? 1 : i == count - 1 && count > 1 ? rng.pick([3, 4, 6]) : rng.pick([2, 5, 7, 8])
                m.replaceSubrange(4..<8, with: le32(status))
            }
            out += m
        }
        return out
    }

    static let ackMagic: [UInt8] = [0x41, 0x43, 0x4B, 0]

    /// One `ipc_message` as the control socket sends it (`size` bytes: this machine's, or the other word size's).
    func notificationRecord(_ rng: inout Rng, type: UInt32, size: Int = SWUpdateTarget.recordSize) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: size)
        func put(_ at: Int, _ v: UInt32) { b.replaceSubrange(at..<(at + 4), with: le32(v)) }
        put(0, rng.chance(0.95) ? 0x1405_2001 : rng.pick([0, 0x1405_2002, 0x0120_0514, 0xFFFF_FFFF]))
        put(4, type)
        if type == 11 {
            put(8, rng.chance(0.9) ? UInt32(rng.below(9)) : rng.pick(Self.numbers))
            put(12, rng.chance(0.8) ? 0 : rng.pick(Self.numbers))
            put(16, rng.chance(0.85) ? UInt32(rng.int(1...5)) : rng.pick(Self.numbers))
            let t = fieldText(&rng, size: 2048, words: ["ERROR : Image invalid or corrupted. Not installing ...", "Software Update started !",
                                                         "[install_single_image] : Found installer for stream rootfs.ext4", "ERROR : ", "TRACE : step 3"])
            b.replaceSubrange(20..<(20 + t.count), with: t)
        } else if rng.chance(0.3) {
            b.replaceSubrange(8..<min(size, 8 + 64), with: rng.bytes(min(size, 8 + 64) - 8))
        }
        return b
    }

    /// A control socket's stream after the subscription: its ACK, then notifications (or a NACK).
    func notificationStream(_ rng: inout Rng, count: Int) -> [UInt8] {
        let size = rng.chance(0.9) ? Self.recordSize : (Self.recordSize == 3120 ? 3104 : 3120)
        var out: [UInt8] = rng.chance(0.85) ? notificationRecord(&rng, type: 1, size: size) : []
        for _ in 0..<count {
            let type: UInt32 = rng.chance(0.85) ? 11 : rng.pick([1, 2, 0, 3, 12, 0xFFFF_FFFF])
            out += notificationRecord(&rng, type: type, size: size)
        }
        return out
    }

    /// Stream-level changes: cut (at a record's edges or anywhere), extra bytes, a record's
    /// words rewritten (version, magic, type), bytes inserted or removed (everything after shifts).
    func mutateStream(_ stream: [UInt8], _ rng: inout Rng, record: Int) -> [UInt8] {
        var s = stream
        for _ in 0..<rng.int(1...3) {
            guard !s.isEmpty else { return rng.bytes(rng.length(64)) }
            let recordStart = rng.below(max(1, s.count / record)) * record
            switch rng.below(8) {
            case 0:  // truncated at a boundary or anywhere
                let cuts = [4, 7, 8, 12, record - 1, record, record + 1, record + 8, s.count - 1, rng.below(s.count)]
                s = Array(s.prefix(max(0, rng.pick(cuts))))
            case 1:  // oversized: a longer record, or bytes after the last
                s.insert(contentsOf: rng.bytes(rng.pick([1, 4, 8, 100, record])), at: rng.chance(0.5) ? s.count : min(s.count, recordStart + record))
            case 2:  // a record's first word (version or magic) changed
                if recordStart + 4 <= s.count { s.replaceSubrange(recordStart..<(recordStart + 4), with: le32(rng.pick(Self.firstWords.flatMap { $0 }))) }
            case 3:  // status or type word
                if recordStart + 8 <= s.count { s.replaceSubrange((recordStart + 4)..<(recordStart + 8), with: le32(rng.pick(Self.numbers))) }
            case 4:  // a few bytes removed: everything after is misframed
                let at = rng.below(s.count), n = min(s.count - at, rng.int(1...8))
                s.removeSubrange(at..<(at + n))
            case 5:  // NULs gone from a text field: filled to the end
                let at = recordStart + rng.pick([20, 32, 36, 288, 292, 360, 364])
                if at < s.count { let end = min(s.count, at + rng.pick([64, 256, 2048])); s.replaceSubrange(at..<end, with: [UInt8](repeating: 0xFF, count: end - at)) }
            case 6:  // an ACK (API 2's, or not) put first
                s = le32(rng.pick([0x0002_0000, 0x0003_0000, 0x0001_0000, 0, 0xFFFF_FFFF])) + SWUpdateTarget.ackMagic + s
            default:  // one message's bytes repeated
                let n = min(record, s.count - recordStart)
                s.insert(contentsOf: s[recordStart..<(recordStart + n)], at: rng.below(s.count + 1))
            }
        }
        return s
    }
}
