// The words a board profile takes from KioskWords: the labels of Plymouth's modes (set as
// `[plymouth] MODE_label`, not in `[words]`), and the profile localized to its language.
import KioskWords

extension Word {
    /// The Plymouth mode whose label it is (set as `[plymouth] MODE_label`, not in `[words]`).
    public var plymouthMode: PlymouthMode? {
        switch self {
        case .bootUp: .bootUp
        case .shutdown: .shutdown
        case .reboot: .reboot
        case .updates: .updates
        case .systemUpgrade: .systemUpgrade
        case .firmwareUpgrade: .firmwareUpgrade
        default: nil
        }
    }

    /// The label of Plymouth's `mode`.
    public init(plymouth mode: PlymouthMode) {
        switch mode {
        case .bootUp: self = .bootUp
        case .shutdown: self = .shutdown
        case .reboot: self = .reboot
        case .updates: self = .updates
        case .systemUpgrade: self = .systemUpgrade
        case .firmwareUpgrade: self = .firmwareUpgrade
        }
    }
}

extension BoardProfile {
    /// The profile with its Plymouth labels in `words`' language where the profile (or the
    /// command line) gave none, and the words themselves (what `kiosk-hud run` and the daemon show).
    public mutating func localize(system: Language) -> Words {
        let w = words.words(system: system)
        for m in PlymouthMode.allCases where w.texts[Word(plymouth: m)] == nil {
            var look = plymouth.look(m)
            look.label = w.text(Word(plymouth: m))
            plymouth.looks[m] = look
        }
        plymouth.unitStatus = w.text(.startingUnit)
        return w
    }
}
