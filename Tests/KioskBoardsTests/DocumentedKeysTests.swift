// Every board profile key the docs name exists: a `[section] key` in README.md, dist/README.md,
// Boards/README.md or docs/*.md is a setting of HUDSettings.table (a key written with a
// placeholder in capitals, `[plymouth] MODE_label`, matches at least one), and every TOML
// example in them (a ```toml block, or an indented block that opens with a section) is a board
// profile that parses. A doc that names a key the format does not have sends the reader to
// set something that is refused, or silently means nothing.
import KioskBoards
import KioskSys
import KioskTestSupport
import Testing

@Suite struct DocumentedKeysTests {
    static func docs() -> [String] {
        ["README.md", "dist/README.md", "Boards/README.md"]
            + (listDirectory(Files.root + "/docs") ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The `[section] key` references of `text`: a backtick, the section in brackets, blanks (a
    /// line break too), the key; with the line each is on.
    static func references(_ text: String) -> [(section: String, key: String, line: Int)] {
        let chars = Array(text)
        var out: [(String, String, Int)] = []
        var line = 1
        var i = 0
        func isKeyChar(_ c: Character) -> Bool { c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) }
        while i < chars.count {
            if chars[i] == "\n" { line += 1 }
            guard chars[i] == "`", i + 1 < chars.count, chars[i + 1] == "[" else { i += 1; continue }
            var j = i + 2
            var section = ""
            while j < chars.count, chars[j].isASCII, chars[j].isLowercase || chars[j] == "_" { section.append(chars[j]); j += 1 }
            guard j < chars.count, chars[j] == "]", !section.isEmpty else { i += 1; continue }
            j += 1
            var blanks = 0
            while j < chars.count, chars[j] == " " || chars[j] == "\n" { blanks += 1; j += 1 }
            var key = ""
            while j < chars.count, isKeyChar(chars[j]) { key.append(chars[j]); j += 1 }
            if blanks > 0, !key.isEmpty { out.append((section, key, line)) }
            i += 1
        }
        return out
    }

    /// Whether `key` (capitals: a placeholder for any lower-case word) names a setting of `section`.
    static func exists(section: String, key: String) -> Bool {
        if key.contains(where: \.isUppercase) {
            // MODE_label: the placeholder's part is any key part, the rest as written.
            let parts = key.split(separator: "_", omittingEmptySubsequences: false)
            return HUDSettings.table.settings.contains { s in
                guard s.section == section else { return false }
                let theirs = s.key.split(separator: "_", omittingEmptySubsequences: false)
                // A placeholder stands for one or more of the key's parts.
                func match(_ a: ArraySlice<Substring>, _ b: ArraySlice<Substring>) -> Bool {
                    guard let p = a.first else { return b.isEmpty }
                    if p.contains(where: \.isUppercase) {
                        return (1...max(1, b.count)).contains { n in n <= b.count && match(a.dropFirst(), b.dropFirst(n)) }
                    }
                    return b.first == p && match(a.dropFirst(), b.dropFirst())
                }
                return match(parts[...], theirs[...])
            }
        }
        return HUDSettings.table.setting(section: section, key: key) != nil
    }

    @Test func everyKeyTheDocsNameExists() throws {
        var bad: [String] = [], count = 0
        for doc in Self.docs() {
            for r in Self.references(try Files.read(doc)) {
                count += 1
                guard HUDSettings.table.sections.contains(r.section) else { bad.append("\(doc):\(r.line): [\(r.section)] is no section"); continue }
                if !Self.exists(section: r.section, key: r.key) { bad.append("\(doc):\(r.line): [\(r.section)] \(r.key) is no key") }
            }
        }
        #expect(bad.isEmpty, "\(bad.joined(separator: "\n"))")
        #expect(count > 20, "only \(count) references found: the scan is broken")
    }

    /// The TOML examples of `text`: ```toml blocks, and indented blocks whose first line is a
    /// `[section]` of the board format; with the line each starts on.
    static func tomlBlocks(_ text: String) -> [(text: String, line: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [(String, Int)] = []
        var i = 0
        while i < lines.count {
            let l = lines[i]
            if l.hasPrefix("```toml") {
                var j = i + 1, block: [Substring] = []
                while j < lines.count, !lines[j].hasPrefix("```") { block.append(lines[j]); j += 1 }
                out.append((block.joined(separator: "\n") + "\n", i + 2))
                i = j + 1
                continue
            }
            let indent = l.prefix { $0 == " " }
            let t = l.dropFirst(indent.count)
            if indent.count >= 4, t.hasPrefix("["), t.hasSuffix("]"), HUDSettings.table.sections.contains(String(t.dropFirst().dropLast())),
               i == 0 || lines[i - 1].allSatisfy({ $0 == " " }) {
                var j = i, block: [Substring] = []
                while j < lines.count, lines[j].hasPrefix(indent) || lines[j].allSatisfy({ $0 == " " }) {
                    block.append(lines[j].dropFirst(min(indent.count, lines[j].count))); j += 1
                }
                out.append((block.joined(separator: "\n") + "\n", i + 1))
                i = j
                continue
            }
            i += 1
        }
        return out
    }

    @Test func everyTOMLExampleInTheDocsParses() throws {
        var count = 0
        for doc in Self.docs() {
            for b in Self.tomlBlocks(try Files.read(doc)) {
                count += 1
                #expect(throws: Never.self, "\(doc):\(b.line):\n\(b.text)") { _ = try BoardProfile.parse(b.text, source: "\(doc):\(b.line)") }
            }
        }
        #expect(count >= 2, "only \(count) TOML examples found: the scan is broken")
    }

    /// The scan itself: a reference across a line break, a placeholder, a key that is not.
    @Test func theScanFindsWhatItShould() {
        let refs = Self.references("a `[words]\ncancelling = \"x\"` and `[plymouth] MODE_label`, `[words] updates`, `[x]` alone")
        #expect(refs.map { "\($0.section) \($0.key) \($0.line)" } == ["words cancelling 1", "plymouth MODE_label 2", "words updates 2"])
        #expect(Self.exists(section: "words", key: "cancelling"))
        #expect(Self.exists(section: "plymouth", key: "MODE_label"))
        #expect(Self.exists(section: "plymouth", key: "updates_label"))
        #expect(!Self.exists(section: "words", key: "updates"))
        #expect(!Self.exists(section: "words", key: "reboot"))
        #expect(!Self.exists(section: "plymouth", key: "MODE_colour"))
    }
}
