/// Every setting of one kind of settings (`Root`), in the order they are applied and documented.
public struct SettingsTable<Root>: Sendable {
    public let settings: [Setting<Root>]
    /// The board file's sections, in order (the top level is "").
    public let sections: [String]

    public init(_ settings: [Setting<Root>], sections: [String]) {
        self.settings = settings; self.sections = sections
    }

    /// The setting with board file `key` in `section`, or with that alias or earlier name.
    public func setting(section: String, key: String) -> Setting<Root>? {
        settings.first {
            ($0.section == section && ($0.key == key || $0.formerKey == key))
                || ($0.alias?.section == section && $0.alias?.key == key)
        }
    }

    /// The setting for `--option`.
    public func setting(option: String) -> Setting<Root>? { settings.first { $0.option == option } }

    /// The setting clients name `key` (the daemon's fields).
    public func setting(key: String) -> Setting<Root>? { settings.first { $0.key == key } }

    /// The setting whose earlier (deprecated) field and board file key is `key`.
    public func setting(formerKey key: String) -> Setting<Root>? { settings.first { $0.formerKey == key } }

    /// Every default applied to `root`.
    public func applyDefaults(to root: inout Root) {
        for s in settings { if let v = s.defaultValue { s.set(&root, v) } }
    }

    // MARK: Board files

    /// Applies a board file's values over `root`. Strict: an unknown section or key, a value
    /// that breaks its rule, a key given twice (under its name and its alias) is an error naming
    /// `source:line:column`, the section and key, the value and what was expected.
    public func apply(_ document: TOMLTable, source: String, to root: inout Root) throws(SettingsError) {
        var notes: [String] = []
        try apply(document, source: source, to: &root, notes: &notes)
    }

    /// `apply(_:source:to:)`, and a note in `notes` for each key given by an earlier, deprecated
    /// name ("board.toml:12:1: [display] underlay is deprecated; use [display] underlay_color").
    public func apply(_ document: TOMLTable, source: String, to root: inout Root, notes: inout [String]) throws(SettingsError) {
        for key in document.keys {
            guard let v = document[key] else { continue }
            if case .table = v {
                guard sections.contains(key), !key.isEmpty else { throw unknown(source, document, key, section: nil, what: "unknown section") }
            } else if setting(section: "", key: key) == nil {
                throw unknown(source, document, key, section: nil, what: sections.contains(key) ? "expected a table [\(key)]" : "unknown key")
            }
        }
        var applied: [String: String] = [:]
        try apply(document, section: "", source: source, to: &root, applied: &applied, notes: &notes)
        for key in document.keys {
            if case let .table(t) = document[key] { try apply(t, section: key, source: source, to: &root, applied: &applied, notes: &notes) }
        }
    }

    /// `applied`: where each setting (by its place) was given so far in this document, so that
    /// a setting given under its name and its alias is an error whichever section comes first.
    private func apply(_ t: TOMLTable, section: String, source: String, to root: inout Root,
                       applied: inout [String: String], notes: inout [String]) throws(SettingsError) {
        for key in t.keys {
            if case .table = t[key], section.isEmpty { continue }
            guard setting(section: section, key: key) != nil else {
                throw unknown(source, t, key, section: section, what: "unknown key")
            }
        }
        // In the table's order (a theme before the colours it sets), whatever the file's order.
        for s in settings {
            let own = s.section == section ? t[s.key] : nil
            let aliased = s.alias.flatMap { $0.section == section ? t[$0.key] : nil }
            if own != nil, aliased != nil, let a = s.alias {
                throw SettingsError("\(source):\(position(t, s.key)): \(s.place): also given as [\(a.section)] \(a.key); keep one")
            }
            let formerKey = s.section == section ? s.formerKey : nil
            let formerly = formerKey.flatMap { t[$0] }
            func here(_ key: String) -> String { section.isEmpty ? key : "[\(section)] \(key)" }
            if own != nil || aliased != nil, formerly != nil, let f = formerKey {
                throw SettingsError("\(source):\(position(t, f, ofKey: true)): \(here(f)): also given as \(s.place); keep one")
            }
            guard let v = own ?? aliased ?? formerly else { continue }
            let key = own != nil ? s.key : aliased != nil ? s.alias!.key : formerKey!
            let place = here(key)
            if formerly != nil { notes.append("\(source):\(position(t, key, ofKey: true)): " + deprecationNote(place, s.place)) }
            if let first = applied[s.place] {
                throw SettingsError("\(source):\(position(t, key, ofKey: true)): \(place): also given as \(first); keep one")
            }
            applied[s.place] = place
            do throws(RuleError) {
                s.set(&root, try s.rule.check(v))
            } catch {
                throw SettingsError("\(source):\(position(t, key)): \(place) = \(shown(v.description)): expected \(error.expected)")
            }
        }
    }

