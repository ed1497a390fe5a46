// `kiosk-hud theme`'s edit of a board profile: the keys set in the file's own text, so that its
// comments (where a shipped profile's numbers come from) and every other key stay as they were;
// then the text is read again by the profile parser and must give the profile expected (the old
// one with the new values). A file the line edit cannot take (a key written as a dotted key or
// an inline table, a value over several lines) is written whole instead: every key with its
// value, as `kiosk-hud boards show` prints a profile.
import KioskBoards
import KioskSettings

/// One setting to set: the table's setting and its value, checked by its rule.
struct ThemeChange {
    var setting: Setting<HUDSettings>
    var value: SettingValue
}

enum ThemeEdit {
    /// `text` (a board profile, read as `profile`) with `changes` made: the new text, and
    /// whether it had to be written whole. Throws when the result is not a valid profile.
    static func apply(_ changes: [ThemeChange], to text: String, profile: BoardProfile, source: String) throws(SettingsError) -> (text: String, whole: Bool) {
        var expected = HUDSettings.defaults
        expected.profile = profile
        // In the table's order (a theme before the colours it sets), as the parser applies them.
        let ordered = HUDSettings.table.settings.compactMap { s in changes.last { $0.setting.place == s.place } }
        for c in ordered { c.setting.set(&expected, c.value) }
        if let edited = edit(text, ordered), let p = try? BoardProfile.parse(edited, source: source) {
            if same(p, expected.profile) { return (edited, false) }
            // A value the file gives after one set here (the file's content_color over the
            // colours --theme sets): each key that reads back otherwise, set too.
            var read = HUDSettings.defaults
            read.profile = p
            let more = HUDSettings.table.settings.compactMap { s -> ThemeChange? in
                guard s.section != nil, let want = s.get(expected), s.get(read) != want else { return nil }
                return ThemeChange(setting: s, value: want)
            }
            if !more.isEmpty, let again = edit(edited, more), let p2 = try? BoardProfile.parse(again, source: source), same(p2, expected.profile) {
                return (again, false)
            }
        }
        let whole = expected.profile.boardFile(header: [
            "KioskHUD board profile \(expected.profile.name): every key, with the defaults filled in (written by kiosk-hud theme).",
            "Sizes are in points; scale turns them into pixels. Colours are #RRGGBB or #RRGGBBAA.",
        ])
        let p = try BoardProfile.parse(whole, source: source)
        guard same(p, expected.profile) else { throw SettingsError("\(source): the profile written does not read back as set") }
        return (whole, true)
    }

    /// The line edit: each key replaced where the file gives it (under its name, alias or former
    /// name), else added under its section's header (the section added at the end when the file
    /// has none); nil when the file's text is not TOML this can edit.
    static func edit(_ text: String, _ changes: [ThemeChange]) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for c in changes {
            guard let document = try? TOMLTable(string: lines.joined(separator: "\n")), let section = c.setting.section else { return nil }
            let line = "\(c.setting.key) = \(c.value.toml)"
            let table = section.isEmpty ? document : document[section]?.table
            let names = [c.setting.key] + [c.setting.formerKey].compactMap { $0 }
            if let t = table, let name = names.first(where: { t[$0] != nil }) {
                guard let at = t.position(ofKey: name)?.line, at >= 1, at <= lines.count,
                      lines[at - 1].trimmingBlanks.hasPrefix(name) else { return nil }
                lines[at - 1] = line
                continue
            }
            if let a = c.setting.alias, let t = document[a.section]?.table, t[a.key] != nil { return nil }
            if section.isEmpty {
                lines.insert(line, at: firstHeader(lines) ?? lines.count)
            } else if let header = lines.firstIndex(where: { $0.trimmingBlanks == "[\(section)]" }) {
                lines.insert(line, at: header + 1)
            } else {
                if lines.last == "" { lines.removeLast() }
                lines += ["", "[\(section)]", line, ""]
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether two profiles have the same value for every board file key (as a file writes them:
    /// a colour to the byte, a number as written).
    static func same(_ a: BoardProfile, _ b: BoardProfile) -> Bool {
        var x = HUDSettings.defaults, y = HUDSettings.defaults
        x.profile = a; y.profile = b
        return HUDSettings.table.settings.allSatisfy { $0.section == nil || $0.get(x) == $0.get(y) }
    }

    /// The index of the first `[section]` line.
    static func firstHeader(_ lines: [String]) -> Int? {
        lines.firstIndex { $0.trimmingBlanks.hasPrefix("[") }
    }
}
