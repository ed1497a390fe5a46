import KioskProtocol
import KioskTestSupport
import Testing

/// JSON.parse, rule by rule, with the exact messages and byte offsets.
@Suite struct JSONParseTests {
    // MARK: Values

    @Test func readsEveryKindOfValue() throws {
        let v = try JSON.parse(#" {"a": [true, false, null, 1.5, "x"], "b": {}, "c": []} "#.utf8)
        #expect(v == ["a": [true, false, nil, 1.5, "x"], "b": .object(JSONObject()), "c": []])
        #expect(v.object?.keys == ["a", "b", "c"])
        #expect(try JSON.parse("42".utf8) == 42)
        #expect(try JSON.parse("\"top\"".utf8) == "top")
        #expect(try JSON.parse("null".utf8).isNull)
    }

    @Test func whiteSpaceIsOnlySpaceTabNewlineAndReturn() throws {
        #expect(try JSON.parse(" \t\n\r[ 1 ,\t2\r\n]\n".utf8) == [1, 2])
    }

    static let badSpace: [Refused] = [
        Refused("\u{0C}[]", 0, "expected a value, found control character U+000C"),
        Refused("[1,\u{0B}2]", 3, "expected a value, found control character U+000B"),
        Refused("\u{A0}1", 0, "expected a value, found byte 0xC2"),
        Refused("[1]\u{0}", 3, "unexpected text after the value"),
        Refused(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8), 0, "a byte order mark (U+FEFF) before the value"),
    ]
    @Test(arguments: badSpace) func otherWhiteSpaceAndTheByteOrderMarkAreRefused(_ r: Refused) { expectRefused(r) }

    static let badLiterals: [Refused] = [
        Refused("True", 0, "invalid literal \"True\" (expected a value)"),
        Refused("[nul]", 1, "invalid literal \"nul\" (expected a value)"),
        Refused("NaN", 0, "invalid literal \"NaN\" (expected a value)"),
        Refused("[Infinity]", 1, "invalid literal \"Infinity\" (expected a value)"),
        Refused("-Infinity", 1, "expected a digit after \"-\""),
        Refused("truex", 0, "invalid literal \"truex\" (expected a value)"),
        Refused(String(repeating: "a", count: 40), 0, "invalid literal \"\(String(repeating: "a", count: 32))…\" (expected a value)"),
        Refused("[true false]", 6, "expected \",\" or \"]\" after an array item, found \"f\""),
    ]
    @Test(arguments: badLiterals) func onlyTrueFalseAndNullAreWords(_ r: Refused) { expectRefused(r) }

    // MARK: Numbers

