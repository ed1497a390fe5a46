import KioskSettings

/// A mistake on the command line: what was wrong, and for which command (for its usage line).
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    /// The command's path, e.g. ["kiosk-hud", "show"].
    public var command: [String]

    public init(_ message: String, command: [String] = []) {
        self.message = message; self.command = command
    }

    public var description: String { message }
}

/// What the command line asks for.
public enum Invocation: Sendable {
    /// Run `command` (its path from the root, e.g. ["kiosk-hud", "show"]) with these values.
    case run(command: [String], ParsedArguments)
    /// Print help for this command path and succeed.
    case help(command: [String])
}

/// Parses `arguments` (without the program name) against `root` and its subcommands.
///
///     switch try parseCommandLine(Array(CommandLine.arguments.dropFirst()), root: spec) {
///     case let .run(path, values): …
///     case let .help(path): print(helpText(root: spec, path: path))
///     }
public func parseCommandLine(_ arguments: [String], root: CommandSpec) throws(UsageError) -> Invocation {
    var path = [root.name]
    var spec = root
    var rest = arguments[...]
    // Options every subcommand takes, given before it (`ctl --socket S status`).
    var early = ParsedArguments(command: path)
    var lastEarly: String?
    // Subcommands first: `kiosk-hud show …`, `kiosk-hud help show`.
    while !spec.subcommands.isEmpty {
        guard let first = rest.first else {
            if let lastEarly { throw UsageError("expected a command after \(lastEarly)", command: path) }
            return .help(command: path)
        }
        if first == "--help" || first == "-h" { return .help(command: path) }
        if first.hasPrefix("--") && first != "--" {
            var after = rest.dropFirst()
            if let written = try takeShared(first, of: spec, from: &after, into: &early, path: path) {
                rest = after
                lastEarly = written
                continue
            }
        }
        if first == "help" {
            var helpPath = path, s = spec
            for name in rest.dropFirst() {
                guard let sub = s.subcommands.first(where: { $0.name == name }) else {
                    throw UsageError("unknown command '\(shown(name))'\(suggestion(name, s.subcommands.map(\.name), prefix: ""))", command: helpPath)
                }
                helpPath.append(name); s = sub
            }
            return .help(command: helpPath)
        }
        guard let sub = spec.subcommands.first(where: { $0.name == first }) else {
            let what = first.hasPrefix("-") ? "expected a command before '\(shown(first))'" : "unknown command '\(shown(first))'"
            throw UsageError(what + suggestion(first, spec.subcommands.map(\.name), prefix: ""), command: path)
        }
        path.append(sub.name)
        spec = sub
        rest = rest.dropFirst()
        lastEarly = nil
    }
    var values = ParsedArguments(command: path)
    values.values = early.values
    values.flags = early.flags
    values.deprecations = early.deprecations
    values.writtenNames = early.writtenNames
    for o in spec.allOptions { if let r = o.rule { values.rules[o.name] = r } }
    var onlyPositionals = false
    while let arg = rest.popFirst() {
        if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
            values.positionals.append(arg)
            // A program and its arguments (`run CMD ARGS…`): from the program on, every word is
            // its own, as env(1) and timeout(1) read them.
            if let r = spec.positionals.firstIndex(where: \.repeated), values.positionals.count > r { onlyPositionals = true }
            continue
        }
        if arg == "--" { onlyPositionals = true; continue }
        if arg.hasPrefix("--") {
            let body = arg.dropFirst(2)
            var name = body, inline: Substring?
            if let eq = body.firstIndex(of: "=") { name = body[..<eq]; inline = body[body.index(after: eq)...] }
            let key = String(name)
            if key == "help" { return .help(command: path) }
            if let o = spec.option(long: key) {
                try take(o, as: "--" + key, inline: inline.map(String.init), from: &rest, into: &values, path: path)
            } else if let o = spec.option(formerName: key) {
                try take(o, as: "--" + key, inline: inline.map(String.init), from: &rest, into: &values, path: path)
                values.noteFormer(key, of: o.name)
            } else if key.hasPrefix("no-"), let o = spec.option(long: String(key.dropFirst(3))), o.kind == .inversibleFlag {
                if inline != nil { throw UsageError("--\(shown(key)) takes no value", command: path) }
                values.flags[o.name] = false
            } else {
                let names = spec.allOptions.filter { !$0.hidden }.map(\.name)
                throw UsageError("unknown option --\(shown(key))\(suggestion(key, names, prefix: "--"))", command: path)
            }
        } else {
            // -o VALUE, -h; one letter each (no bundling: the commands have one short option).
            let letters = Array(arg.dropFirst())
            if letters.count == 1 && letters[0] == "h" { return .help(command: path) }
            if letters.count == 1, let o = spec.option(short: letters[0]) {
                try take(o, as: arg, inline: nil, from: &rest, into: &values, path: path)
            } else if letters.count > 1, let o = spec.option(short: letters[0]), o.kind == .value || o.kind == .repeated || o.kind == .optionalValue {
                // -oout.png
                try take(o, as: "-" + String(letters[0]), inline: String(letters.dropFirst()), from: &rest, into: &values, path: path)
            } else {
                throw UsageError("unknown option \(shown(arg))", command: path)
            }
        }
    }
    try checkPositionals(values.positionals, spec.positionals, path: path)
    return .run(command: path, values)
}

