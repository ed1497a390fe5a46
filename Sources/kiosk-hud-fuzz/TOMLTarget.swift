import KioskBoards
import KioskSettings

/// `toml`: KioskBoards' `BoardProfile.parse(_:source:)` (the strict TOML reader, then every key
/// checked by its declared rule) on board files. Cases 0…N−1 are the toml-test suite's invalid
/// documents as they are (Debian's golang-github-burntsushi-toml-dev, read at run time): each
/// must be refused. Then generated documents: the profiles in Boards/ with values replaced by
/// the settings table's boundary and wrong-type values, with stress values (deep arrays and
/// inline tables, huge arrays, long strings, dates, bad escapes, integer overflow), with bytes
/// and lines mutated; whole profiles generated from the table; the toml-test documents (valid
/// and invalid) mutated; documents around the 1 MiB limit. An error must be one line, and as
/// kiosk-hud prints it ("Error: board.toml:L:C: …") at most 200 characters.
final class TOMLTarget: InProcessTarget {
    let name = "toml"
    let fileExtension = "toml"
    var canvasBytes: Int { 800 * 480 * 4 }
    /// The profiles in Boards/ (name, bytes).
    let boards: [(String, [UInt8])]
    /// toml-test's invalid documents (path, bytes), and its valid ones.
    let invalid: [(String, [UInt8])]
    let valid: [(String, [UInt8])]
    /// The name errors give the file (as `--board board.toml` would).
    static let source = "board.toml"

    init(boardsDirectory: String, suiteDirectory: String?) {
        boards = (listDirectory(boardsDirectory) ?? []).filter { $0.hasSuffix(".toml") }.compactMap { n in
            readFile(boardsDirectory + "/" + n).map { (n, $0) }
        }
        invalid = suiteDirectory.map { Self.documents(in: $0 + "/invalid") } ?? []
        valid = suiteDirectory.map { Self.documents(in: $0 + "/valid") } ?? []
    }