    @Test func numbersFollowTheGrammar() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("7", 7), ("-12", -12), ("0.5", 0.5), ("-0.0", -0.0), ("1E5", 1e5), ("1e+5", 1e5),
            ("1e-5", 1e-5), ("2.5E-3", 2.5e-3), ("0e10", 0), ("1e0", 1), ("1e-0", 1), ("1E00", 1),
            ("123456789012345678901234567890", 123456789012345678901234567890.0),
            ("9007199254740993", 9_007_199_254_740_992), ("0.30000000000000004", 0.1 + 0.2),
            ("1.7976931348623157e308", .greatestFiniteMagnitude), ("4.9e-324", .leastNonzeroMagnitude),
            ("2.2250738585072014e-308", .leastNormalMagnitude), ("1e-400", 0),
        ]
        for (text, expected) in cases {
            let v = try JSON.parse(text.utf8).double
            #expect(v == expected, "\(text)")
            #expect(v?.sign == expected.sign, "\(text)")
        }
    }

    static let badNumbers: [Refused] = [
        Refused("01", 0, "leading zero in a number"),
        Refused("[-01]", 1, "leading zero in a number"),
        Refused("00", 0, "leading zero in a number"),
        Refused("+1", 0, "a number can not start with \"+\""),
        Refused(".5", 0, "a number can not start with \".\""),
        Refused("[-.5]", 2, "expected a digit after \"-\""),
        Refused("5.", 2, "expected a digit after the decimal point"),
        Refused("[5.e3]", 3, "expected a digit after the decimal point"),
        Refused("1e", 2, "expected a digit in the exponent"),
        Refused("1e+", 3, "expected a digit in the exponent"),
        Refused("-", 1, "expected a digit after \"-\""),
        Refused("--1", 1, "expected a digit after \"-\""),
        Refused("0x1F", 1, "unexpected text after the value"),
        Refused("[0x1F]", 2, "expected \",\" or \"]\" after an array item, found \"x\""),
        Refused("1.5.2", 3, "unexpected text after the value"),
        Refused("1e400", 0, "number out of range for a Double: 1e400"),
        Refused("[1, -1e400]", 4, "number out of range for a Double: -1e400"),
        Refused("1.8e308", 0, "number out of range for a Double: 1.8e308"),
        Refused("1" + String(repeating: "0", count: 400), 0, "number out of range for a Double: 1\(String(repeating: "0", count: 39))…"),
    ]
    @Test(arguments: badNumbers) func numbersOutsideTheGrammarOrNotFiniteAreRefused(_ r: Refused) { expectRefused(r) }

    /// The fast path (≤ 15 digits, |exponent| ≤ 22) and the slow one give the Double that
    /// Swift's own reader gives, for numbers of every shape.
    @Test func numbersAreTheNearestDouble() throws {
        var rng = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<5000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let intDigits = Int.random(in: 1...20, using: &rng)
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<intDigits { text += String(Int.random(in: 0...9, using: &rng)) }
            if Bool.random(using: &rng) {
                text += "."
                for _ in 0..<Int.random(in: 1...20, using: &rng) { text += String(Int.random(in: 0...9, using: &rng)) }
            }
            if Bool.random(using: &rng) { text += "e\(Int.random(in: -330...300, using: &rng))" }
            let expected = Double(text)!
            if expected.isFinite {
                #expect(try JSON.parse(text.utf8).double?.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(refusal(text)?.message.hasPrefix("number out of range") == true, "\(text)")
            }
        }
    }

    // MARK: Strings

    @Test func everyEscapeIsDecoded() throws {
        let v = try JSON.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\uD83D\uDE00\ud834\udd1e\u0000""#.utf8)
        #expect(v == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀𝄞\u{0}"))
        #expect(try JSON.parse("\"a\u{7F}b €😀\"".utf8) == "a\u{7F}b €😀")
    }

    static let badStrings: [Refused] = [
        Refused("\"a\tb\"", 2, "raw control character U+0009 in a string"),
        Refused("[\"line\nbreak\"]", 6, "raw control character U+000A in a string"),
        Refused("\"\u{0}\"", 1, "raw control character U+0000 in a string"),
        Refused("\"\u{1F}\"", 1, "raw control character U+001F in a string"),
        Refused(#""\x""#, 1, #"invalid escape "\x" in a string"#),
        Refused(#""\'""#, 1, #"invalid escape "\'" in a string"#),
        Refused("\"\\\u{9}\"", 1, #"invalid escape ("\" followed by control character U+0009) in a string"#),
        Refused(#""\u12G4""#, 1, #"invalid escape "\u12G4" in a string (\u takes four hex digits)"#),
        Refused(#""\u12""#, 1, #"invalid escape "\u12" in a string (\u takes four hex digits)"#),
        Refused(#""\uD800""#, 1, #"lone surrogate escape \uD800 in a string (a high surrogate with no \u escape of a low one after it)"#),
        Refused(#""\uD800x""#, 1, #"lone surrogate escape \uD800 in a string (a high surrogate with no \u escape of a low one after it)"#),
        Refused(#""\uD800\u0041""#, 1, #"lone surrogate escape \uD800 in a string (followed by \u0041, not a low surrogate)"#),
        Refused(#""\uD800\uD800""#, 1, #"lone surrogate escape \uD800 in a string (followed by \uD800, not a low surrogate)"#),
        Refused(#"["ok", "\udc00"]"#, 8, #"lone surrogate escape \uDC00 in a string (a low surrogate with no high one before it)"#),
        Refused(#""abc"#, 4, "the input ends inside a string (opened at byte 0)"),
        Refused(#"{"a": "b}"#, 9, "the input ends inside a string (opened at byte 6)"),
        Refused(#""\"#, 2, "the input ends inside a string escape"),
        Refused(#""\u00"#, 5, "the input ends inside a string escape"),
    ]
    @Test(arguments: badStrings) func badStringsAreRefused(_ r: Refused) { expectRefused(r) }

    // MARK: UTF-8

    @Test func everyLengthOfUTF8IsReadUpToItsEdges() throws {
        let edges: [(bytes: [UInt8], scalar: Unicode.Scalar)] = [
            ([0x7F], "\u{7F}"), ([0xC2, 0x80], "\u{80}"), ([0xDF, 0xBF], "\u{7FF}"), ([0xE0, 0xA0, 0x80], "\u{800}"),
            ([0xED, 0x9F, 0xBF], "\u{D7FF}"), ([0xEE, 0x80, 0x80], "\u{E000}"), ([0xEF, 0xBF, 0xBF], Unicode.Scalar(0xFFFF)!),
            ([0xF0, 0x90, 0x80, 0x80], "\u{10000}"), ([0xF4, 0x8F, 0xBF, 0xBF], Unicode.Scalar(0x10FFFF)!), ([0xEF, 0xBB, 0xBF], "\u{FEFF}"),
        ]
        for (bytes, scalar) in edges {
            #expect(parsed(bytes: [0x22] + bytes + [0x22]) == .string(String(scalar)), "\(bytes)")
        }
    }

    static let badUTF8: [Refused] = [
        // The message names the fault; the description says where: "at byte 12: invalid UTF-8 (…)".
        Refused(bytes: Array(#"{"label": "a"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), 12, "invalid UTF-8 (an overlong encoding)"),
        Refused(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 (an overlong encoding)"),
        Refused(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 (an overlong encoding)"),
        Refused(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 (a surrogate (U+D800–U+DFFF) encoded in UTF-8)"),
        Refused(bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], 1, "invalid UTF-8 (a surrogate (U+D800–U+DFFF) encoded in UTF-8)"),
        Refused(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 (a code point above U+10FFFF)"),
        Refused(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 (byte 0xF5 never occurs in UTF-8)"),
        Refused(bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8 (byte 0xFF never occurs in UTF-8)"),
        Refused(bytes: [0x22, 0x61, 0x80, 0x22], 2, "invalid UTF-8 (continuation byte 0x80 with no lead byte)"),
        Refused(bytes: [0x22, 0xC3, 0x22], 1, "invalid UTF-8 (a sequence cut short)"),
        Refused(bytes: [0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 (a sequence cut short)"),
        Refused(bytes: [0x22, 0xF0, 0x9F, 0x98], 1, "invalid UTF-8 (a sequence cut short)"),
        Refused(bytes: [0x5B, 0xC3, 0xA9, 0x5D], 1, "expected a value, found byte 0xC3"),
    ]
    @Test(arguments: badUTF8) func invalidUTF8IsRefused(_ r: Refused) { expectRefused(r) }

    @Test func theBriefsExampleReadsAsSaid() {
        let e = refusal(bytes: Array(#"{"label": "a"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8))
        #expect(e?.description == "at byte 12: invalid UTF-8 (an overlong encoding)")
    }

    // MARK: Structure

    static let badStructure: [Refused] = [
        Refused("", 0, "expected a value, found the end of the input"),
        Refused("   ", 3, "expected a value, found the end of the input"),
        Refused("[", 1, "expected a value, found the end of the input"),
        Refused("[1", 2, "expected \",\" or \"]\" after an array item, found the end of the input"),
        Refused("]", 0, "expected a value, found \"]\""),
        Refused("[1,]", 3, "a comma before \"]\" (trailing comma)"),
        Refused("[,1]", 1, "expected a value, found \",\""),
        Refused("[1,,2]", 3, "expected a value, found \",\""),
        Refused("[1 2]", 3, "expected \",\" or \"]\" after an array item, found \"2\""),
        Refused("[1;2]", 2, "expected \",\" or \"]\" after an array item, found \";\""),
        Refused("[1}", 2, "expected \",\" or \"]\" after an array item, found \"}\""),
        Refused(#"{"a":1,}"#, 7, "a comma before \"}\" (trailing comma)"),
        Refused(#"{"a" 1}"#, 5, "expected \":\" after the key \"a\", found \"1\""),
        Refused(#"{"a"=1}"#, 4, "expected \":\" after the key \"a\", found \"=\""),
        Refused(#"{"a":}"#, 5, "expected a value, found \"}\""),
        Refused("{1:2}", 1, "expected a key (a string), found \"1\""),
        Refused("{'a':1}", 1, "expected a key (a string), found \"'\""),
        Refused("{,}", 1, "expected a key (a string), found \",\""),
        Refused(#"{"a":1 "b":2}"#, 7, "expected \",\" or \"}\" after an object member, found '\"'"),
        Refused(#"{"a":1]"#, 6, "expected \",\" or \"}\" after an object member, found \"]\""),
        Refused("[1]x", 3, "unexpected text after the value"),
        Refused("1 2", 2, "unexpected text after the value"),
        Refused("{}{}", 2, "unexpected text after the value"),
        Refused("[1]]", 3, "unexpected text after the value"),
        Refused("[] // comment", 3, "unexpected text after the value"),
        Refused("/* c */ []", 0, "expected a value, found \"/\""),
    ]
    @Test(arguments: badStructure) func badStructureIsRefused(_ r: Refused) { expectRefused(r) }

    // MARK: Objects

    @Test func keysKeepTheirOrderAndAreFoundByName() throws {
        let v = try JSON.parse(#"{"z": 1, "a": 2, "m": {"k": "v"}}"#.utf8)
        #expect(v.object?.keys == ["z", "a", "m"])
        #expect(v["a"] == 2)
        #expect(v["m"]?["k"] == "v")
        #expect(v["missing"] == nil)
        #expect(v.object?.count == 3)
    }

    static let duplicates: [Refused] = [
        Refused(#"{"label":"a","label":"b"}"#, 13, "duplicate key \"label\""),
        Refused(#"{"a":1,"\u0061":2}"#, 7, "duplicate key \"a\""),
        Refused(#"{"x":{"a":1,"b":2,"a":3}}"#, 18, "duplicate key \"a\""),
        Refused(#"{"":1,"":2}"#, 6, "duplicate key \"\""),
        Refused(#"{"a\nb":1,"a\nb":2}"#, 10, #"duplicate key "a\nb""#),
    ]
    @Test(arguments: duplicates) func aDuplicateKeyIsAnError(_ r: Refused) { expectRefused(r) }

    @Test func aDuplicateKeyIsFoundInLargeObjectsToo() {
        // From 9 members on, keys are looked up in a hash table.
        let members = (0..<40).map { "\"k\($0)\":\($0)" }
        expectRefused(Refused("{" + members.joined(separator: ",") + ",\"k17\":0}", 1 + members.joined(separator: ",").utf8.count + 1,
                              "duplicate key \"k17\""))
        let v = parsed("{" + members.joined(separator: ",") + "}")
        #expect(v?["k39"] == 39)
        #expect(v?.object?.count == 40)
    }

    @Test func keysAreComparedByCodePointsNotCanonicalEquivalence() throws {
        // "é" and "e" + COMBINING ACUTE ACCENT are equal Swift Strings but two JSON keys.
        let v = try JSON.parse(#"{"\u00e9": 1, "e\u0301": 2}"#.utf8)
        #expect(v.object?.count == 2)
        #expect(v["\u{E9}"] == 1)
        #expect(v["e\u{301}"] == 2)
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
    }

    // MARK: Input kinds

    @Test func anyCollectionOfBytesIsRead() throws {
        let text = #"{"a":[1,2]}"#
        let expected: JSONValue = ["a": [1, 2]]
        #expect(try JSON.parse(text.utf8) == expected)
        #expect(try JSON.parse(Array(text.utf8)) == expected)
        #expect(try JSON.parse(Array(("  " + text + "  ").utf8)[2...]) == expected)
        #expect(try JSON.parse(text.dropFirst(0).utf8) == expected)
        // Not contiguous: read from a copy.
        #expect(try JSON.parse(Array(text.utf8.reversed()).reversed()) == expected)
    }
}
