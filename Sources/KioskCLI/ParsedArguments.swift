/// The values given on the command line, by long option name, with typed accessors that throw a
/// `UsageError` naming the option when a value is not what it should be.
public struct ParsedArguments: Sendable {
    /// The command's path, e.g. ["kiosk-hud", "show"].
    public let command: [String]
    var values: [String: [String]] = [:]
    var flags: [String: Bool] = [:]
    /// Arguments that are not options (and everything after `--`), in order.
    public internal(set) var positionals: [String] = []

    public init(command: [String]) { self.command = command }

    /// The value of `--name` (the last one given), or nil.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags[name] ?? false }

    /// An inversible flag: true (`--name`), false (`--no-name`) or nil (neither).
    public func optionalFlag(_ name: String) -> Bool? { flags[name] }

    /// `--name` as a finite number, or nil when not given.
    public func double(_ name: String) throws(UsageError) -> Double? {
        guard let s = string(name) else { return nil }
        guard let v = Double(s), v.isFinite else { throw error("--\(name) \(s): expected a number") }
        return v
    }

    /// `--name` as a whole number, or nil when not given.
    public func int(_ name: String) throws(UsageError) -> Int? {
        guard let s = string(name) else { return nil }
        guard let v = Int(s) else { throw error("--\(name) \(s): expected a whole number") }
        return v
    }

    /// `--name` as one of `choices`, or nil when not given.
    public func choice(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let s = string(name) else { return nil }
        guard choices.contains(s) else { throw error("--\(name) \(s): expected \(listed(choices))") }
        return s
    }

    /// A `UsageError` for this command.
    public func error(_ message: String) -> UsageError { UsageError(message, command: command) }
}

/// "a, b or c".
public func listed(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + words.last!
}