/// `arg` (`--name`, `--name=VALUE`, `--no-name`) before a subcommand of `spec`: taken into
/// `values` when every subcommand has the option (its value from `rest` if it needs one), and
/// how it was written returned; a usage error when only some have it; nil when none does, or
/// when the subcommands share no option at all.
private func takeShared(_ arg: String, of spec: CommandSpec, from rest: inout ArraySlice<String>,
                        into values: inout ParsedArguments, path: [String]) throws(UsageError) -> String? {
    let body = arg.dropFirst(2)
    var name = body, inline: Substring?
    if let eq = body.firstIndex(of: "=") { name = body[..<eq]; inline = body[body.index(after: eq)...] }
    let key = String(name)
    let shared = spec.sharedOptions
    // A command whose subcommands share nothing takes no options before them (kiosk-hud's own).
    if shared.isEmpty { return nil }
    if let o = shared.first(where: { $0.name == key || $0.formerNames.contains(key) }) {
        if o.name != key { values.noteFormer(key, of: o.name) }
        // An optional value is never the word after it: that is the command.
        if o.kind == .optionalValue && inline == nil { values.values[o.name] = [""]; return "--" + key }
        try take(o, as: "--" + key, inline: inline.map(String.init), from: &rest, into: &values, path: path)
        return "--" + key
    }
    let negated = key.hasPrefix("no-") ? String(key.dropFirst(3)) : nil
    if let negated, let o = shared.first(where: { $0.name == negated }), o.kind == .inversibleFlag {
        if inline != nil { throw UsageError("--\(shown(key)) takes no value", command: path) }
        values.flags[o.name] = false
        return "--" + key
    }
    let takers = spec.subcommands.filter { s in
        s.option(long: key) != nil || negated.flatMap { s.option(long: $0) }.map { $0.kind == .inversibleFlag } == true
    }
    guard takers.isEmpty || key == "help" else {
        throw UsageError("--\(shown(key)) is an option of \(takers.map(\.name).joined(separator: ", ")) only: put it after the command", command: path)
    }
    return nil
}

private func take(_ o: OptionSpec, as written: String, inline: String?, from rest: inout ArraySlice<String>,
                  into values: inout ParsedArguments, path: [String]) throws(UsageError) {
    switch o.kind {
    case .flag, .inversibleFlag:
        if inline != nil { throw UsageError("\(written) takes no value", command: path) }
        values.flags[o.name] = true
    case .optionalValue:
        if let inline { values.values[o.name] = [inline]; return }
        if let next = rest.first, !next.hasPrefix("-") { values.values[o.name] = [next]; rest.removeFirst(); return }
        values.values[o.name] = [""]
    case .value, .repeated:
        let v: String
        if let inline { v = inline } else if let next = rest.popFirst() { v = next } else {
            throw UsageError("\(written) needs a value (\(valueLabel(o)))", command: path)
        }
        if o.kind == .value { values.values[o.name] = [v] } else { values.values[o.name, default: []].append(v) }
    }
}

private func checkPositionals(_ given: [String], _ specs: [PositionalSpec], path: [String]) throws(UsageError) {
    var i = 0
    for p in specs {
        if p.repeated {
            if i >= given.count && !p.optional { throw UsageError("missing \(p.name)", command: path) }
            return
        }
        if i >= given.count {
            if !p.optional { throw UsageError("missing \(p.name)", command: path) }
            continue
        }
        i += 1
    }
    if i < given.count { throw UsageError("unexpected argument '\(shown(given[i]))'", command: path) }
}

/// "; did you mean --label?" for the known name nearest to `word` (edit distance ≤ 2, or a
/// known name that starts with it), else "".
func suggestion(_ word: String, _ known: [String], prefix: String) -> String {
    guard word.utf8.count <= 64 else { return "" }
    let w = Array(word)
    var best: (name: String, distance: Int)?
    for k in known {
        let d = k.hasPrefix(word) && !word.isEmpty ? 1 : editDistance(w, Array(k))
        if d <= 2, d < (best?.distance ?? Int.max) { best = (k, d) }
    }
    return best.map { "; did you mean \(prefix)\($0.name)?" } ?? ""
}

func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count), cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
