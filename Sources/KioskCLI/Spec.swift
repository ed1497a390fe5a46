import KioskSettings

/// One option of a command, e.g. `--label TEXT`.
public struct OptionSpec: Sendable {
    /// What the option takes.
    public enum Kind: Sendable, Equatable {
        /// `--name`: present or not.
        case flag
        /// `--name` and `--no-name`: true, false, or not given.
        case inversibleFlag
        /// `--name VALUE`: the last one given counts.
        case value
        /// `--name VALUE`, repeatable: every value, in order.
        case repeated
        /// `--name` alone, `--name=VALUE`, or `--name VALUE` when the next argument is not an
        /// option: the value, or "" when none was given (the option's default applies).
        case optionalValue
    }

    /// The long name without dashes (`label` for `--label`).
    public var name: String
    /// A one-letter short name (`o` for `-o`), if any.
    public var short: Character?
    public var kind: Kind
    /// How help shows the value (`--size WxH`); default: the long name in angle brackets.
    public var valueName: String?
    /// One line or more of help.
    public var help: String
    /// Left out of the help (testing switches).
    public var hidden: Bool
    /// What a value must be; the typed accessors of `ParsedArguments` check it (nil: any text).
    public var rule: ValueRule?
    /// Earlier long names, still taken as this option, deprecated: each use leaves a note in
    /// `ParsedArguments.deprecations` ("--underlay is deprecated; use --underlay-image"). Not in
    /// the help.
    public var formerNames: [String]

    public init(_ name: String, short: Character? = nil, _ kind: Kind = .value, value valueName: String? = nil,
                rule: ValueRule? = nil, help: String, hidden: Bool = false, formerNames: [String] = []) {
        self.name = name; self.short = short; self.kind = kind; self.valueName = valueName
        self.rule = rule; self.help = help; self.hidden = hidden; self.formerNames = formerNames
    }

    /// The option of a declared setting: its kind from the rule (a boolean is `--name` and
    /// `--no-name`, a list repeats), its help with the default.
    public init<Root>(_ s: Setting<Root>, default d: SettingValue? = nil) {
        let kind: Kind
        switch s.rule.kind {
        case .bool: kind = .inversibleFlag
        case .texts: kind = .repeated
        default: kind = .value
        }
        var help = s.help
        if let d = d ?? s.defaultValue, kind != .inversibleFlag, !d.text.isEmpty {
            help += " Default: \(d.text)\(s.rule.unit.map { " " + $0 } ?? "")."
        }
        self.init(s.option ?? s.key, kind, value: OptionSpec.valueName(s.rule), rule: s.rule, help: help,
                  formerNames: s.formerOption.map { [$0] } ?? [])
    }

    static func valueName(_ r: ValueRule) -> String? {
        switch r.kind {
        case .size: "WxH"
        case .point: "X,Y"
        case .color: "#RRGGBB"
        case .choice: nil
        default: r.unit.map { $0 == "s" ? "seconds" : $0 }
        }
    }

    /// A `--name` flag.
    public static func flag(_ name: String, short: Character? = nil, help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name, short: short, .flag, help: help, hidden: hidden)
    }
}

/// Options shown together in help under a title ("Input", "Tilt"); nil title: the command's own.
public struct OptionGroup: Sendable {
    public var title: String?
    public var options: [OptionSpec]

    /// The command's own options (shown under OPTIONS).
    public init(_ options: [OptionSpec]) {
        self.title = nil; self.options = options
    }

    /// Options shown under `title`.
    public init(_ title: String, _ options: [OptionSpec]) {
        self.title = title; self.options = options
    }
}

/// A positional argument, e.g. the program after `run --`.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    /// Takes every remaining argument (at least one unless `optional`).
    public var repeated: Bool
    public var optional: Bool

    public init(_ name: String, help: String, repeated: Bool = false, optional: Bool = false) {
        self.name = name; self.help = help; self.repeated = repeated; self.optional = optional
    }
}

/// A command: its name, help, options and positional arguments, or subcommands.
public struct CommandSpec: Sendable {
    public var name: String
    /// One line for the command list.
    public var abstract: String
    /// Paragraphs after the usage line (blank line between paragraphs).
    public var discussion: String
    public var groups: [OptionGroup]
    public var positionals: [PositionalSpec]
    public var subcommands: [CommandSpec]

    public init(_ name: String, abstract: String, discussion: String = "", groups: [OptionGroup] = [],
                positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = []) {
        self.name = name; self.abstract = abstract; self.discussion = discussion
        self.groups = groups; self.positionals = positionals; self.subcommands = subcommands
    }

    /// Every option of every group, plus the built-in help option.
    public var allOptions: [OptionSpec] { groups.flatMap(\.options) + [CommandSpec.helpOption] }

    /// `--help`/`-h`, which every command has.
    public static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The options every subcommand has (the same name and kind), in the first one's order:
    /// they may also come before the subcommand's name (`kiosk-hud ctl --socket S status`), as
    /// systemctl's and git's global options do. Empty for a command without subcommands.
    public var sharedOptions: [OptionSpec] {
        guard let first = subcommands.first else { return [] }
        return first.groups.flatMap(\.options).filter { o in
            subcommands.dropFirst().allSatisfy { $0.option(long: o.name)?.kind == o.kind }
        }
    }

    /// The option called `name` (long name) or `-c` (short), if the command has it.
    func option(long name: String) -> OptionSpec? { allOptions.first { $0.name == name } }
    /// The option whose earlier, deprecated long name is `name`.
    func option(formerName name: String) -> OptionSpec? { allOptions.first { $0.formerNames.contains(name) } }
    func option(short c: Character) -> OptionSpec? { allOptions.first { $0.short == c } }
}
