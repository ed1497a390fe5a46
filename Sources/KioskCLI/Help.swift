/// Help for the command at `path` (from `Invocation.help`), wrapped to `width` columns.
///
///     OVERVIEW: Show the HUD on the display (DRM/KMS; fbdev fallback).
///
///     USAGE: kiosk-hud show [<options>]
///
///     OPTIONS:
///       --board <board>         Board profile (TOML); default: the built-in generic profile.
public func helpText(root: CommandSpec, path: [String], width: Int = 80) -> String {
    var spec = root
    for name in path.dropFirst() {
        guard let sub = spec.subcommands.first(where: { $0.name == name }) else { break }
        spec = sub
    }
    var out = "OVERVIEW: \(spec.abstract)\n\n"
    for paragraph in paragraphs(spec.discussion) {
        out += wrap(paragraph, width: width, indent: 0) + "\n\n"
    }
    out += "USAGE: " + usageLine(spec, path: path) + "\n"
    if !spec.subcommands.isEmpty {
        out += "\nSUBCOMMANDS:\n"
        out += columns(spec.subcommands.map { ($0.name, $0.abstract) }, width: width)
        out += "\n  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help.\n"
        let shared = spec.sharedOptions.filter { !$0.hidden }
        if !shared.isEmpty {
            out += "\nOPTIONS OF EVERY SUBCOMMAND (before it or after it):\n" + columns(shared.map { (label($0), $0.help) }, width: width)
        }
        return out
    }
    if !spec.positionals.isEmpty {
        out += "\nARGUMENTS:\n" + columns(spec.positionals.map { ("<\($0.name)>", $0.help) }, width: width)
    }
    let own = spec.groups.filter { $0.title == nil }.flatMap(\.options) + [CommandSpec.helpOption]
    out += "\nOPTIONS:\n" + columns(own.filter { !$0.hidden }.map { (label($0), $0.help) }, width: width)
    for g in spec.groups where g.title != nil && g.options.contains(where: { !$0.hidden }) {
        out += "\n\(g.title!.uppercased()):\n" + columns(g.options.filter { !$0.hidden }.map { (label($0), $0.help) }, width: width)
    }
    return out
}

/// "kiosk-hud show [<options>]", "kiosk-hud <subcommand>".
public func usageLine(_ spec: CommandSpec, path: [String]) -> String {
    var s = path.joined(separator: " ")
    if !spec.subcommands.isEmpty { return s + " <subcommand>" }
    s += " [<options>]"
    for p in spec.positionals {
        let one = "<\(p.name)>" + (p.repeated ? " ..." : "")
        s += " " + (p.optional ? "[\(one)]" : one)
    }
    return s
}

/// "-o, --out <out>", "--[no-]reduce-motion", "--input </dev/input/eventN> ...".
func label(_ o: OptionSpec) -> String {
    var s = o.short.map { "-\($0), " } ?? ""
    switch o.kind {
    case .flag: s += "--\(o.name)"
    case .inversibleFlag: s += "--[no-]\(o.name)"
    case .value: s += "--\(o.name) \(valueLabel(o))"
    case .repeated: s += "--\(o.name) \(valueLabel(o)) ..."
    case .optionalValue: s += "--\(o.name) [\(valueLabel(o))]"
    }
    return s
}

func valueLabel(_ o: OptionSpec) -> String { "<\(o.valueName ?? o.name)>" }

private func paragraphs(_ text: String) -> [String] {
    var out: [String] = [], cur: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.allSatisfy({ $0 == " " }) {
            if !cur.isEmpty { out.append(cur.joined(separator: " ")); cur = [] }
        } else {
            cur.append(line)
        }
    }
    if !cur.isEmpty { out.append(cur.joined(separator: " ")) }
    return out
}

/// Words of `text` in lines of at most `width` characters (a longer word gets a line of its
/// own), each line after the first preceded by `indent` spaces.
func wrap(_ text: String, width: Int, indent: Int) -> String {
    var lines: [String] = [], line = ""
    let pad = String(repeating: " ", count: indent)
    for word in text.split(separator: " ") {
        if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= width { line += " " + word } else {
            lines.append(line); line = String(word)
        }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines.enumerated().map { $0.offset == 0 ? $0.element : pad + $0.element }.joined(separator: "\n")
}

/// Two columns: "  label   help", help wrapped under itself; a label too long for the first
/// column (at most 28 wide) gets its own line.
private func columns(_ rows: [(String, String)], width: Int) -> String {
    let column = min(28, (rows.map(\.0.count).max() ?? 0) + 4)
    var out = ""
    for (l, h) in rows {
        let help = wrap(h, width: width - column, indent: column)
        if l.count + 2 <= column - 2 {
            out += "  " + l + String(repeating: " ", count: column - 2 - l.count) + help + "\n"
        } else {
            out += "  " + l + "\n" + String(repeating: " ", count: column) + help + "\n"
        }
    }
    return out
}
