import KioskSettings

/// A command-line option's long name as a value of its own: declared once beside its
/// `OptionSpec` (`static let socket = OptionKey("socket")`) and used by both the declaration and
/// the lookups (`a.string(.socket)`), so a misspelt lookup does not compile where a misspelt
/// string would have returned nil. The `String` lookups stay for names known only at run time
/// (the settings table's options).
public struct OptionKey: Hashable, Sendable, CustomStringConvertible {
    /// The long name without dashes.
    public let name: String
    public init(_ name: String) { self.name = name }
    /// `--name`.
    public var description: String { "--" + name }
}

extension ParsedArguments {
    /// The value of the option (the last one given), or nil.
    public func string(_ key: OptionKey) -> String? { string(key.name) }
    /// Every value of a repeatable option, in order.
    public func strings(_ key: OptionKey) -> [String] { strings(key.name) }
    /// Whether the flag was given.
    public func flag(_ key: OptionKey) -> Bool { flag(key.name) }
    /// An inversible flag: true (`--name`), false (`--no-name`) or nil (neither).
    public func optionalFlag(_ key: OptionKey) -> Bool? { optionalFlag(key.name) }
    /// Whether the option (or its `--no-` form) was given.
    public func given(_ key: OptionKey) -> Bool { given(key.name) }
    /// `written(_:)` of `key`'s name.
    public func written(_ key: OptionKey) -> String { written(key.name) }
    /// The option checked by its declared rule, or nil when not given.
    public func value(_ key: OptionKey) throws(UsageError) -> SettingValue? { try value(key.name) }
    /// The option as a number (checked by its rule), or nil when not given.
    public func double(_ key: OptionKey) throws(UsageError) -> Double? { try double(key.name) }
    /// The option as a whole number (checked by its rule), or nil when not given.
    public func int(_ key: OptionKey) throws(UsageError) -> Int? { try int(key.name) }
}

extension OptionSpec {
    /// The option named by `key` (see `init(_:short:_:value:rule:help:hidden:formerNames:)`).
    public init(_ key: OptionKey, short: Character? = nil, _ kind: Kind = .value, value valueName: String? = nil,
                rule: ValueRule? = nil, help: String, hidden: Bool = false, formerNames: [String] = []) {
        self.init(key.name, short: short, kind, value: valueName, rule: rule, help: help, hidden: hidden, formerNames: formerNames)
    }

    /// A flag named by `key`.
    public static func flag(_ key: OptionKey, short: Character? = nil, help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(key.name, short: short, .flag, help: help, hidden: hidden)
    }
}
