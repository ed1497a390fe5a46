// doctor's board check: the profile the boot's daemon takes (--board in KIOSK_HUD_ARGS, else
// detection as `kiosk-hud boards detect` runs it), why, and whether its [match] depends on the
// display (a DRM driver, connector or mode rule): at boot the daemon starts before the display's
// driver has loaded, so it starts with a profile matched without the display and detects again
// when the display appears (ShowBoard.swift).
import KioskBoards

/// What the board check looks at.
struct DoctorBoardFacts {
    /// Why the options or the profile cannot be used (nil: they can).
    var problem: String?
    /// --board in KIOSK_HUD_ARGS.
    var boardGiven: Bool
    /// The profile taken.
    var selection: BoardSelection?

    init(_ boot: BootSettings) {
        problem = boot.problem
        boardGiven = boot.boardGiven
        selection = boot.selection
    }
}

extension DoctorChecks {
    /// The board line, and one for each profile detection had to skip.
    static func board(_ f: DoctorBoardFacts) -> [DoctorResult] {
        if let problem = f.problem {
            return [DoctorResult(.board, .fail, problem + ": the boot's daemon cannot start",
                                 todo: "fix \(BootSettings.defaultsPath) or the profile (kiosk-hud boards detect; kiosk-hud boards show NAME)")]
        }
        guard let s = f.selection else { return [] }
        var out = s.notes.map { DoctorResult(.board, .warn, $0, todo: "fix or remove that file") }
        let from = s.source.map { "\($0)" } ?? s.name
        if f.boardGiven {
            out.insert(DoctorResult(.board, .ok, "\(s.name) (\(from)): --board in \(BootSettings.defaultsPath), not detected"), at: 0)
            return out
        }
        guard let d = s.detection else { return out }
        let why = s.line.hasPrefix("board ") ? String(s.line.dropFirst(6)) : s.line
        let chosen = d.chosen
        if let c = chosen, c.match.kinds.contains(where: \.isDisplay) {
            let rules = c.match.kinds.filter(\.isDisplay).map { "\($0.key) \(c.match[$0].joined(separator: "|"))" }
            out.insert(DoctorResult(.board, .ok, why + "; its [match] needs the display (\(spokenList(rules))): at boot the daemon starts before the "
                                        + "display's driver has loaded and takes \(c.name) when the display appears (the driver's modules belong in the initramfs: see below)"), at: 0)
        } else if d.mayChangeWithDisplay {
            out.insert(DoctorResult(.board, .warn, why + "; the display these need is not there now",
                                    todo: "load the display's driver and check its panel (kiosk-hud boards detect shows what the rules see), or name the board: --board NAME in KIOSK_HUD_ARGS"), at: 0)
        } else {
            out.insert(DoctorResult(.board, .ok, why), at: 0)
        }
        return out
    }
}

/// The checks, each a pure function from its facts to lines (DoctorBoard.swift,
/// DoctorInitramfs.swift, DoctorUnits.swift, DoctorHandover.swift, DoctorDisplay.swift).
enum DoctorChecks {}
