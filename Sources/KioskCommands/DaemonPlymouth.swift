import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskProtocol
import KioskSettings
import KioskSys

extension DaemonParts {
    /// The daemon's options for Plymouth's socket (the settings of `[plymouth]` come with them).
    static let plymouthOptions: [OptionSpec] = [
        .flag(.plymouth, help: """
            Also answer on Plymouth's socket (the abstract \\0\(PlymouthWire.defaultSocketName)): the system's plymouth \
            command, systemd's PID 1 and the initramfs scripts drive the HUD unchanged (docs/plymouth.md). Only root may use it.
            """),
        OptionSpec(.plymouthSocket, value: "NAME", rule: .text(100, nonEmpty: true, "an abstract socket name"),
                   help: "Plymouth's abstract socket name, without the leading NUL. Default: \(PlymouthWire.defaultSocketName)."),
        OptionSpec(.plymouthBootDuration, value: "PATH", rule: .path, help: """
            Plymouth's boot estimate: read at start, written at quit after a boot (Plymouth's format); 'none': no \
            estimate. Default: \(PlymouthFrontEnd.defaultDurationPath).
            """),
        OptionSpec(.plymouthMode, value: "MODE", rule: .choice(PlymouthMode.allCases.map(\.rawValue)), help: """
            Start in this Plymouth mode, as plymouthd --mode does: the mode's label and HUD mode ([plymouth] MODE_label \
            and MODE_mode, e.g. shutdown_label) replace --label and --mode, and the bar starts at 0 outside boot-up. \
            With --plymouth it is Plymouth's mode too (plymouth change-mode changes it). The shutdown screens' units \
            run daemon --plymouth-mode shutdown (or reboot) --retain. Default: boot-up, with --label and --mode as given.
            """),
    ]

    /// `--plymouth-mode`, checked by its rule (Plymouth's modes only: a usage error names them)
    /// and typed; nil when not given.
    static func startMode(_ a: ParsedArguments) throws(UsageError) -> PlymouthMode? {
        try a.value(.plymouthMode).flatMap { PlymouthMode(rawValue: $0.string) }
    }
}

extension DaemonParts {
    /// Plymouth's front end as `--plymouth`, `--plymouth-socket` and `--plymouth-boot-duration`
    /// say; nil without --plymouth (its other options are then warned about: they change nothing).
    static func plymouthFrontEnd(_ a: ParsedArguments, kernel: Kernel) throws -> PlymouthFrontEnd? {
        guard a.flag(.plymouth) else {
            for o in ["plymouth-socket", "plymouth-boot-duration"] where a.given(o) { showLog("warning: --\(o) has no effect without --plymouth") }
            return nil
        }
        let name = a.string(.plymouthSocket) ?? PlymouthWire.defaultSocketName
        guard !name.utf8.contains(0) else { throw UsageError(optionError("plymouth-socket", name, expected: "an abstract socket name")) }
        let path = a.string(.plymouthBootDuration) ?? PlymouthFrontEnd.defaultDurationPath
        return PlymouthFrontEnd(socketName: name, durationPath: path == "none" ? nil : path, kernel: kernel, log: showLog)
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let plymouth = OptionKey("plymouth")
    public static let plymouthBootDuration = OptionKey("plymouth-boot-duration")
    public static let plymouthMode = OptionKey("plymouth-mode")
    public static let plymouthSocket = OptionKey("plymouth-socket")
}
