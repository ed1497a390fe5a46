import KioskProtocol
import KioskTestSupport
import Testing

/// Hostile input: every limit, huge and deep documents, seeded mutations; and the parse time
/// of a typical request.
@Suite struct JSONLimitTests {
    @Test func theDefaultLimits() {
        #expect(JSONLimits.default == JSONLimits(maxBytes: 65536, maxDepth: 16, maxStringBytes: 16384, maxElements: 1024))
    }

    @Test func maxBytes() {
        let fits = "[" + String(repeating: " ", count: 65534) + "]"
        #expect(parsed(fits) == [])
        expectRefused(Refused(fits + " ", 65536, "input longer than 65536 bytes (maxBytes)"))
        expectRefused(Refused("[1, 2]", 4, "input longer than 4 bytes (maxBytes)"), limits: JSONLimits(maxBytes: 4))
    }

    @Test func maxDepth() {
        let deepest = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect(parsed(deepest) != nil)
        expectRefused(Refused("[" + deepest + "]", 16, "nesting deeper than 16 (maxDepth)"))
        let objects = String(repeating: #"{"a":"#, count: 16) + "1" + String(repeating: "}", count: 16)
        #expect(parsed(objects) != nil)
        expectRefused(Refused("[" + objects + "]", 76, "nesting deeper than 16 (maxDepth)"))
        expectRefused(Refused("[[[]]]", 2, "nesting deeper than 2 (maxDepth)"), limits: JSONLimits(maxDepth: 2))
        #expect(parsed("[]", limits: JSONLimits(maxDepth: 1)) == [])
        #expect(parsed("7", limits: JSONLimits(maxDepth: 0)) == 7)
        expectRefused(Refused("{}", 0, "nesting deeper than 0 (maxDepth)"), limits: JSONLimits(maxDepth: 0))
    }

    @Test func maxStringBytes() {
        let longest = String(repeating: "é", count: 8192) // 16,384 bytes
        #expect(parsed("[\"\(longest)\"]")?.array?.first?.string == longest)
        expectRefused(Refused("[\"\(longest)x\"]", 1, "string longer than 16384 bytes (maxStringBytes)"))
        // Counted once escapes are decoded: "\u00e9" is 6 bytes of input and 2 of string.
        let escaped = String(repeating: #"\u00e9"#, count: 8192)
        #expect(parsed("\"\(escaped)\"")?.string == longest)
        expectRefused(Refused("\"\(escaped)\\n\"", 0, "string longer than 16384 bytes (maxStringBytes)"))
        // Keys too.
        expectRefused(Refused("{\"\(longest)a\":1}", 1, "string longer than 16384 bytes (maxStringBytes)"))
        expectRefused(Refused(#"["abcd", "abcde"]"#, 9, "string longer than 4 bytes (maxStringBytes)"),
                      limits: JSONLimits(maxStringBytes: 4))
    }

    @Test func maxElements() {
        let items = Array(repeating: "0", count: 1024).joined(separator: ",")
        #expect(parsed("[\(items)]")?.array?.count == 1024)
        expectRefused(Refused("[\(items),0]", 1 + 2 * 1024, "array with more than 1024 items (maxElements)"))
        let members = (0..<1024).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(parsed("{\(members)}")?.object?.count == 1024)
        expectRefused(Refused("{\(members),\"last\":0}", 2 + members.utf8.count, "object with more than 1024 members (maxElements)"))
        // Each container on its own: 2 x 3 items with a limit of 3.
        #expect(parsed("[[1,2],[3,4],[5,6]]", limits: JSONLimits(maxElements: 3)) != nil)
        expectRefused(Refused("[[1,2,3,4]]", 8, "array with more than 3 items (maxElements)"), limits: JSONLimits(maxElements: 3))
        expectRefused(Refused("[1,2,3,[4]]", 7, "array with more than 3 items (maxElements)"), limits: JSONLimits(maxElements: 3))
        expectRefused(Refused(#"{"a":1,"b":2,"c":3,"d":{"e":4}}"#, 19, "object with more than 3 members (maxElements)"),
                      limits: JSONLimits(maxElements: 3))
    }

    @Test func aHundredThousandDeepArrayIsRefusedQuickly() {
        let clock = ContinuousClock()
        let deep = [UInt8](repeating: 0x5B, count: 100_000)
        let elapsed = clock.measure {
            // Too large for the default limits: refused before a byte is read.
            expectRefused(Refused(bytes: deep, 65536, "input longer than 65536 bytes (maxBytes)"))
            // Allowed in: refused at the 17th level, with no recursion to overflow.
            expectRefused(Refused(bytes: deep, 16, "nesting deeper than 16 (maxDepth)"), limits: JSONLimits(maxBytes: 1 << 20))
            let closed = deep + [UInt8](repeating: 0x5D, count: 100_000)
            expectRefused(Refused(bytes: closed, 16, "nesting deeper than 16 (maxDepth)"), limits: JSONLimits(maxBytes: 1 << 20))
            // A deep limit is only a stack of small frames (no recursion while reading).
            let thousand = [UInt8](repeating: 0x5B, count: 1000)
            expectRefused(Refused(bytes: thousand, 1000, "expected a value, found the end of the input"),
                          limits: JSONLimits(maxDepth: 100_000))
        }
        print("KioskProtocol: 100,000-deep arrays refused in \(millis(elapsed))")
        #expect(elapsed < .seconds(1))
    }

    @Test func tenMegabytesAreRefusedQuickly() {
        let tenMB = 10 << 20
        let brackets = [UInt8](repeating: 0x5B, count: tenMB)
        let string = [0x22] + [UInt8](repeating: 0x61, count: tenMB) + [0x22]
        var array: [UInt8] = [0x5B]
        array.reserveCapacity(tenMB + 3)
        for _ in 0..<tenMB / 2 { array.append(0x30); array.append(0x2C) }
        array += [0x30, 0x5D]
        let big = JSONLimits(maxBytes: 1 << 30)

        let clock = ContinuousClock()
        let tooLarge = Refused(bytes: [], 65536, "input longer than 65536 bytes (maxBytes)")
        let bySize = clock.measure {
            expectRefused(Refused(bytes: brackets, tooLarge.offset, tooLarge.message))
            // Not contiguous and never copied: its size alone refuses it.
            let repeated = Result { () throws(JSONError) in try JSON.parse(repeatElement(UInt8(ascii: "7"), count: tenMB)) }
            #expect(repeated == .failure(JSONError(tooLarge.message, at: tooLarge.offset)))
        }
        // Allowed in, a huge string or array stops at its own limit.
        let byContent = clock.measure {
            expectRefused(Refused(bytes: string, 0, "string longer than 16384 bytes (maxStringBytes)"), limits: big)
            expectRefused(Refused(bytes: array, 1 + 2 * 1024, "array with more than 1024 items (maxElements)"), limits: big)
            expectRefused(Refused(bytes: brackets, 16, "nesting deeper than 16 (maxDepth)"), limits: big)
        }
        print("KioskProtocol: 10 MB inputs refused by maxBytes in \(millis(bySize)), by the other limits in \(millis(byContent))")
        #expect(bySize < .milliseconds(100))
        #expect(byContent < .seconds(1))
    }

    /// Valid documents broken in seeded ways (bytes flipped, inserted, deleted, duplicated,
    /// cut off): each is read or refused, never a crash or a hang; what is read is written and
    /// read back to the same value and the same text.
    @Test func twentyThousandMutations() {
        var rng = SeededGenerator(seed: 0xF0_22ED)
        var gen = ValueGenerator(rng: SeededGenerator(seed: 0x5EED_F022))
        var seeds: [[UInt8]] = [
            Array(Self.request.utf8),
            Array(##"{"cmd":"style","style":{"color":"#FF8800FF","margin":-1.5e-3,"tags":["a\"b","\\","\u00e9\uD83D\uDE00"]}}"##.utf8),
            Array("[0,-0,1e22,1E-7,123.456,[[[[]]]],{\"\":{}},\"€😀\",true,false,null]".utf8),
        ]
        for _ in 0..<30 { seeds.append(JSON.encodeBytes(gen.value())) }
        let tokens: [[UInt8]] = ["[", "]", "{", "}", "\"", "\\", "\\u", "\\uD800", ",", ":", "0", "-", "e", ".", "1e999",
                                 "true", "nul", " ", "\n", "\t"].map { Array($0.utf8) }
            + [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x00], [0xEF, 0xBB, 0xBF], [0xE2, 0x82]]
        var accepted = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for n in 0..<20_000 {
                var doc = seeds.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let at = Int.random(in: 0...doc.count, using: &rng)
                    switch Int.random(in: 0..<7, using: &rng) {
                    case 0 where at < doc.count: doc[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                    case 1 where at < doc.count: doc[at] = UInt8.random(in: 0...255, using: &rng)
                    case 2: doc.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                    case 3: doc.insert(contentsOf: tokens.randomElement(using: &rng)!, at: at)
                    case 4 where at < doc.count: doc.removeSubrange(at..<min(doc.count, at + Int.random(in: 1...4, using: &rng)))
                    case 5: doc.removeSubrange(at...)
                    default:
                        let from = Int.random(in: 0...at, using: &rng)
                        doc.insert(contentsOf: doc[from..<at], at: at)
                    }
                }
                switch Result(catching: { () throws(JSONError) in try JSON.parse(doc) }) {
                case let .success(v):
                    accepted += 1
                    let text = JSON.encodeBytes(v)
                    let again = parsed(bytes: text)
                    #expect(again == v, "mutation \(n)")
                    #expect(again.map(JSON.encodeBytes) == text, "mutation \(n)")
                case let .failure(error):
                    #expect((0...doc.count).contains(error.offset), "mutation \(n): \(error)")
                    #expect(!error.message.isEmpty)
                }
            }
        }
        print("KioskProtocol: 20,000 mutated documents: \(accepted) read, \(20_000 - accepted) refused, in \(millis(elapsed))")
        #expect(accepted > 100 && accepted < 19_000)
    }

    /// A typical request line (about 200 bytes).
    static let request = #"{"id":42,"cmd":"update","label":"Flashing firmware… 3/4","progress":0.375,"spinner":true,"#
        + ##""style":{"color":"#33CCFFFF","margin":12,"font_size":18},"buttons":["Cancel","Retry"],"timeout_ms":1500}"##

    @Test func parseTimeOfATypicalRequest() throws {
        let bytes = Array(Self.request.utf8)
        #expect((190...220).contains(bytes.count))
        let v = try JSON.parse(bytes)
        #expect(v["label"] == "Flashing firmware… 3/4" && v["style"]?["margin"]?.int == 12)
        #expect(try JSON.parse(JSON.encodeBytes(v)) == v)
        let clock = ContinuousClock()
        var runs: [Duration] = []
        for _ in 0..<21 {
            let n = 500
            let t = clock.measure { for _ in 0..<n { _ = try? JSON.parse(bytes) } }
            runs.append(t / n)
        }
        runs.sort()
        let encode = clock.measure { for _ in 0..<500 { _ = JSON.encodeBytes(v) } } / 500
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("KioskProtocol: parse of a \(bytes.count)-byte request (\(build) build): median \(micros(runs[10])), min \(micros(runs[0])); encode \(micros(encode))")
    }
}
