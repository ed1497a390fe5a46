import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskDevices
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
        docs/plymouth.md), SWUpdate's progress socket with --swupdate (docs/updates.md), and systemd socket activation (LISTEN_FDS). The socket is 0660 and owned by --group; root, the \
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
            OptionSpec(.psplashFifo, .optionalValue, value: "PATH",
                       help: "Read psplash's commands from this FIFO (made if missing). Default path: $PSPLASH_FIFO_DIR/psplash_fifo, else /run/psplash_fifo."),
        ]), OptionGroup("SWUpdate", DaemonParts.swupdateOptions), OptionGroup("Plymouth", DaemonParts.plymouthOptions + SettingOptions.options(group: SettingGroup.plymouth)),
                 OptionGroup("Words", SettingOptions.options(group: SettingGroup.words))])

    /// Runs the daemon until it quits (see the spec's exit codes).
    public static func run(_ a: ParsedArguments) throws {
        // A daemon runs for months: what its requests free must not stay in the heap.
        Heap.keepLargeBlocksOutOfTheHeap()
        try ShowCommand(a, extras: try DaemonParts(a, kernel: LinuxKernel())).run()
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let allowUid = OptionKey("allow-uid")
    public static let group = OptionKey("group")
    public static let hidden = OptionKey("hidden")
    public static let psplashFifo = OptionKey("psplash-fifo")
}
