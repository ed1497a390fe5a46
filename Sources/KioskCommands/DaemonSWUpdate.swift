import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskProtocol
import KioskSettings
import KioskSys

extension DaemonParts {
    /// The daemon's options for SWUpdate's progress socket.
    static let swupdateOptions: [OptionSpec] = [
        OptionSpec(.swupdate, .optionalValue, value: "SOCKET", help: """
            Follow SWUpdate's progress socket (docs/updates.md): the image being installed as the label, the step and \
            the source as details, the bar, success and failure as notices. No Cancel: SWUpdate cannot cancel. \
            Default socket: /run/swupdate/swupdateprog when /run/swupdate exists (SWUpdate 2024.05 on), else \
            $TMPDIR/swupdateprog, else /tmp/swupdateprog (Debian 12's 2022.12).
            """),
        .flag(.showWhenUpdating, help: "With --swupdate: the HUD is hidden except while an update runs (and its end notice), and the display is let go (for the kiosk app) between updates."),
        .flag(.swupdateReboots, help: """
            With --swupdate: the system reboots after a successful update (swupdate-progress -r): the notice says \
            Restarting… instead of Done, unless SWUpdate said it will not reboot.
            """),
    ]

    /// Starts following SWUpdate when --swupdate was given.
    func attachSWUpdate(daemon: Daemon, loop: EventLoop, kernel: Kernel, words: Words) throws {
        let a = arguments
        guard a.given(.swupdate) else {
            for o in ["show-when-updating", "swupdate-reboots"] where a.given(o) { showLog("warning: --\(o) has no effect without --swupdate") }
            return
        }
        let given = a.string(.swupdate) ?? ""
        if given.utf8.contains(0) || given.utf8.count > 107 {
            throw UsageError(optionError("swupdate", given, expected: "a socket path (at most 107 bytes)"))
        }
        let options = SWUpdateMachine.Options(showWhenUpdating: a.flag(.showWhenUpdating), rebootsAfterSuccess: a.flag(.swupdateReboots), words: words)
        swupdate = SWUpdateProgress(path: given.isEmpty ? nil : given, options: options, daemon: daemon, kernel: kernel, loop: loop, log: showLog)
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let swupdate = OptionKey("swupdate")
    public static let showWhenUpdating = OptionKey("show-when-updating")
    public static let swupdateReboots = OptionKey("swupdate-reboots")
}
