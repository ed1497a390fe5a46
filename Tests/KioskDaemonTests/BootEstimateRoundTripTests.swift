// What the boot estimate writes at quit, the next start reads back (issue #24, 4): generated
// statuses of every awkward kind, written and read, give back the same estimate.
import KioskDaemon
import KioskTestSupport
import Testing

/// Boot statuses a seeded generator makes: empty, control characters, newlines, tabs, combining
/// marks first, decoded invalid UTF-8, noncharacters and BOMs, colons, very long, duplicates.
struct NastyStatuses {
    var random: SeededGenerator
    var made: [String] = []

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    static let pieces: [String] = [
        "", "\n", "\r", "\r\n", "\t", "\0", "\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "\u{301}", "\u{308}\u{301}",
        "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}", "\u{202E}", "\u{200D}", ":", "::", " ", "0.5:",
        "Checking disks", "fsck: clean", "x.service", "e\u{301}", "🇫🇷", "👩‍👩‍👧", "日本語", "ﷺ", "ا", "\\", "\\n", "%s",
    ]

    mutating func next() -> String {
        let kind = Int.random(in: 0..<10, using: &random)
        var s: String
        switch kind {
        case 0: s = ""
        case 1:   // invalid UTF-8, decoded as a reader would (replacement characters)
            let bytes = (0..<Int.random(in: 1..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            s = String(decoding: bytes, as: UTF8.self)
        case 2:   // very long
            s = String(repeating: NastyStatuses.pieces.randomElement(using: &random)! + "a", count: Int.random(in: 100..<400, using: &random))
        case 3 where !made.isEmpty:   // a duplicate
            s = made.randomElement(using: &random)!
        case 4:   // a combining mark first
            s = "\u{301}" + NastyStatuses.pieces.randomElement(using: &random)! + ".service"
        default:
            s = ""
            for _ in 0..<Int.random(in: 1..<6, using: &random) { s += NastyStatuses.pieces.randomElement(using: &random)! }
        }
        made.append(s)
        return s
    }
}

@Suite struct BootEstimateRoundTripTests {
    /// The issue's three: each alone makes a file that reads back.
    @Test(arguments: ["", "Checking disks\nfsck: clean", "\u{301}x.service", "a\r", "\r\n", "x\0y", "0.5:b"])
    func anAwkwardStatusDoesNotSpoilTheFile(_ status: String) throws {
        var e = BootEstimate()
        e.status("a.service", at: 1)
        e.status(status, at: 2)
        e.status("b.service", at: 4)
        let heard = ["a.service": 1, status: 1, "b.service": 1]
        let back = try BootEstimate.parse(Array(e.cache(at: 4).utf8))
        #expect(back["a.service"] == 0.25 && back["b.service"] == 1)
        #expect(back == expected(e, heard, at: 4), "\(e.cache(at: 4).debugDescription)")
    }

    /// Many boots of generated statuses: the file always reads back, to exactly what was
    /// written — every status heard once that a line can hold (see `BootEstimate.cache`), at its
    /// fraction to three places.
    @Test(arguments: 0..<40)
    func generatedStatusesRoundTrip(_ seed: Int) throws {
        var g = NastyStatuses(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        var e = BootEstimate()
        var t = 0.0
        var heard: [String: Int] = [:]
        let count = seed % 8 == 7 ? BootEstimate.maxMessages + 50 : 200
        for _ in 0..<count {
            t += Double(Int.random(in: 0..<1000, using: &g.random)) / 1000
            let s = g.next()
            heard[s, default: 0] += 1
            e.status(s, at: t)
        }
        let end = t + 1
        let file = e.cache(at: end)
        #expect(file.utf8.count <= BootEstimate.maxCacheBytes)
        let back: [String: Double]
        do { back = try BootEstimate.parse(Array(file.utf8)) } catch {
            Issue.record("seed \(seed): \(error)")
            return
        }
        #expect(back == expected(e, heard, at: end), "seed \(seed)")
        // Read back and used, it gives the same estimate as the statuses themselves would.
        let next = BootEstimate(previous: back)
        #expect(next.previous.count == back.count)
    }

    /// What the file must hold: each status heard exactly once that a line can hold (not empty,
    /// no line feed or NUL, at most 254 bytes), at its fraction to three places, in order until
    /// the file's byte limit.
    func expected(_ e: BootEstimate, _ heard: [String: Int], at end: Double) -> [String: Double] {
        var out: [String: Double] = [:]
        var bytes = 0
        let total = e.runningTime(at: end)
        for m in e.messages where heard[m.text] == 1 {
            let u = Array(m.text.utf8)
            guard !u.isEmpty, u.count <= 254, !u.contains(0x0A), !u.contains(0) else { continue }
            let fraction = (min(1, m.time / total) * 1000).rounded() / 1000
            let line = 6 + u.count + 1
            if bytes + line > BootEstimate.maxCacheBytes { break }
            bytes += line
            out[m.text] = fraction
        }
        return out
    }
}