    /// The `.toml` files under `dir`, sorted by path.
    static func documents(in dir: String) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        func walk(_ d: String, _ rel: String) {
            for n in listDirectory(d) ?? [] {
                let p = d + "/" + n, r = rel.isEmpty ? n : rel + "/" + n
                if isDirectory(p) { walk(p, r) } else if n.hasSuffix(".toml"), let b = readFile(p) { out.append((r, b)) }
            }
        }
        walk(dir, "")
        return out.sorted { $0.0 < $1.0 }
    }

    var warmUp: [UInt8] { boards.first?.1 ?? Array("name = \"warm\"\n".utf8) }

    func check(_ input: [UInt8], index: Int) -> Violation? {
        do {
            _ = try BoardProfile.parse(input, source: Self.source)
            if index >= 0 && index < invalid.count {
                return Violation(kind: "accepted", detail: "toml-test's invalid/\(invalid[index].0) was read as a valid board file",
                                 key: "invalid document accepted")
            }
        } catch {
            let line = "Error: " + error.description
            if line.contains("\n") || line.contains("\r") {
                return Violation(kind: "error-line", detail: "error of several lines: \(cut(line, 160))", key: "multi-line error")
            }
            if line.count > Criteria.errorLineLimit {
                return Violation(kind: "error-line", detail: "error line is \(line.count) characters: \(cut(line, 160))",
                                 key: "long error " + gist(Self.afterPosition(error.description)))
            }
        }
        return nil
    }

    /// A message without its "board.toml:L:C: " (for grouping).
    static func afterPosition(_ message: String) -> String {
        var rest = Substring(message)
        for _ in 0..<3 { if let i = rest.firstIndex(of: ":") { rest = rest[rest.index(after: i)...] } }
        return String(rest.drop { $0 == " " })
    }

    // MARK: Inputs

    func input(_ rng: inout Rng, index: Int) -> [UInt8] {
        if index >= 0 && index < invalid.count { return invalid[index].1 }
        let base: [UInt8]
        switch rng.weighted([40, 20, invalid.isEmpty ? 0 : 12, valid.isEmpty ? 0 : 8]) {
        case 0: base = boards.isEmpty ? generatedProfile(&rng) : rng.pick(boards).1
        case 1: base = generatedProfile(&rng)
        case 2: base = rng.pick(invalid).1
        default: base = valid.isEmpty ? generatedProfile(&rng) : rng.pick(valid).1
        }
        var doc = base
        for _ in 0..<rng.int(1...3) {
            switch rng.weighted([30, 15, 20, 10, 10, 5, 3]) {
            case 0: doc = replaceValue(doc, &rng)
            case 1: doc = insertSetting(doc, &rng)
            case 2: doc = Mutate.havoc(doc, &rng, count: 1 + rng.length(12), tokens: Self.tokens, other: otherDocument(&rng))
            case 3: doc = Mutate.shuffleLines(doc, &rng, count: 1 + rng.length(6), other: otherDocument(&rng))
            case 4: doc = insertStress(doc, &rng)
            case 5: doc = aroundTheLimit(doc, &rng)
            default: doc = encodingChange(doc, &rng)
            }
        }
        return doc
    }

    static let tokens: [[UInt8]] = ["[", "]", "[[", "]]", "{", "}", "=", "\"", "'", "\"\"\"", "'''", "#", ".", ",", "\\", "\\u", "\\U",
                                    "\n", "\r\n", "\r", "true", "nan", "inf", "1e309", "0x", "_", "[display]", "[style]", "[motion]",
                                    "[[display]]", "display.size", "\"\"", "a.b.c", "9223372036854775808", "1979-05-27", "T", "Z", "\u{0}",
                                    "\u{FEFF}", "é"].map { Array($0.utf8) }

    func otherDocument(_ rng: inout Rng) -> [UInt8] {
        let all = boards.map(\.1) + (invalid.isEmpty ? [] : [rng.pick(invalid).1]) + (valid.isEmpty ? [] : [rng.pick(valid).1])
        return all.isEmpty ? [] : rng.pick(all)
    }

    /// A profile with some keys of every section, values from their rules.
    func generatedProfile(_ rng: inout Rng) -> [UInt8] {
        var bySection: [String: [String]] = [:]
        for s in RuleValues.boardSettings where rng.chance(0.5) {
            let key = rng.chance(0.05) && s.alias != nil ? s.alias!.key : s.key
            let section = rng.chance(0.05) && s.alias != nil ? s.alias!.section : s.section!
            bySection[section, default: []].append("\(key) = \(RuleValues.toml(for: s, &rng))")
        }
        var out = (bySection[""] ?? []).joined(separator: "\n") + "\n"
        for section in ["display", "touch", "fonts", "style", "timing", "motion"] {
            guard let lines = bySection[section] else { continue }
            out += "\n[\(section)]\n" + lines.joined(separator: "\n") + "\n"
        }
        return Array(out.utf8)
    }

    /// A `key = value` line's value replaced by one from the key's rule (or a stress value).
    func replaceValue(_ doc: [UInt8], _ rng: inout Rng) -> [UInt8] {
        var lines = Mutate.lines(doc)
        let candidates = lines.indices.filter { i in lines[i].contains(0x3D) && lines[i].first != 0x23 }
        guard !candidates.isEmpty else { return insertSetting(doc, &rng) }
        let i = rng.pick(candidates)
        let line = lines[i]
        let eq = line.firstIndex(of: 0x3D)!
        let key = String(decoding: line[..<eq], as: UTF8.self).split(separator: " ").last.map(String.init) ?? ""
        let setting = HUDSettings.table.settings.first { $0.key == key } ?? rng.pick(RuleValues.boardSettings)
        let value = rng.chance(0.8) ? RuleValues.toml(for: setting, &rng) : RuleValues.hostileTOML(&rng)
        lines[i] = Array(line[...eq]) + Array(" \(value)\n".utf8)
        return Array(lines.joined())
    }

    /// A setting's line added under its section (or a wrong one, or twice).
    func insertSetting(_ doc: [UInt8], _ rng: inout Rng) -> [UInt8] {
        let s = rng.pick(RuleValues.boardSettings)
        let section = rng.chance(0.85) ? s.section! : rng.pick(["", "display", "touch", "fonts", "style", "timing", "motion", "nope"])
        let header = section.isEmpty ? "" : (rng.chance(0.1) ? "[[\(section)]]\n" : "[\(section)]\n")
        let line = "\(rng.chance(0.1) ? section + "." : "")\(s.key) = \(RuleValues.toml(for: s, &rng))\n"
        if section.isEmpty { return Array(line.utf8) + doc }
        return doc + Array(("\n" + header + line).utf8)
    }

    /// A stress value or table structure put at the end or the start.
    func insertStress(_ doc: [UInt8], _ rng: inout Rng) -> [UInt8] {
        let n = rng.pick([10, 1000, 33, 100_000])
        let stress: String
        switch rng.below(8) {
        case 0: stress = "k = \(RuleValues.hostileTOML(&rng))\n"
        case 1: stress = "[" + (0..<min(n, 20_000)).map { _ in "a" }.joined(separator: ".") + "]\n"
        case 2: stress = (0..<min(n, 20_000)).map { "[t\($0)]\n" }.joined()
        case 3: stress = (0..<min(n, 20_000)).map { _ in "[[arr]]\n" }.joined()
        case 4: stress = (0..<min(n, 20_000)).map { _ in "a" }.joined(separator: ".") + " = 1\n"
        case 5: stress = String(repeating: "k", count: n) + " = 1\n"
        case 6: stress = (0..<min(n, 30_000)).map { "k\($0) = \($0)\n" }.joined()
        default: stress = "[style]\nmargin = 1\n[style]\nmargin = 2\n"
        }
        return rng.chance(0.5) ? doc + Array(stress.utf8) : Array(stress.utf8) + doc
    }

    /// Padded to just under, at, or just over the 1 MiB limit (with a comment, a string, or keys).
    func aroundTheLimit(_ doc: [UInt8], _ rng: inout Rng) -> [UInt8] {
        let target = TOMLTable.maxDocumentBytes + rng.int(-2...2)
        var d = doc
        guard d.count < target else { return Array(d.prefix(target)) }
        let pad = target - d.count
        switch rng.below(3) {
        case 0: d += [0x0A, 0x23] + [UInt8](repeating: 0x78, count: max(0, pad - 2))
        case 1: d = Array("pad = \"".utf8) + [UInt8](repeating: 0x78, count: max(0, pad - 9)) + Array("\"\n".utf8) + d
        default: d += [UInt8](repeating: 0x0A, count: pad)
        }
        return d
    }

    /// Line endings, a BOM, NULs, invalid UTF-8.
    func encodingChange(_ doc: [UInt8], _ rng: inout Rng) -> [UInt8] {
        switch rng.below(5) {
        case 0: return doc.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        case 1: return doc.map { $0 == 0x0A ? 0x0D : $0 }
        case 2: return [0xEF, 0xBB, 0xBF] + doc
        case 3: var d = doc; d.insert(0, at: rng.below(d.count + 1)); return d
        default: var d = doc; d.insert(contentsOf: rng.pick([[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]]), at: rng.below(d.count + 1)); return d
        }
    }
}
