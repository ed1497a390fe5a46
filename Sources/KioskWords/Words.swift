/// A text the HUD shows by itself (not one a client or the command line gave it): `kiosk-hud
/// run`'s button and notices, the Plymouth front end's mode labels and boot status, the notices of an
/// update the daemon follows (`--rauc`). Each is
/// shipped in every `Language` (WordsTable.swift) and a board profile may give its own.
public enum Word: String, CaseIterable, Sendable {
    /// run's button.
    case cancel
    /// run --confirm-cancel's question after the first tap.
    case confirmCancel
    /// While a cancelled command is being stopped.
    case cancelling
    /// The end notice of a cancelled command.
    case cancelled
    /// The end notice of a command that succeeded.
    case done
    /// A command that exited with a status other than 0: `{status}` is the number.
    case failedStatus
    /// A command a signal ended: `{signal}` is its name (SIGKILL).
    case failedSignal
    /// A command that could not be started: `{command}`, and `{reason}` (the system's words).
    case cannotRun
    /// The details line for a unit systemd starts (Plymouth's boot status): `{unit}`.
    case startingUnit
    /// The labels of Plymouth's modes (`plymouth change-mode`).
    case bootUp, shutdown, reboot, updates, systemUpgrade, firmwareUpgrade
    /// The success notice of an update the daemon followed (`--rauc`).
    case installed
    /// The failure notice of an update the daemon followed: `{reason}`, the updater's own words.
    case updateFailed
    /// The failure notice of an update whose service went away mid-install and came back idle.
    case updateInterrupted
    /// The note under the last state while the update service (RAUC, SWUpdate) is away mid-update.
    case updaterStopped
    /// An update's details line (the daemon's `--swupdate`): `{step}` of `{steps}`.
    case updateStep

    /// The placeholders its text has, `{name}` each.
    public var parameters: [WordParameter] {
        switch self {
        case .failedStatus: [.status]
        case .failedSignal: [.signal]
        case .cannotRun: [.command, .reason]
        case .startingUnit: [.unit]
        case .updateStep: [.step, .steps]
        case .updateFailed: [.reason]
        default: []
        }
    }


    /// Its board file key in `[words]`: confirm_cancel, failed_status, …
    public var key: String {
        var out = ""
        for c in rawValue { if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) } }
        return out
    }
}

/// A value a word's text takes, written `{name}` where it goes in each language.
public enum WordParameter: String, CaseIterable, Sendable {
    case status, signal, command, reason, unit, step, steps

    /// How it is written in a text: `{status}`.
    public var placeholder: String { "{\(rawValue)}" }
}

/// `[words]` of a board profile: which language the HUD's own words are in, and the board's
/// own text for any of them.
public struct WordsProfile: Sendable, Equatable {
    /// `auto`: the system's (LC_ALL, LC_MESSAGES, LANG, else /etc/default/locale).
    public enum Choice: Sendable, Equatable {
        case auto
        case language(Language)
    }

    public var language = Choice.auto
    /// The board's own texts (with their `{parameters}`); a word not here is the language's.
    public var texts: [Word: String] = [:]

    public init() {}

    /// The words for a system whose language is `system` (used when `language` is auto).
    public func words(system: Language) -> Words {
        switch language {
        case .auto: Words(language: system, texts: texts)
        case let .language(l): Words(language: l, texts: texts)
        }
    }
}

/// The HUD's own words, resolved: a language and the board's own texts over it.
public struct Words: Sendable, Equatable {
    public var language: Language
    public var texts: [Word: String]

    public init(language: Language = .en, texts: [Word: String] = [:]) {
        self.language = language; self.texts = texts
    }

    /// `word`'s text with `values` in its placeholders: the board's own, else the language's.
    public func text(_ word: Word, _ values: [WordParameter: String] = [:]) -> String {
        Words.fill(texts[word] ?? word.text(language), values)
    }

    /// `template` with each of `values` in its `{placeholder}`, in one pass (a value is never
    /// read for placeholders); any other `{…}` stays as it is.
    public static func fill(_ template: String, _ values: [WordParameter: String]) -> String {
        let t = Array(template.unicodeScalars)
        var out = String.UnicodeScalarView(), i = 0
        while i < t.count {
            if t[i] == "{", let close = t[(i + 1)...].firstIndex(of: "}"),
               let p = WordParameter(rawValue: String(String.UnicodeScalarView(t[(i + 1)..<close]))), let v = values[p] {
                out.append(contentsOf: v.unicodeScalars)
                i = close + 1
            } else {
                out.append(t[i]); i += 1
            }
        }
        return String(out)
    }
}
