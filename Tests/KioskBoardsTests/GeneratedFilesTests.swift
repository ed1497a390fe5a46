// Files generated from the settings table and Boards/ (so that they cannot go stale): the
// profiles built into the binary (Sources/KioskBoards/ShippedBoards.swift) and the reference
// parts of Boards/README.md. `KIOSK_RECORD_PROFILES=1 swift test --filter GeneratedFilesTests`
// writes them again (and fails, so a re-record is seen).
import KioskBoards
import KioskSettings
import Testing

/// ShippedBoards.swift for `boards`: each profile's text, its [match] read ahead of time.
func shippedBoardsSource(_ boards: [(name: String, text: String)]) throws -> String {
    var out = """
        // Generated from Boards/*.toml by Tests/KioskBoardsTests/GeneratedFilesTests.swift: do not edit.
        // `KIOSK_RECORD_PROFILES=1 swift test --filter GeneratedFilesTests` writes it again.
        // The board profiles built into kiosk-hud (BoardCatalog): each file's text, byte for byte, and
        // its [match] rules read ahead of time, so that detection parses only the profile it chooses.

        extension ShippedBoards {
            static let generated: [ShippedBoard] = [

        """
    for b in boards {
        let m = try BoardProfile.parse(b.text, source: "Boards/\(b.name).toml").match
        let rules = BoardRuleKind.allCases.filter { !m[$0].isEmpty }.map { k in
            "\(label(k)): [" + m[k].map(swiftString).joined(separator: ", ") + "]"
        }
        out += "        ShippedBoard(\n            name: \(swiftString(b.name)),\n"
        out += "            match: BoardMatch(\(rules.joined(separator: ", "))),\n"
        out += "            text: #\"\"\"\n\(b.text)\n\"\"\"#),\n"
    }
    return out + "    ]\n}\n"
}

private func label(_ k: BoardRuleKind) -> String {
    switch k {
    case .drmDriver: "drmDriver"
    default: k.rawValue
    }
}

private func swiftString(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default: out.unicodeScalars.append(c)
        }
    }
    return out + "\""
}

/// The table of shipped profiles and their rules, for Boards/README.md.
func profilesTable(_ boards: [(name: String, text: String)]) throws -> String {
    var out = "| profile | `[match]` rules (all must hold) | rules |\n|---|---|---|\n"
    for b in boards {
        let m = try BoardProfile.parse(b.text, source: b.name).match
        let rules = m.kinds.map { k in "`\(k.key)` " + m[k].map { "`\($0)`" }.joined(separator: " or ") }
        out += "| [`\(b.name)`](\(b.name).toml) | \(rules.isEmpty ? "none: the fallback" : rules.joined(separator: "; ")) | \(m.specificity) |\n"
    }
    return out
}

/// `text` with the part between `<!-- BEGIN name -->` and `<!-- END name -->` replaced.
func replacingGenerated(_ text: String, _ name: String, with part: String) -> String? {
    let begin = "<!-- BEGIN generated: \(name) -->\n", end = "<!-- END generated: \(name) -->"
    guard let b = text.firstRange(of: begin), let e = text.firstRange(of: end), b.upperBound <= e.lowerBound else { return nil }
    return String(text[..<b.upperBound]) + part + String(text[e.lowerBound...])
}

@Suite struct GeneratedFilesTests {
    @Test func theBuiltInProfilesAreBoardsDirectoryByteForByte() throws {
        let files = try Files.shippedProfiles()
        for f in files {
            #expect(!f.text.contains("\"\"\"#") && !f.text.contains("\\#") && !f.text.contains("\r"), "Boards/\(f.name).toml cannot be embedded as is")
        }
        try Files.checkGenerated("Sources/KioskBoards/ShippedBoards.swift", try shippedBoardsSource(files))
        guard !Files.recording else { return }
        // And what the binary holds is what the files say.
        #expect(ShippedBoards.all.map(\.name) == files.map(\.name))
        for (b, f) in zip(ShippedBoards.all, files) {
            #expect(b.text == f.text, "\(b.name)")
            let parsed = try BoardProfile.parse(f.text, source: f.name)
            #expect(b.match == parsed.match, "\(b.name)")
        }
    }

    @Test func boardsReadmeDocumentsEveryKeyAndProfile() throws {
        let path = "Boards/README.md"
        var text = try Files.read(path)
        let keys = HUDSettings.table.boardFileReference(HUDSettings.defaults)
        let profiles = try profilesTable(try Files.shippedProfiles())
        guard let a = replacingGenerated(text, "keys", with: keys), let b = replacingGenerated(a, "profiles", with: profiles) else {
            Issue.record("\(path) lacks its <!-- BEGIN/END generated: keys|profiles --> markers")
            return
        }
        text = b
        try Files.checkGenerated(path, text)
        // Every key of the format is in it, with an example that its rule accepts.
        for s in HUDSettings.table.settings {
            guard let section = s.section else { continue }
            #expect(text.contains("| `\(s.key)` |"), "\(s.place) is not documented")
            guard let example = s.example else { Issue.record("\(s.place) has no example"); continue }
            let toml = section.isEmpty ? "\(s.key) = \(example)\n" : "[\(section)]\n\(s.key) = \(example)\n"
            #expect(throws: Never.self, "\(s.place)'s example \(example)") { _ = try BoardProfile.parse(toml, source: "example") }
        }
    }
}
