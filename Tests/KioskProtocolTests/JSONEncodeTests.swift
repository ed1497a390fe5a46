import KioskProtocol
import KioskTestSupport
import Testing

/// JSON.encode: one compact line, exact numbers, minimal escapes; and parse(encode(v)) == v.
@Suite struct JSONEncodeTests {
    @Test func oneCompactLineWithKeysInTheirOrder() {
        let v: JSONValue = ["z": 1, "a": [true, false, nil, "x"], "m": ["k": []], "e": .object(JSONObject())]
        #expect(JSON.encode(v) == #"{"z":1,"a":[true,false,null,"x"],"m":{"k":[]},"e":{}}"#)
        #expect(JSON.encodeBytes(v) == Array(JSON.encode(v).utf8))
        var line: [UInt8] = Array("> ".utf8)
        JSON.encode(["ok": true], into: &line)
        #expect(line == Array(#"> {"ok":true}"#.utf8))
    }

    @Test func stringsAreEscapedAsRFC8259AsksAndNoMore() {
        let s = "q\"b\\s/n\nr\rt\tb\u{8}f\u{C}z\u{0}u\u{1F}d\u{7F}é€😀\u{2028}"
        #expect(JSON.encode(.string(s)) == #""q\"b\\s/n\nr\rt\tb\bf\fz\u0000u\u001fd"# + "\u{7F}é€😀\u{2028}\"")
        for c in 0..<0x20 {
            let encoded = JSON.encode(.string(String(Unicode.Scalar(UInt8(c)))))
            #expect(!encoded.utf8.contains { $0 < 0x20 }, "U+\(c)")
            #expect(parsed(encoded) == .string(String(Unicode.Scalar(UInt8(c)))))
        }
    }

    @Test func numbers() {
        let cases: [(Double, String)] = [
            (42, "42"), (-7, "-7"), (0, "0"), (-0.0, "-0"), (0.15, "0.15"), (-2.5, "-2.5"), (1e-7, "1e-07"),
            (1e300, "1e+300"), (9_007_199_254_740_991, "9007199254740991"), (-9_007_199_254_740_991, "-9007199254740991"),
            (9_007_199_254_740_992, "9007199254740992.0"), (1e22, "1e+22"), (0.1 + 0.2, "0.30000000000000004"),
            (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            // JSON has no NaN or infinity: written as null.
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null"), (.signalingNaN, "null"),
        ]
        for (v, text) in cases { #expect(JSON.encode(.number(v)) == text, "\(v)") }
        #expect(JSON.encode([.number(.nan), ["x": .number(.infinity)]]) == #"[null,{"x":null}]"#)
    }

    @Test func accessors() {
        let v: JSONValue = ["s": "text", "n": 3, "f": 3.5, "b": true, "a": [1], "o": ["k": nil], "z": nil]
        #expect(v["s"]?.string == "text" && v["n"]?.string == nil)
        #expect(v["n"]?.double == 3 && v["s"]?.double == nil)
        #expect(v["n"]?.int == 3 && v["f"]?.int == nil && v["s"]?.int == nil)
        #expect(JSONValue.number(9_007_199_254_740_991).int == 9_007_199_254_740_991)
        #expect(JSONValue.number(-9_007_199_254_740_991).int == -9_007_199_254_740_991)
        #expect(JSONValue.number(9_007_199_254_740_992).int == nil)
        #expect(JSONValue.number(1e300).int == nil && JSONValue.number(.nan).int == nil)
        #expect(JSONValue.number(-0.0).int == 0)
        #expect(v["b"]?.bool == true && v["n"]?.bool == nil)
        #expect(v["a"]?.array == [1] && v["o"]?.array == nil)
        #expect(v["o"]?.object == ["k": nil] && v["a"]?.object == nil)
        #expect(v["z"]?.isNull == true && v["o"]?["k"]?.isNull == true && v["b"]?.isNull == false)
        #expect(v["s"]?["k"] == nil)
    }

    @Test func objectsAreBuiltInOrder() {
        var o = JSONObject([("b", 1), ("a", 2)])
        o.append("c", "3")
        #expect(o.keys == ["b", "a", "c"])
        #expect(o.count == 3 && !o.isEmpty)
        #expect(o["a"] == 2 && o["c"] == "3" && o["d"] == nil)
        #expect(o.members.map(\.key) == ["b", "a", "c"])
        #expect(o.values == [1, 2, "3"])
        // Same members in another order: another object.
        #expect(JSONObject([("a", 2), ("b", 1)]) != JSONObject([("b", 1), ("a", 2)]))
        // Past 9 members lookups go through a hash table.
        var big = JSONObject()
        for i in 0..<100 { big.append("k\(i)", .number(Double(i))) }
        #expect(big["k0"] == 0 && big["k99"] == 99 && big["k100"] == nil && big.contains("k50"))
    }

    // A trap is checked in a child process: Swift Testing's exit tests, which Swift 6.0 has not.
    #if compiler(>=6.2)
    @Test func buildingAnObjectWithADuplicateKeyIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = JSONObject([("label", "a"), ("label", "b")])
        }
        await #expect(processExitsWith: .failure) {
            var o = JSONObject()
            for i in 0..<20 { o.append("k\(i)", nil) }
            o.append("k3", nil)
        }
    }
    #endif

    /// Generated values (seeded): nested arrays and objects, strings with every control
    /// character, escapes, non-ASCII and astral characters, numbers at the edges.
    @Test func roundTripsOfGeneratedValues() {
        var gen = ValueGenerator(rng: SeededGenerator(seed: 0xC0DE_CAFE))
        for n in 0..<3000 {
            let v = gen.value()
            let text = JSON.encodeBytes(v)
            #expect(!text.contains(0x0A), "raw newline in \(n)")
            guard let back = parsed(bytes: text, limits: JSONLimits(maxBytes: 1 << 20)) else { continue }
            #expect(back == v, "value \(n): \(JSON.encode(v))")
            // Exactly: the same text again (this also tells -0 from 0).
            #expect(JSON.encodeBytes(back) == text, "value \(n)")
        }
    }

    @Test func everyFiniteDoubleRoundTripsBitForBit() {
        var rng = SeededGenerator(seed: 0xD0_0B1E)
        var checked = 0
        while checked < 20_000 {
            let x = Double(bitPattern: rng.next())
            guard x.isFinite else { continue }
            checked += 1
            let back = parsed(JSON.encode(.number(x)))?.double
            #expect(back?.bitPattern == x.bitPattern, "\(x)")
        }
    }
}
