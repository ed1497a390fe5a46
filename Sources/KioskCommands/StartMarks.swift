import KioskSys

/// Points on the way from exec to the first frame, for `show`'s `first-frame phases` log line:
/// where start-up time goes, measured in every run (no profiler needed on the board).
/// A fixed array of clock readings, so that taking them costs no allocation or type metadata.
public enum StartMarks {
    /// Each phase ends at its mark; they are logged in this order.
    public enum Phase: Int, CaseIterable {
        /// Our constructor → `main`: the Swift runtime's first steps.
        case runtime
        /// `main` → `run()`: the command line.
        case cli
        /// The board profile and the HUD options.
        case profile
        /// The font library (and glyph cache directory).
        case fonts
        /// Opening the display: card, connectors, mode, buffers.
        case display
        /// The HUD laid out (text shaped: glyph cache or FreeType).
        case layout

        var name: String {
            switch self {
            case .runtime: "runtime"
            case .cli: "cli"
            case .profile: "profile"
            case .fonts: "fonts"
            case .display: "display"
            case .layout: "layout"
            }
        }
    }

    nonisolated(unsafe) static var times = [UInt64](repeating: 0, count: Phase.allCases.count)

    /// Notes that `phase` ends now.
    public static func mark(_ phase: Phase) { times[phase.rawValue] = monotonicNanoseconds() }

    /// When `phase` ended (CLOCK_MONOTONIC ns), 0 if not reached.
    static func time(_ phase: Phase) -> UInt64 { times[phase.rawValue] }

    /// "runtime=1.2 cli=0.4 … present=0.8" in ms: each phase's length, from `start` (the
    /// process's constructors) to `end` (the first frame); phases not reached are left out.
    static func describe(from start: UInt64, to end: UInt64) -> String {
        var last = start, out = ""
        for phase in Phase.allCases {
            let t = times[phase.rawValue]
            guard t != 0, t <= end else { continue }
            out += "\(phase.name)=\(fmt(Double(t &- last) / 1e6)) "
            last = t
        }
        return out + "present=\(fmt(Double(end &- last) / 1e6))"
    }
}
