/// A manual page (roff, man(7) macros) for the command at `path`, made from the same
/// declarations as `helpText`: NAME, SYNOPSIS, DESCRIPTION (the discussion), the options by
/// group, and for a command with subcommands each of them with its options. The root's page
/// lists the commands, each of which has its own page (`kiosk-hud-show(1)`).
///
///     kiosk-hud --man show | man -l -
public func manPage(root: CommandSpec, path: [String], section: Int = 1, version: String = "") -> String {
    var spec = root
    for name in path.dropFirst() {
        guard let sub = spec.subcommands.first(where: { $0.name == name }) else { break }
        spec = sub
    }
    let page = path.joined(separator: "-")
    var out = ".TH \(roff(page.uppercased())) \(section) \"\" \"\(roff(root.name)) \(roff(version))\" \"User Commands\"\n"
    out += ".SH NAME\n\(roff(page)) \\- \(roff(spec.abstract))\n"
    out += ".SH SYNOPSIS\n"
    if path.count == 1 {
        out += ".B \(roff(root.name))\n.I command\n[\\fIoptions\\fR]\n"
    } else if spec.subcommands.isEmpty {
        out += synopsis(spec, path: path)
    } else {
        for sub in spec.subcommands { out += synopsis(sub, path: path + [sub.name]) + ".br\n" }
    }
    if !spec.discussion.isEmpty { out += ".SH DESCRIPTION\n" + paragraphsRoff(spec.discussion) }
    if path.count == 1 {
        out += ".SH COMMANDS\n"
        for sub in spec.subcommands {
            out += ".TP\n.B \(roff(sub.name))\n\(roff(sub.abstract)) See \\fB\(roff(root.name))\\-\(roff(sub.name))\\fR(\(section)).\n"
        }
        return out
    }
    if spec.subcommands.isEmpty {
        out += options(spec, heading: ".SH")
    } else {
        out += ".SH COMMANDS\n"
        let shared = spec.sharedOptions.filter { !$0.hidden }
        if !shared.isEmpty {
            let names = shared.map { "\\fB\\-\\-\(roff($0.name))\\fR" }.joined(separator: ", ")
            out += "Every command takes \(names), which may also come before the command's name.\n"
        }
        for sub in spec.subcommands {
            out += ".SS \(roff(usageLine(sub, path: path + [sub.name])))\n\(roff(sub.abstract))\n"
            if !sub.discussion.isEmpty { out += paragraphsRoff(sub.discussion) }
            out += options(sub, heading: ".SS")
        }
    }
    out += ".SH SEE ALSO\n\\fB\(roff(root.name))\\fR(\(section))\n"
    return out
}

private func synopsis(_ spec: CommandSpec, path: [String]) -> String {
    var out = ".B \(roff(path.joined(separator: " ")))\n[\\fIoptions\\fR]"
    for p in spec.positionals {
        let one = "\\fI\(roff(p.name))\\fR" + (p.repeated ? " ..." : "")
        out += " " + (p.optional ? "[\(one)]" : one)
    }
    return out + "\n"
}

private func options(_ spec: CommandSpec, heading: String) -> String {
    var out = ""
    if !spec.positionals.isEmpty {
        out += "\(heading) ARGUMENTS\n"
        for p in spec.positionals { out += ".TP\n.I \(roff(p.name))\n\(roff(p.help))\n" }
    }
    let own = spec.groups.filter { $0.title == nil }.flatMap(\.options) + [CommandSpec.helpOption]
    var groups = [("OPTIONS", own)]
    for g in spec.groups where g.title != nil { groups.append((g.title!.uppercased() + " OPTIONS", g.options)) }
    for (title, list) in groups where list.contains(where: { !$0.hidden }) {
        out += "\(heading) \(title)\n"
        for o in list where !o.hidden { out += ".TP\n\(optionLabel(o))\n\(roff(o.help))\n" }
    }
    return out
}

/// `.B "\-o, \-\-out" \fI<out>\fR` as one line.
private func optionLabel(_ o: OptionSpec) -> String {
    var names = o.short.map { "\\-\(roff(String($0))), " } ?? ""
    switch o.kind {
    case .inversibleFlag: names += "\\-\\-[no\\-]\(roff(o.name))"
    default: names += "\\-\\-\(roff(o.name))"
    }
    let value = "\\fI\(roff(valueLabel(o)))\\fR"
    switch o.kind {
    case .flag, .inversibleFlag: return "\\fB\(names)\\fR"
    case .value: return "\\fB\(names)\\fR \(value)"
    case .repeated: return "\\fB\(names)\\fR \(value) ..."
    case .optionalValue: return "\\fB\(names)\\fR [\(value)]"
    }
}

/// Paragraphs (blank-line separated) as roff paragraphs.
private func paragraphsRoff(_ text: String) -> String {
    var out = "", current: [Substring] = []
    func flush() {
        guard !current.isEmpty else { return }
        out += (out.isEmpty ? "" : ".PP\n") + roff(current.joined(separator: " ")) + "\n"
        current = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.allSatisfy({ $0 == " " }) { flush() } else { current.append(line) }
    }
    flush()
    return out
}

/// Text for roff: backslashes and hyphens escaped, anything beyond ASCII as a \\[uXXXX] glyph
/// (so that groff needs no input encoding), a leading dot or quote made literal.
func roff(_ text: String) -> String {
    var out = ""
    for u in text.unicodeScalars {
        switch u {
        case "\\": out += "\\e"
        case "-": out += "\\-"
        case "\n": out += " "
        default:
            if u.value < 0x80 { out.unicodeScalars.append(u); continue }
            let hex = String(u.value, radix: 16, uppercase: true)
            out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
    }
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
}