    private func unknown(_ source: String, _ t: TOMLTable, _ key: String, section: String?, what: String) -> SettingsError {
        let place = section.map { $0.isEmpty ? key : "[\($0)] \(key)" } ?? key
        return SettingsError("\(source):\(position(t, key, ofKey: true)): \(shown(place)): \(what)")
    }

    /// "line:column" of `key`'s value (or of the key itself).
    private func position(_ t: TOMLTable, _ key: String, ofKey: Bool = false) -> String {
        guard let p = ofKey ? t.position(ofKey: key) : t.position(of: key) else { return "?" }
        return "\(p.line):\(p.column)"
    }

    // MARK: Command line

    /// Applies the command-line values over `root`: `value(option)` gives an option's values as
    /// given (nil: not given), `flag(option)` a boolean option's state. An option's value that
    /// breaks its rule is an error naming the option, the value (cut at 80 characters) and what
    /// was expected.
    public func apply(options value: (String) -> [String]?, flag: (String) -> Bool?, to root: inout Root) throws(SettingsError) {
        for s in settings {
            guard let o = s.option else { continue }
            if case .bool = s.rule.kind {
                if let b = flag(o) { s.set(&root, .bool(b)) }
                continue
            }
            guard let given = value(o) else { continue }
            do throws(RuleError) {
                s.set(&root, try s.rule.parse(all: given))
            } catch {
                throw SettingsError(optionError(o, given.last ?? "", expected: error.expected))
            }
        }
    }

    // MARK: Generated text

    /// A board file with every setting of `root` that has a section: set ones as `key = value`,
    /// unset ones commented with their example, each after its help as a comment. `header` is
    /// put first (comment lines).
    public func boardFile(_ root: Root, header: [String]) -> String {
        var out = header.map { "# " + $0 }.joined(separator: "\n") + "\n"
        for section in sections {
            let here = settings.filter { $0.section == section }
            guard !here.isEmpty else { continue }
            out += section.isEmpty ? "\n" : "\n[\(section)]\n"
            for s in here {
                var help = s.help
                switch s.rule.kind {
                case .number, .integer, .integerChoice: help += " (\(s.rule.expected))"
                default: break
                }
                for line in wrapComment(help) { out += "# \(line)\n" }
                if let v = s.get(root) {
                    out += "\(s.key) = \(multiline(v))\n"
                } else if let e = s.example {
                    out += "# \(s.key) = \(e)\n"
                }
            }
        }
        return out
    }

    /// The settings as a Markdown table: key, option, value, default, live.
    public func markdownTable(_ defaults: Root) -> String {
        var out = "| board file | option | value | default | live |\n|---|---|---|---|---|\n"
        for s in settings {
            let place = s.section.map { $0.isEmpty ? "`\(s.key)`" : "`[\($0)] \(s.key)`" } ?? "—"
            let option = s.option.map { "`--\($0)`" } ?? "—"
            let d = s.get(defaults).map { "`\($0.text)`" } ?? "—"
            out += "| \(place) | \(option) | \(s.rule.expected) | \(d) | \(s.live ? "yes" : "no") |\n"
        }
        return out
    }
}

extension SettingsTable {
    /// Every board file key as Markdown, one table per section: the key, what its value must be,
    /// its default (as written in a board file; "—": unset), an example and its help, with the
    /// command-line option that overrides it.
    public func boardFileReference(_ defaults: Root) -> String {
        var out = ""
        for section in sections {
            let here = settings.filter { $0.section == section }
            guard !here.isEmpty else { continue }
            out += section.isEmpty ? "### Top level\n\n" : "### `[\(section)]`\n\n"
            out += "| key | value | default | example | what | option |\n|---|---|---|---|---|---|\n"
            for s in here {
                let d = s.get(defaults).map { "`\(cell($0.toml))`" } ?? "—"
                let e = s.example.map { "`\(cell($0))`" } ?? "—"
                let o = s.option.map { "`--\($0)`" } ?? "—"
                out += "| `\(s.key)` | \(cell(s.rule.expected)) | \(d) | \(e) | \(cell(s.help)) | \(o) |\n"
            }
            out += "\n"
        }
        return out
    }
}

/// `text` for a Markdown table cell: `|` escaped.
private func cell(_ text: String) -> String {
    var out = ""
    for c in text { if c == "|" { out += "\\|" } else { out.append(c) } }
    return out
}

/// A list value one element a line when it is long.
private func multiline(_ v: SettingValue) -> String {
    let one = v.toml
    guard one.count > 96 else { return one }
    switch v {
    case let .texts(t): return "[\n" + t.map { "  " + SettingValue.text($0).toml + ",\n" }.joined() + "]"
    case let .integers(i): return "[\n" + i.map { "  \($0),\n" }.joined() + "]"
    default: return one
    }
}

/// `text` in comment lines of at most 96 characters.
private func wrapComment(_ text: String) -> [String] {
    var lines: [String] = [], line = ""
    for word in text.split(separator: " ") {
        if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= 96 { line += " " + word } else {
            lines.append(line); line = String(word)
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}
