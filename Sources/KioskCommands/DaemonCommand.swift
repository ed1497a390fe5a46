import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskDRM
import KioskProtocol
import KioskSession
import KioskSettings
import KioskSys

/// `kiosk-hud daemon`: `show`, driven by clients over a control socket (and psplash's FIFO).
public enum DaemonCommand {
    /// `kiosk-hud daemon`'s options, help and manual page.
    public static let spec = CommandSpec(
        "daemon", abstract: "Show the HUD and take requests on a control socket (kiosk-hud ctl, psplash-write).",
        discussion: """
        Everything show does (the display options below are show's), and: requests on a Unix socket \
        (--socket; newline-delimited JSON, docs/protocol.md; `kiosk-hud ctl` speaks it), psplash's \
        FIFO with --psplash-fifo (PROGRESS n, MSG text, QUIT, as psplash-write sends them), \
        Plymouth's socket with --plymouth (the plymouth command, systemd's PID 1, initramfs scripts; \
        docs/plymouth.md), RAUC's installations with --rauc (docs/rauc.md), SWUpdate's progress socket with --swupdate (docs/updates.md), and systemd socket activation (LISTEN_FDS). The socket is 0660 and owned by --group; root, the \
        daemon's user, the group's members and --allow-uid may talk to it. A second daemon on the \
        same socket refuses to start. A quit is remembered beside the socket (PATH.handed-over, for \
        the rest of the boot): a daemon that systemd starts on its socket after it starts as with \
        --hidden.

        Exit codes: 0 quit (a quit request, psplash's QUIT, SIGINT/SIGTERM/SIGHUP, --duration); \
        1 error (e.g. another daemon serves the socket); 64 bad options.
        """,
        groups: ShowCommand.displayGroups + [OptionGroup("Daemon", [
            .flag(.hidden, help: "Start with the HUD hidden (until a show request)."),
            OptionSpec(.socket, value: "PATH", rule: .path, help: "The control socket. Default: \(ControlSocket.defaultPath)."),
            OptionSpec(.group, rule: .text(32, nonEmpty: true, "a group name"),
                       help: "The group that owns the socket and may use it. Default: the daemon's own."),
            OptionSpec(.allowUid, .repeated, value: "UID", rule: ValueRule(.integers(min: 0, max: 4_294_967_294, maxCount: 64), expected: "a user id"),
                       help: "Also let this user id use the socket; repeatable."),
            .flag(.idleAfterFirstFrame, help: """
                Once the first frame is on screen (from the frame cache, or drawn), run at the lowest CPU priority \
                (nice 19): the rest of the start and the requests take only CPU time nothing else wants. The \
                shutdown screens' units use it, so that the screen never slows the shutdown it shows.
                """),
            .flag(.initramfs, help: "Started in the initramfs (its init-top script): takes new_root before switch-root, and is taken over by the real root's daemon start (docs/initramfs.md)."),
            OptionSpec(.psplashFifo, .optionalValue, value: "PATH",
                       help: "Read psplash's commands from this FIFO (made if missing; another user's FIFO, or one anyone may write, is replaced in a directory of the daemon's own, else refused). Default path: $PSPLASH_FIFO_DIR/psplash_fifo, else /run/psplash_fifo."),
            OptionSpec(.rauc, .optionalValue, value: "ADDRESS", rule: .text(4095, nonEmpty: false, "a D-Bus address"),
                       help: "Follow RAUC's installer (de.pengutronix.rauc) on this bus: its progress, steps and end notices, without a Cancel button (RAUC cannot cancel). Default bus: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus."),
        ]), OptionGroup("SWUpdate", DaemonParts.swupdateOptions), OptionGroup("Plymouth", DaemonParts.plymouthOptions + SettingOptions.options(group: SettingGroup.plymouth)),
                 OptionGroup("Words", SettingOptions.options(group: SettingGroup.words))])

    /// Runs the daemon until it quits (see the spec's exit codes).
    public static func run(_ a: ParsedArguments) throws {
        // A daemon runs for months: what its requests free must not stay in the heap.
        Heap.keepLargeBlocksOutOfTheHeap()
        let kernel = LinuxKernel()
        // A previous image of this process (the initramfs's daemon, carried over): its state.
        let socket = a.string(.socket) ?? ControlSocket.defaultPath
        let resume: DaemonResume?
        do { resume = try DaemonResume.take(kernel: kernel) } catch {
            // The previous image is gone with what it held: its marker would keep the socket
            // unit off for the rest of the boot.
            try? kernel.removeFile(InitramfsDaemon.markerPath(socket: socket))
            throw error
        }
        if resume == nil, !a.flag(.initramfs), let pid = InitramfsTakeover.waitingDaemon(socket: socket, kernel: kernel) {
            try InitramfsTakeover.run(pid: pid, socket: socket, kernel: kernel)
            return
        }
        if resume != nil { logToJournal(kernel: kernel) }
        let idle = IdleAfterFirstFrame(a, kernel: kernel)
        if let idle, ShowCommand.earlyFrameShown() { idle.drop("the frame cache's picture is on screen") }
        if let handed = resume?.screen {
            var left: ScreenCarryOver? = handed
            ShowCommand.takeEarlyFrame = {
                defer { left = nil }
                guard let h = left else { return nil }
                do { return try EarlyFrame(resuming: h, kernel: kernel) } catch {
                    showLog("initramfs: the screen handed over cannot be taken: \(error)")
                    return nil
                }
            }
        }
        try ShowCommand(a, extras: try DaemonParts(a, kernel: kernel, resume: resume, idle: idle)).run()
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let allowUid = OptionKey("allow-uid")
    public static let group = OptionKey("group")
    public static let hidden = OptionKey("hidden")
    public static let initramfs = OptionKey("initramfs")
    public static let psplashFifo = OptionKey("psplash-fifo")
    public static let rauc = OptionKey("rauc")
}
