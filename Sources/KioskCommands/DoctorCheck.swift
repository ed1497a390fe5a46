// `kiosk-hud doctor`'s checks, in two halves: the facts (DoctorGather.swift: files read under a
// root standing for / through the command's `Kernel`, and the two programs run, each only when
// it is there — DoctorPrograms.swift) and the checks (DoctorBoard, DoctorInitramfs, DoctorUnits,
// DoctorHandover and DoctorDisplay.swift: each a check's facts and a pure function of them to
// lines, in `DoctorChecks`). A test gives a made-up system as a root directory and reads the
// lines; the checks themselves never touch the machine.
//
// Each line says what was looked at, what was found and what to do: `ok`, `warn` (the boot
// works, but not as it should: a second splash, a display manager that may start too early, an
// initramfs older than the settings) or `fail` (something the boot's splash needs is missing or
// broken). The exit code is 1 when a line fails, else 0.

/// One line of `kiosk-hud doctor`: which check, how it went, what it found, what to do.
public struct DoctorResult: Equatable, Sendable, CustomStringConvertible {
    /// How a check went.
    public enum Status: String, Sendable, Comparable {
        case ok, warn, fail

        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
        var rank: Int {
            switch self {
            case .ok: 0
            case .warn: 1
            case .fail: 2
            }
        }
    }

    /// What a line is about: one check, its facts gathered and judged together.
    public enum Check: String, Sendable, CaseIterable {
        /// The board profile the boot's daemon takes.
        case board
        /// The initramfs the boot loads, and what is in it.
        case initramfs
        /// The units and their drop-ins, as systemd reads them.
        case units
        /// Who else shows a splash, and who waits for the handover.
        case handover
        /// The DRM cards, connectors and the display's modules loaded.
        case display
    }

    /// What was checked.
    public var check: Check
    public var status: Status
    /// What was found, one sentence.
    public var found: String
    /// What to do about it (nil: nothing).
    public var todo: String?

    public init(_ check: Check, _ status: Status, _ found: String, todo: String? = nil) {
        self.check = check; self.status = status; self.found = found; self.todo = todo
    }

    /// "fail  initramfs: no kiosk-hud in /boot/initrd.img-6.1.0-18-arm64 → update-initramfs -u".
    public var description: String {
        let mark = status.rawValue + String(repeating: " ", count: 6 - status.rawValue.count)
        return mark + check.rawValue + ": " + found + (todo.map { " → " + $0 } ?? "")
    }
}

/// The checks' results, in order, and the exit code they make.
public struct DoctorReport: Sendable {
    public var results: [DoctorResult]

    public init(_ results: [DoctorResult]) { self.results = results }

    /// 1 when a check failed (warnings do not), else 0.
    public var exitCode: Int32 { results.contains { $0.status == .fail } ? 1 : 0 }

    /// Every line, then one that counts them.
    public var text: String {
        let count = { (s: DoctorResult.Status) in results.filter { $0.status == s }.count }
        return results.map { $0.description + "\n" }.joined()
            + "\(count(.ok)) ok, \(count(.warn)) warning\(count(.warn) == 1 ? "" : "s"), \(count(.fail)) failed\n"
    }
}

/// A module's name as the kernel keeps it: `panel-simple` and `panel_simple` are one module
/// (/sys/module and modprobe use `_`; file names use either).
func moduleKey(_ name: String) -> String {
    String(name.map { $0 == "-" ? "_" : $0 })
}

/// "a, b and c".
func spokenList(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + items.last!
}
