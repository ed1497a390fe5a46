import KioskSettings

/// The values given on the command line, by long option name, with typed accessors that check
/// the option's declared rule and throw a `UsageError` naming the option, the value and what was
/// expected when a value is not what it should be.
public struct ParsedArguments: Sendable {
    /// The command's path, e.g. ["kiosk-hud", "show"].
    public let command: [String]
    var values: [String: [String]] = [:]
    var flags: [String: Bool] = [:]
    /// The declared rules, by option name.
    var rules: [String: ValueRule] = [:]
    /// Arguments that are not options (and everything after `--`), in order.
    public internal(set) var positionals: [String] = []
    /// A note for each option given by an earlier, deprecated name ("--underlay is deprecated;
    /// use --underlay-image"), in order; the command says them on stderr.
    public internal(set) var deprecations: [String] = []
    /// The earlier name an option was given by, by its name (absent: given by its name).
    var writtenNames: [String: String] = [:]

    public init(command: [String]) { self.command = command }

    /// The value of `--name` (the last one given), or nil.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags[name] ?? false }

    /// An inversible flag: true (`--name`), false (`--no-name`) or nil (neither).
    public func optionalFlag(_ name: String) -> Bool? { flags[name] }

    /// These arguments with `--name value` when `--name` was not given (a command's default that
    /// another command's code reads as given: `overlay`'s `--wayland auto`).
    public func defaulting(_ name: String, to value: String) -> ParsedArguments {
        guard !given(name) else { return self }
        var a = self
        a.values[name] = [value]
        return a
    }

    /// Whether `--name` (or `--no-name`) was given.
    public func given(_ name: String) -> Bool { values[name] != nil || flags[name] != nil }

    /// `--name` checked by its declared rule, or nil when not given.
    public func value(_ name: String) throws(UsageError) -> SettingValue? {
        guard let all = values[name], let s = all.last else { return nil }
        guard let rule = rules[name] else { return .text(s) }
        do { return try rule.parse(all: all) } catch {
            throw self.error(optionError(name, s, expected: error.expected))
        }
    }

    /// `--name` as a number (checked by its rule: finite, in range), or nil when not given.
    public func double(_ name: String) throws(UsageError) -> Double? {
        guard let v = try value(name) else { return nil }
        if case let .text(s) = v {
            guard let d = parseDouble(s), d.isFinite else { throw error("--\(name) \(shown(s)): expected a number") }
            return d
        }
        return v.double
    }

    /// `--name` as a whole number (checked by its rule), or nil when not given.
    public func int(_ name: String) throws(UsageError) -> Int? {
        guard let v = try value(name) else { return nil }
        if case let .text(s) = v {
            guard let i = parseInt(s) else { throw error("--\(name) \(shown(s)): expected a whole number") }
            return i
        }
        return v.int
    }

    /// `--name` as the command line wrote it: `--name`, or its earlier name when given by that
    /// (an error about the value names what the user typed).
    public func written(_ name: String) -> String { "--" + (writtenNames[name] ?? name) }

    /// Records that option `name` was given by its earlier name `former`.
    mutating func noteFormer(_ former: String, of name: String) {
        writtenNames[name] = former
        let note = deprecationNote("--" + former, "--" + name)
        if !deprecations.contains(note) { deprecations.append(note) }
    }

    /// A `UsageError` for this command.
    public func error(_ message: String) -> UsageError { UsageError(message, command: command) }
}
