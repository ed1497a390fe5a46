import KioskBoards
import KioskSettings
import Testing

/// The TOML subset board profiles are read with.
@Suite struct TOMLTests {
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

    @Test(arguments: [
        ("a = 1\na = 2", 2, "duplicate key"),
        ("[s]\n[s]", 2, "duplicate key"),
        ("a.b = 1", 1, "dotted keys"),
        ("[a.b]", 1, "dotted table"),
        ("a = {x = 1}", 1, "inline tables"),
        ("a = 1979-05-27", 1, "dates"),
        ("a = 0x1F", 1, "decimal"),
        ("a = \"\"\"x\"\"\"", 1, "multi-line"),
        ("a = \"open", 1, "unterminated"),
        ("a = [1, 2", 1, "in the array"),
        ("a = 1 b = 2", 1, "end of the line"),
        ("a 1", 1, "expected ="),
        ("= 1", 1, "expected a key"),
        ("a = \"\\q\"", 1, "unknown escape"),
        ("a = 1__0", 1, "misplaced _"),
        ("a = tru", 1, "expected a value"),
        ("[[x]]", 1, "arrays of tables"),
    ])
    func rejects(_ text: String, _ line: Int, _ fragment: String) {
        do {
            _ = try TOMLTable(string: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
        }
    }

    @Test func errorsNameTheFileLineAndColumn() {
        do {
            _ = try BoardProfile.parse("[style]\nmargin = = 3", source: "b.toml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("b.toml:2:"), "\(error)")
        }
    }
}
