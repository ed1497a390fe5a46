import KioskSettings
import Testing

/// Why `text` is refused, or nil (and a recorded issue) if it is read.
private func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> TOMLParseError? {
    refusal(bytes: Array(text.utf8), sourceLocation: sourceLocation)
}

private func refusal(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> TOMLParseError? {
    do {
        let t = try TOMLTable(bytes: bytes)
        Issue.record("accepted: \(t)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// "line:column", or "nil".
private func at(_ p: (line: Int, column: Int)?) -> String { p.map { "\($0.line):\($0.column)" } ?? "nil" }

/// A refused document: where and why.
struct Refused: Sendable, CustomTestStringConvertible {
    var toml: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { toml.debugDescription }
    init(_ toml: String, _ line: Int, _ column: Int, _ message: String) {
        self.toml = toml; self.line = line; self.column = column; self.message = message
    }
}

/// TOML 1.0, read strictly (TOML.swift).
@Suite struct TOMLTests {
    // MARK: What is read

    @Test func valuesTablesAndComments() throws {
        let t = try TOMLTable(string: """
            # comment
            name = "x" # trailing
            'quoted key' = 'C:\\no\\escapes'
            "esc" = "a\\"b\\\\c\\u00e9\\n"
            n = -1_000
            f = 2.5e-1
            yes = true
            arr = [
              1, 2,   # comment inside
              3,
            ]
            empty = []

            [section]
            k = 0.3
            """)
        #expect(t.keys == ["name", "quoted key", "esc", "n", "f", "yes", "arr", "empty", "section"])
        #expect(t["name"]?.string == "x")
        #expect(t["quoted key"]?.string == "C:\\no\\escapes")
        #expect(t["esc"]?.string == "a\"b\\cé\n")
        #expect(t["n"]?.int == -1000)
        #expect(t["f"]?.double == 0.25)
        #expect(t["yes"]?.bool == true)
        #expect(t["arr"]?.array?.compactMap(\.int) == [1, 2, 3])
        #expect(t["empty"]?.array?.isEmpty == true)
        #expect(t["section"]?.table?["k"]?.double == 0.3)
        #expect(t["n"]?.double == nil && t["f"]?.int == nil)
    }

    @Test func keys() throws {
        let t = try TOMLTable(string: """
            bare_key-1 = 1
            "quoted \\u0041" = 2
            '' = 3
            a . b."c.d" = 4
            a.e = 5
            1234 = 6
            3.14 = 7
            """)
        #expect(t.keys == ["bare_key-1", "quoted A", "", "a", "1234", "3"])
        #expect(t[""]?.int == 3)
        let a = try #require(t["a"]?.table)
        #expect(a.keys == ["b", "e"])
        #expect(a["b"]?.table?["c.d"]?.int == 4 && a["e"]?.int == 5)
        #expect(t["1234"]?.int == 6 && t["3"]?.table?["14"]?.int == 7)
    }

    @Test func tablesAndArraysOfTables() throws {
        let t = try TOMLTable(string: """
            [x.y.z]
            n = 1
            [x]          # named on the way to [x.y.z]: may still be defined once
            m = 2

            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[fruits.varieties]]
            name = "granny smith"
            [[fruits]]
            name = "banana"

            [dog]
            tater.man = "pug"
            [dog.tater.type]   # through a table made by dotted keys: allowed
            name = "pug"
            """)
        #expect(t.keys == ["x", "fruits", "dog"])
        #expect(t["x"]?.table?["y"]?.table?["z"]?.table?["n"]?.int == 1 && t["x"]?.table?["m"]?.int == 2)
        let fruits = try #require(t["fruits"]?.array?.compactMap { $0.table })
        #expect(fruits.count == 2)
        #expect(fruits[0]["physical"]?.table?["color"]?.string == "red")
        #expect(fruits[0]["varieties"]?.array?.compactMap { $0.table?["name"]?.string } == ["red delicious", "granny smith"])
        #expect(fruits[1]["name"]?.string == "banana" && fruits[1]["varieties"] == nil)
        let tater = try #require(t["dog"]?.table?["tater"]?.table)
        #expect(tater["man"]?.string == "pug" && tater["type"]?.table?["name"]?.string == "pug")
    }

    @Test func inlineTables() throws {
        let t = try TOMLTable(string: """
            point = { x = 1, y = 2 }
            empty = {}
            nested = { a = { b = [1, { c = true }] }, d.e = "f" }
            lines = { s = \"""
            two
            lines\""", arr = [
              1,   # a comment inside an array is fine
            ] }
            """)
        #expect(t["point"]?.table?.keys == ["x", "y"])
        #expect(t["empty"]?.table?.keys == [])
        let nested = try #require(t["nested"]?.table)
        #expect(nested["a"]?.table?["b"]?.array?[1].table?["c"]?.bool == true)
        #expect(nested["d"]?.table?["e"]?.string == "f")
        #expect(t["lines"]?.table?["s"]?.string == "two\nlines" && t["lines"]?.table?["arr"]?.array?.count == 1)
    }

    @Test func strings() throws {
        let t = try TOMLTable(string: #"""
            escapes = "\b\t\n\f\r\"\\ \u00E9 \U0001F600"
            tab = "a	b"
            literal = 'C:\Users\nodejs\templates'
            ml = """
            Roses are red
            Violets are blue"""
            joined = """\
                   The quick \
                   brown fox.\
                   """
            quotes = """Here are two quotation marks: "". Simple enough."""
            ending = """"This," she said, "is just a pointless statement.\""""
            five = """a"""""
            raw = '''
            The first newline is
            trimmed in raw strings.
               All other whitespace
               is preserved. \n
            '''
            rawquotes = ''''That,' she said, 'is still pointless.''''
            """#)
        #expect(t["escapes"]?.string == "\u{8}\t\n\u{C}\r\"\\ é 😀")
        #expect(t["tab"]?.string == "a\tb")
        #expect(t["literal"]?.string == #"C:\Users\nodejs\templates"#)
        #expect(t["ml"]?.string == "Roses are red\nViolets are blue")
        #expect(t["joined"]?.string == "The quick brown fox.")
        #expect(t["quotes"]?.string == #"Here are two quotation marks: "". Simple enough."#)
        #expect(t["ending"]?.string == #""This," she said, "is just a pointless statement.""#)
        #expect(t["five"]?.string == #"a"""#)
        #expect(t["raw"]?.string == "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved. \\n\n")
        #expect(t["rawquotes"]?.string == "'That,' she said, 'is still pointless.'")
    }

    @Test func integers() throws {
        let t = try TOMLTable(string: """
            a = +99
            b = 0
            c = -0
            d = 1_000_000
            e = 0xDEAD_beef
            f = 0o755
            g = 0b1101_0110
            h = 0x0000_00FF
            max = 9_223_372_036_854_775_807
            min = -9223372036854775808
            hmax = 0x7FFFFFFFFFFFFFFF
            """)
        #expect(t["a"]?.int == 99 && t["b"]?.int == 0 && t["c"]?.int == 0 && t["d"]?.int == 1_000_000)
        #expect(t["e"]?.int == 0xDEADBEEF && t["f"]?.int == 0o755 && t["g"]?.int == 0b1101_0110 && t["h"]?.int == 255)
        #expect(t["max"]?.int == Int.max && t["min"]?.int == Int.min && t["hmax"]?.int == Int.max)
    }

    @Test func floats() throws {
        let t = try TOMLTable(string: """
            a = +1.0
            b = 3.1415
            c = -0.01
            d = 5e+22
            e = 1e06
            f = -2E-2
            g = 6.626e-34
            h = 224_617.445_991_228
            i = -0.0
            j = 0e0
            k = inf
            l = +inf
            m = -inf
            n = nan
            o = -nan
            """)
        #expect(t["a"]?.double == 1 && t["b"]?.double == 3.1415 && t["c"]?.double == -0.01 && t["d"]?.double == 5e22)
        #expect(t["e"]?.double == 1e6 && t["f"]?.double == -2e-2 && t["g"]?.double == 6.626e-34 && t["h"]?.double == 224_617.445_991_228)
        #expect(t["i"]?.double == 0 && t["i"]?.double?.sign == .minus && t["j"]?.double == 0)
        #expect(t["k"]?.double == .infinity && t["l"]?.double == .infinity && t["m"]?.double == -.infinity)
        #expect(t["n"]?.double?.isNaN == true && t["o"]?.double?.isNaN == true)
    }

    @Test func mixedArraysLineEndsAndBOM() throws {
        let t = try TOMLTable(bytes: [0xEF, 0xBB, 0xBF] + Array("a = [1, 'x', 2.5, [true], {b = 1}]\r\nc = \"\"\"x\r\ny\"\"\"\r\n".utf8))
        #expect(t.keys == ["a", "c"])
        #expect(t["a"]?.array?.count == 5 && t["a"]?.array?[3].array?[0].bool == true)
        #expect(t["c"]?.string == "x\ny")  // CRLF in a multi-line string reads as LF
        #expect(try TOMLTable(string: "").keys.isEmpty)
        #expect(try TOMLTable(string: "# only a comment").keys.isEmpty)
    }

    // MARK: What is refused

    static let fuzzFindings: [Refused] = [
        Refused("scale = 01.5", 1, 9, "leading zero in a number"),
        Refused("scale = 1.e0", 1, 11, "expected digits in the fraction after the decimal point"),
        Refused("a = \"\\u+041\"", 1, 6, "invalid escape \\u+041"),
        Refused("a = \"x\u{0}y\"", 1, 7, "control character U+0000 in a string"),
        Refused("a = 'x\u{0}y'", 1, 7, "control character U+0000 in a string"),
        Refused("a = \"\"\"x\u{1F}\"\"\"", 1, 9, "control character U+001F in a string"),
        Refused("a = \"x\u{7F}\"", 1, 7, "control character U+007F in a string"),
        Refused("a = 1 # bell\u{7}", 1, 13, "control character U+0007 in a comment"),
        Refused("a = 1 # \u{7F}", 1, 9, "control character U+007F in a comment"),
    ]

    static let syntax: [Refused] = [
        // Numbers
        Refused("a = 00", 1, 5, "leading zero in a number"),
        Refused("a = -01", 1, 5, "leading zero in a number"),
        Refused("a = +0_1", 1, 5, "leading zero in a number"),
        Refused("a = 1.", 1, 7, "expected digits in the fraction"),
        Refused("a = .5", 1, 5, "expected a value, found .5"),
        Refused("a = 1e", 1, 7, "expected digits in the exponent"),
        Refused("a = 1e_5", 1, 7, "misplaced _"),
        Refused("a = 1__0", 1, 6, "misplaced _"),
        Refused("a = 1_", 1, 6, "misplaced _"),
        Refused("a = 1_.5", 1, 6, "misplaced _"),
        Refused("a = 1.5.3", 1, 5, "invalid number 1.5.3"),
        Refused("a = 0X1F", 1, 5, "invalid number 0X1F"),
        Refused("a = 0x", 1, 7, "expected digits in the integer"),
        Refused("a = 0xG", 1, 7, "expected digits in the integer"),
        Refused("a = 0b102", 1, 5, "invalid number 0b102"),
        Refused("a = -0x1", 1, 5, "a sign is not allowed on a 0x, 0o or 0b integer"),
        Refused("a = 9223372036854775808", 1, 5, "integer out of range"),
        Refused("a = -9223372036854775809", 1, 5, "integer out of range"),
        Refused("a = 0x1_0000_0000_0000_0000", 1, 5, "integer out of range"),
        Refused("a = Inf", 1, 5, "expected a value, found Inf"),
        Refused("a = inf_", 1, 5, "expected a value, found inf_"),
        Refused("a = ++1", 1, 5, "expected a value, found ++1"),
        Refused("a = tru", 1, 5, "expected a value, found tru"),
        Refused("a = True", 1, 5, "expected a value, found True"),
        Refused("a = truex", 1, 5, "expected a value, found truex"),
        // Strings
        Refused("a = \"\\q\"", 1, 6, "invalid escape \\q"),
        Refused("a = \"\\e\"", 1, 6, "invalid escape \\e"),  // TOML 1.1, not 1.0
        Refused("a = \"\\x41\"", 1, 6, "invalid escape \\x"),
        Refused("a = \"\\uD800\"", 1, 6, "invalid escape \\uD800: not a Unicode scalar value"),
        Refused("a = \"\\U00110000\"", 1, 6, "invalid escape \\U00110000: not a Unicode scalar value"),
        Refused("a = \"\\u00\"", 1, 6, "invalid escape \\u00"),
        Refused("a = \"\\ \"", 1, 6, "invalid escape \\ followed by a space"),
        Refused("a = \"\"\"x\\  y\"\"\"", 1, 9, "invalid escape: only spaces may follow a backslash that ends a line"),
        Refused("a = \"open", 1, 10, "unterminated string (opened at 1:5)"),
        Refused("a = \"two\nlines\"", 1, 9, "unterminated string"),
        Refused("a = 'two\nlines'", 1, 9, "unterminated string"),
        Refused("a = \"\"\"x\n\ny", 3, 2, "unterminated string (opened at 1:5)"),
        Refused("a = \"\"\"x\"\"\"\"\"\"", 1, 14, "too many \" at the end of a multi-line string"),
        Refused("a = '''x''''''", 1, 14, "too many ' at the end of a multi-line string"),
        Refused("a = \"x\" \"y\"", 1, 9, "expected the end of the line after the value"),
        // Line ends
        Refused("a = 1\rb = 2", 1, 6, "expected the end of the line after the value, found a carriage return without a line feed"),
        Refused("a = \"\"\"x\ry\"\"\"", 1, 9, "control character U+000D in a string"),
        Refused("a = \"x\ry\"", 1, 7, "control character U+000D in a string"),
        Refused("# x\r", 1, 4, "control character U+000D in a comment"),
        // Keys and lines
        Refused("a 1", 1, 3, "expected = after the key a, found \"1\""),
        Refused("= 1", 1, 1, "expected a key, found \"=\""),
        Refused("a. = 1", 1, 4, "expected a key"),
        Refused(".a = 1", 1, 1, "expected a key"),
        Refused("a b = 1", 1, 3, "expected = after the key a"),
        Refused("\"\"\"a\"\"\" = 1", 1, 1, "a multi-line string cannot be a key"),
        Refused("a =", 1, 4, "expected a value, found the end of the document"),
        Refused("a =\n1", 1, 4, "expected a value, found the end of the line"),
        Refused("a = 1 b = 2", 1, 7, "expected the end of the line after the value, found \"b\""),
        Refused("a = [1, 2", 1, 10, "unterminated array (opened at 1:5)"),
        Refused("a = [1 2]", 1, 8, "expected , or ] in the array"),
        Refused("a = [1,,2]", 1, 8, "expected a value, found \",\""),
        Refused("a = [,]", 1, 6, "expected a value"),
        Refused("a = {x = 1,}", 1, 12, "trailing comma in an inline table"),
        Refused("a = {x = 1\n}", 1, 11, "line end in an inline table (opened at 1:5)"),
        Refused("a = {\nx = 1}", 1, 6, "expected a key, found the end of the line"),
        Refused("a = {x = 1 y = 2}", 1, 12, "expected , or } in the inline table"),
        Refused("a = {x = 1", 1, 11, "unterminated inline table"),
        Refused("[a", 1, 3, "expected ] after the table name"),
        Refused("[[a]", 1, 4, "expected ]] after the table name"),
        Refused("[[a] ]", 1, 4, "expected ]] after the table name"),
        Refused("[]", 1, 2, "expected a key"),
        Refused("[a] b = 1", 1, 5, "expected the end of the line after the table header"),
        Refused("\u{FEFF}\u{FEFF}a = 1", 1, 1, "expected a key, found U+FEFF"),
        Refused("é = 1", 1, 1, "expected a key, found U+00E9"),
        Refused("a = 1\n\u{0}", 2, 1, "expected a key, found U+0000"),
    ]

    static let tableRules: [Refused] = [
        Refused("a = 1\na = 2", 2, 1, "duplicate key a (first at 1:1)"),
        Refused("a = 1\n'a' = 2", 2, 1, "duplicate key a"),
        Refused("[s]\n[s]", 2, 2, "table [s] defined twice (first at 1:1)"),
        Refused("[a.b]\n[a]\n[a]", 3, 2, "table [a] defined twice (first at 2:1)"),
        Refused("[a]\nb = 1\n[a.b]", 3, 4, "cannot define [a.b]: a.b is already an integer (at 2:1)"),
        Refused("a.b = 1\na.b.c = 2", 2, 3, "cannot define a.b.c: a.b is already an integer (at 1:3)"),
        Refused("[fruit]\napple.color = 'red'\n[fruit.apple]", 3, 8, "cannot define [fruit.apple]: fruit.apple is already a table defined by dotted keys"),
        Refused("[a.b.c]\nz = 9\n[a]\nb.c.t = 1", 4, 3, "cannot define b.c.t: b.c is already a table (at 1:6)"),
        Refused("a = {}\n[a.b]", 2, 2, "cannot define [a.b]: a is already an inline table (at 1:1)"),
        Refused("a = {b = 1}\na.c = 2", 2, 1, "cannot define a.c: a is already an inline table"),
        Refused("a = {b = {c = 1}, b.d = 2}", 1, 19, "cannot define b.d: b is already an inline table"),
        Refused("a = [1]\n[[a]]", 2, 3, "cannot define [[a]]: a is already an array (at 1:1)"),
        Refused("a = [{b = 1}]\n[a.c]", 2, 2, "cannot define [a.c]: a is already an array (at 1:1)"),
        Refused("[[a]]\n[a]", 2, 2, "cannot define [a]: a is already an array of tables (at 1:3)"),
        Refused("[a]\n[[a]]", 2, 3, "cannot define [[a]]: a is already a table (at 1:2)"),
        Refused("[[a.b]]\n[[a]]", 2, 3, "cannot define [[a]]: a is already a table (at 1:3)"),
        Refused("[[a]]\nb.c = 1\n[a.b]", 3, 4, "cannot define [a.b]: a.b is already a table defined by dotted keys"),
        Refused("[[a]]\n[[a]]\na.b = 1\n[a]", 4, 2, "cannot define [a]: a is already an array of tables"),
        Refused("a = 1\n[a.b]", 2, 2, "cannot define [a.b]: a is already an integer"),
        Refused("\"a\nb\" = 1", 1, 3, "unterminated string (opened at 1:1)"),
        Refused("\"a\\nb\" = 1\n\"a\\nb\" = 2", 2, 1, "duplicate key \"a\\nb\" (first at 1:1)"),
    ]

    static let datesAndTimes: [Refused] = [
        Refused("a = 1979-05-27T07:32:00Z", 1, 5, "not supported: offset date-time values"),
        Refused("a = 1979-05-27 07:32:00-07:00", 1, 5, "not supported: offset date-time values"),
        Refused("a = 1979-05-27t00:32:00.999999+07:00", 1, 5, "not supported: offset date-time values"),
        Refused("a = 1979-05-27T07:32:00", 1, 5, "not supported: local date-time values"),
        Refused("a = 1979-05-27", 1, 5, "not supported: local date values"),
        Refused("a = 1979-05-27 # a date", 1, 5, "not supported: local date values"),
        Refused("a = 07:32:00", 1, 5, "not supported: local time values"),
        Refused("a = [00:32:00.999999]", 1, 6, "not supported: local time values"),
        Refused("a = 1979-13-27", 1, 5, "invalid date or time 1979-13-27"),
        Refused("a = 1979-02-30", 1, 5, "invalid date or time"),
        Refused("a = 1979-05-27T24:00:00", 1, 5, "invalid date or time"),
        Refused("a = 1979-05-27 07:32", 1, 5, "invalid date or time 1979-05-27 07:32"),
        Refused("a = 1979-05-27T", 1, 5, "invalid date or time"),
        Refused("a = 7:32:00", 1, 5, "invalid date or time 7:32:00"),
        Refused("a = 1979-05-27T07:32:00Zx", 1, 5, "invalid date or time"),
    ]

    @Test(arguments: fuzzFindings + syntax + tableRules + datesAndTimes)
    func refuses(_ bad: Refused) {
        guard let error = refusal(bad.toml) else { return }
        #expect(error.message == bad.message || error.message.hasPrefix(bad.message), "\(error)")
        #expect(error.line == bad.line && error.column == bad.column, "\(error)")
        #expect(!error.description.contains("\n"))
        // The String initializer reads the same bytes.
        #expect(throws: error) { _ = try TOMLTable(string: bad.toml) }
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() {
        func refused(_ bytes: [UInt8]) -> String { refusal(bytes: bytes).map(\.description) ?? "" }
        let head = Array("a = 1\nb = \"é".utf8)  // line 2: `b = "é` is 6 scalars
        #expect(refused(head + [0xC3, 0x28, 0x22]) == "2:7: invalid UTF-8 (byte 0xC3)")  // 2-byte sequence cut
        #expect(refused(head + [0xC0, 0x80, 0x22]) == "2:7: invalid UTF-8 (byte 0xC0)")  // overlong NUL
        #expect(refused(head + [0xE0, 0x80, 0x80, 0x22]) == "2:7: invalid UTF-8 (byte 0xE0)")  // overlong
        #expect(refused(head + [0xED, 0xA0, 0x80, 0x22]) == "2:7: invalid UTF-8 (byte 0xED)")  // surrogate U+D800
        #expect(refused(head + [0xF4, 0x90, 0x80, 0x80, 0x22]) == "2:7: invalid UTF-8 (byte 0xF4)")  // above U+10FFFF
        #expect(refused(head + [0xF5]) == "2:7: invalid UTF-8 (byte 0xF5)")
        #expect(refused(head + [0xFF, 0x22]) == "2:7: invalid UTF-8 (byte 0xFF)")
        #expect(refused(head + [0x80, 0x22]) == "2:7: invalid UTF-8 (byte 0x80)")  // a lone continuation byte
        #expect(refused(head + [0xE2, 0x82]) == "2:7: invalid UTF-8 (byte 0xE2)")  // cut by the end
        #expect(refused([0xFF, 0xFE, 0x61, 0x00]) == "1:1: invalid UTF-8 (byte 0xFF)")  // UTF-16
        #expect(refused(Array("# comment \r\n# ".utf8) + [0xFE]) == "2:3: invalid UTF-8 (byte 0xFE)")
        // Well-formed 2-, 3- and 4-byte sequences are fine, in strings and comments.
        #expect(throws: Never.self) { try TOMLTable(bytes: Array("a = \"é€😀\" # é€😀\u{10FFFF}".utf8)) }
    }

    @Test func deepNestingIsRefusedWithoutCrashing() {
        let n = 100_000
        let deep = [
            "connectors = " + String(repeating: "[", count: n) + String(repeating: "]", count: n),
            "a = " + String(repeating: "{a = ", count: n) + "1" + String(repeating: "}", count: n),
            "a = " + String(repeating: "[{a = ", count: n / 2),
            String(repeating: "a.", count: n) + "a = 1",
            "[" + String(repeating: "a.", count: n) + "a]",
            "[[" + String(repeating: "a.", count: n) + "a]]",
        ]
        for text in deep {
            let error = refusal(text)
            #expect(error?.message == "nesting deeper than 32", "\(String(describing: error))")
        }
        // 32 deep is read; 33 is not, whether arrays, inline tables or tables make it up.
        #expect(throws: Never.self) { try TOMLTable(string: "a = " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32)) }
        #expect(refusal("a = " + String(repeating: "[", count: 33) + String(repeating: "]", count: 33))?.column == 37)
        let tables31 = (1...31).map { "t\($0)" }.joined(separator: ".")
        #expect(throws: Never.self) { try TOMLTable(string: "[\(tables31)]\nx = [1]") }
        #expect(refusal("[\(tables31)]\nx = [[1]]")?.description == "2:6: nesting deeper than 32")
        #expect(refusal("[\(tables31).t32]\nx = [1]")?.description == "2:5: nesting deeper than 32")
        #expect(throws: Never.self) { try TOMLTable(string: "[[\(tables31)]]") }
        #expect(refusal("[[\(tables31).t32]]")?.message == "nesting deeper than 32")
    }

    @Test func documentsOver1MiBAreRefused() {
        let twoMiB = "a = \"" + String(repeating: "x", count: 2 << 20) + "\""
        #expect(refusal(twoMiB)?.description == "1:1: document larger than 1 MiB")
        #expect(throws: TOMLParseError.self) { try TOMLTable(string: twoMiB) }
        // Up to 1 MiB is read: one long string, or 1 MiB of keys.
        let oneMiB = "a = \"" + String(repeating: "x", count: (1 << 20) - 6) + "\""
        #expect(oneMiB.utf8.count == 1 << 20)
        #expect((try? TOMLTable(string: oneMiB))?["a"]?.string?.utf8.count == (1 << 20) - 6)
        #expect(refusal(oneMiB + " ")?.message == "document larger than 1 MiB")
        let manyKeys = (0..<60_000).map { "k\($0) = \($0)" }.joined(separator: "\n")
        #expect((try? TOMLTable(string: manyKeys))?.keys.count == 60_000)
        let manyTables = String(repeating: "[[t]]\n", count: 150_000)
        #expect((try? TOMLTable(string: manyTables))?["t"]?.array?.count == 150_000)
    }

    // MARK: Positions, descriptions

    @Test func positionsOfKeysValuesAndElements() throws {
        let t = try TOMLTable(string: """
            name = "x"
            [style]
              margin  =  -3
            "é"."ü" = 'ok'   # columns count characters, not bytes
            s = \"""
            two
            lines\"""
            n2 =  1
            m = 2
            a = [1,
                 [2, 3], { x = 4 }]
            [[b]]
            [[b]]
              c = 5
            """)
        #expect(at(t.position(of: "name")) == "1:8" && at(t.position(ofKey: "name")) == "1:1")
        #expect(at(t.position(of: "style")) == "2:1" && at(t.position(ofKey: "style")) == "2:2")
        let style = try #require(t["style"]?.table)
        #expect(at(style.position(of: "margin")) == "3:14" && at(style.position(ofKey: "margin")) == "3:3")
        let e = try #require(style["é"]?.table)
        #expect(at(style.position(ofKey: "é")) == "4:1" && at(e.position(ofKey: "ü")) == "4:5" && at(e.position(of: "ü")) == "4:11")
        #expect(at(style.position(of: "s")) == "5:5" && at(style.position(of: "n2")) == "8:7" && at(style.position(of: "m")) == "9:5")
        #expect(at(style.position(of: "a")) == "10:5")
        #expect(at(style.position(of: "a", at: [0])) == "10:6")
        #expect(at(style.position(of: "a", at: [1])) == "11:6")
        #expect(at(style.position(of: "a", at: [1, 1])) == "11:10")
        #expect(at(style.position(of: "a", at: [2])) == "11:14")
        #expect(at(style["a"]?.array?[2].table?.position(of: "x")) == "11:20")
        #expect(at(style.position(of: "a", at: [3])) == "nil" && at(style.position(of: "a", at: [0, 0])) == "nil")
        #expect(at(t.position(of: "b")) == "12:1" && at(t.position(of: "b", at: [1])) == "13:1")
        #expect(at(t["b"]?.array?[1].table?.position(of: "c")) == "14:7")
        #expect(at(t.position(of: "missing")) == "nil" && at(t.position(ofKey: "missing")) == "nil")
    }

    @Test func aTableNamedBeforeItIsDefinedIsAtItsHeader() throws {
        let t = try TOMLTable(string: "[a.b]\nx = 1\n\n[a]\ny = 2")
        #expect(at(t.position(of: "a")) == "4:1" && at(t.position(ofKey: "a")) == "1:2")
    }

    @Test func aCallerCanNameTheLineOfABadValue() throws {
        let text = "name = \"x\"\n\n[style]\nmargin = -3\n"
        let style = try #require(try TOMLTable(string: text)["style"]?.table)
        let value = try #require(style["margin"])
        let (line, column) = try #require(style.position(of: "margin"))
        #expect("Boards/x.toml:\(line):\(column): [style] margin = \(value): expected a number ≥ 0"
            == "Boards/x.toml:4:10: [style] margin = -3: expected a number ≥ 0")
    }

    @Test func descriptionsAreShortAndOneLine() throws {
        let t = try TOMLTable(string: """
            s = "\(String(repeating: "x", count: 100_000))"
            a = [\(Array(repeating: "12345", count: 20_000).joined(separator: ", "))]
            q = "say \\"hi\\"\\n\\u0007"
            "key with space" = { "a.b" = 1.5, c = [true, 'x'] }
            """)
        for key in t.keys {
            let d = t[key]!.description
            #expect(d.count <= 81 && !d.contains("\n"), "\(d)")
        }
        #expect(t["s"]!.description == "\"" + String(repeating: "x", count: 79) + "…")
        #expect(t["a"]!.description.hasPrefix("[12345, 12345, ") && t["a"]!.description.hasSuffix("…"))
        #expect(t["q"]!.description == #""say \"hi\"\n\u0007""#)
        #expect(t["key with space"]!.description == #"{"a.b" = 1.5, c = [true, "x"]}"#)
        #expect(t.description.count <= 81)
        let hugeKey = String(repeating: "k", count: 10_000)
        let error = refusal("\(hugeKey) = 1\n\(hugeKey) = 2")
        #expect(error.map { $0.message.count < 120 && $0.message.hasPrefix("duplicate key kkk") } == true, "\(String(describing: error))")
    }
}
