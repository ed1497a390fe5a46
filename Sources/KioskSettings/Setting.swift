/// What a setting is to a running HUD, declared with it so that every list of "the content
/// settings" or "the ones a daemon may change" is derived, not kept by hand.
public enum SettingRole: Sendable, Equatable {
    /// What the HUD shows (mode, progress, label, details, button, image): a daemon's `update`.
    case content
    /// How it looks or behaves, changeable while shown: a daemon's `style`.
    case look
    /// Given at start only (display, input, files).
    case fixed
}

/// One setting, declared once: where it is given (board file section and key, command-line
/// option), what its value must be, its default, its help, and how it reads and writes the
/// settings it belongs to (`Root`).
public struct Setting<Root>: Sendable {
    /// The board file key, and the name clients use (snake_case).
    public let key: String
    /// The board file section ("" for the top level); nil: not in board files.
    public let section: String?
    /// The command-line long option; nil: none.
    public let option: String?
    public let rule: ValueRule
    public let help: String
    /// The help group and the kind of setting ("HUD", "Display", "Input", "Tilt").
    public let group: String
    /// What it is to a running HUD (see `SettingRole`).
    public let role: SettingRole
    /// May change while the HUD is shown (a daemon's `update`/`style`): role content or look.
    public var live: Bool { role != .fixed }
    /// The value when nothing sets it; nil: unset (e.g. "the first card").
    public let defaultValue: SettingValue?
    /// For an unset-by-default setting: an example for the generated profile's comment.
    public let example: String?
    /// Another place a board file may give it (an older name), never together with `key`.
    public let alias: (section: String, key: String)?
    /// Its earlier board file key (in `section`) and clients' field name, one name as `key` is:
    /// still accepted, deprecated (each use gives a one-line note naming `key`; both names at
    /// once are an error); nil: none.
    public let formerKey: String?
    /// Its earlier command-line option (without dashes): still taken, deprecated (a note on
    /// stderr naming `option`); nil: none.
    public let formerOption: String?
    /// Writes a checked value.
    public let set: @Sendable (inout Root, SettingValue) -> Void
    /// The value in effect (nil: unset).
    public let get: @Sendable (Root) -> SettingValue?

    public init(_ key: String, section: String?, option: String? = nil, _ rule: ValueRule, default defaultValue: SettingValue? = nil,
                example: String? = nil, alias: (section: String, key: String)? = nil, formerKey: String? = nil,
                formerOption: String? = nil, group: String,
                live: Bool = false, content: Bool = false, help: String, set: @escaping @Sendable (inout Root, SettingValue) -> Void,
                get: @escaping @Sendable (Root) -> SettingValue?) {
        self.key = key; self.section = section; self.option = option; self.rule = rule
        self.defaultValue = defaultValue; self.example = example; self.alias = alias; self.formerKey = formerKey
        self.formerOption = formerOption
        self.group = group; self.role = content ? .content : live ? .look : .fixed
        self.help = help; self.set = set; self.get = get
    }

    /// "[style] margin", "name": where it is in a board file.
    public var place: String { section.map { $0.isEmpty ? key : "[\($0)] \(key)" } ?? key }
}

/// The one-line note for a setting given by an earlier, deprecated name: "[display] underlay is
/// deprecated; use [display] underlay_color" (`old`, `new` as written: a board file place, a field).
public func deprecationNote(_ old: String, _ new: String) -> String { "\(old) is deprecated; use \(new)" }

/// A setting that could not be applied: the message names where (file:line:column and
/// [section] key, or --option), the value (cut at 80 characters) and what was expected.
public struct SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
