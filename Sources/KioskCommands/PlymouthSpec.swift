import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSettings
import KioskSys

/// The plymouth command's commands and options (plymouth 22.02's), for `kiosk-hud plymouth`.
extension PlymouthCommand {
    /// The commands, each with the options it takes (plymouth 22.02's).
    static let commands: [(name: String, help: String, options: [String])] = [
        ("change-mode", "Change the operation mode", ["boot-up", "shutdown", "reboot", "updates", "system-upgrade", "firmware-upgrade"]),
        ("system-update", "Tell the daemon about updates progress", ["progress"]),
        ("update", "Tell daemon about boot status changes", ["status"]),
        ("update-root-fs", "Tell daemon about root filesystem changes", ["new-root-dir", "read-write"]),
        ("show-splash", "Tell daemon to show splash screen", []),
        ("hide-splash", "Tell daemon to hide splash screen", []),
        ("ask-for-password", "Ask user for password", ["command", "prompt", "number-of-tries", "dont-pause-progress"]),
        ("ask-question", "Ask user a question", ["command", "prompt", "dont-pause-progress"]),
        ("display-message", "Display a message", ["text"]),
        ("hide-message", "Hide a message", ["text"]),
        ("watch-keystroke", "Become sensitive to a keystroke", ["command", "keys"]),
        ("ignore-keystroke", "Remove sensitivity to a keystroke", ["keys"]),
        ("pause-progress", "Pause boot progress bar", []),
        ("unpause-progress", "Unpause boot progress bar", []),
        ("report-error", "Tell boot daemon there were errors during boot", []),
        ("deactivate", "Tell boot daemon to deactivate", []),
        ("reactivate", "Tell boot daemon to reactivate", []),
        ("quit", "Tell boot daemon to quit", ["retain-splash"]),
    ]

    static let modes = PlymouthMode.allCases.map(\.rawValue)

    /// `kiosk-hud plymouth`'s options, help and manual page.
    public static let spec = CommandSpec(
        "plymouth", abstract: "Send a request to a Plymouth daemon, as the plymouth command does (kiosk-hud daemon --plymouth, or plymouthd).",
        discussion: """
        The plymouth command's forms: plymouth [OPTION…] [COMMAND [OPTION…]], e.g. --ping, --quit, quit --retain-splash, \
        update --status=TEXT, display-message --text=TEXT, hide-message --text=TEXT, system-update --progress=N, \
        change-mode --boot-up (--shutdown, --reboot, --updates, --system-upgrade, --firmware-upgrade), show-splash, \
        hide-splash, deactivate, reactivate, --has-active-vt, --wait. A link to kiosk-hud named plymouth runs this command \
        (docs/plymouth.md: installing it as /usr/bin/plymouth).

        Commands: \(commands.map(\.name).joined(separator: ", ")).

        Exit codes (plymouth's): 0 done (ACK, or an answer: printed); 1 refused (NAK), no daemon, or bad options; \
        2 the daemon closed the connection before answering. --wait: 0 once the daemon has quit (or when none runs).
        """,
        groups: [
            OptionGroup([
                .flag(.debug, help: "Say on stderr what is sent and what came back."),
                .flag(.getSplashPluginPath, help: "Plymouth's plugin directory (kiosk-hud has none: exit 1)."),
                OptionSpec(.newroot, value: "string", help: "Tell boot daemon that new root filesystem is mounted."),
                .flag(.quit, help: "Tell boot daemon to quit."),
                .flag(.ping, help: "Check if boot daemon is running."),
                .flag(.hasActiveVt, help: "Check if boot daemon has an active vt."),
                .flag(.sysinit, help: "Tell boot daemon root filesystem is mounted read-write."),
                .flag(.showSplash, help: "Show splash screen."),
                .flag(.hideSplash, help: "Hide splash screen."),
                .flag(.askForPassword, help: "Ask user for password."),
                OptionSpec(.ignoreKeystroke, value: "string", help: "Remove sensitivity to a keystroke."),
                OptionSpec(.update, value: "string", help: "Tell boot daemon an update about boot progress."),
                .flag(.details, help: "Tell boot daemon there were errors during boot."),
                .flag(.wait, help: "Wait for boot daemon to quit."),
                OptionSpec(.socket, value: "NAME", rule: .text(100, nonEmpty: true, "an abstract socket name"),
                           help: "The daemon's abstract socket name (kiosk-hud's; plymouth has none). Default: \(PlymouthWire.defaultSocketName)."),
            ]),
            OptionGroup("Command options", [
                .flag("boot-up", help: "change-mode: Starting the system up."),
                .flag("shutdown", help: "change-mode: Shutting the system down."),
                .flag("reboot", help: "change-mode: Rebooting the system."),
                .flag("updates", help: "change-mode: Applying updates."),
                .flag("system-upgrade", help: "change-mode: Upgrading the OS to a new version."),
                .flag("firmware-upgrade", help: "change-mode: Upgrading firmware to a new version."),
                OptionSpec(.progress, value: "integer", rule: .integer(0, 100, "a percentage"), help: "system-update: The percentage progress of the updates."),
                OptionSpec("status", value: "string", help: "update: Tell daemon the current boot status."),
                OptionSpec(.newRootDir, value: "string", help: "update-root-fs: Root filesystem is about to change."),
                .flag(.readWrite, help: "update-root-fs: Root filesystem is no longer read-only."),
                OptionSpec(.command, value: "string", help: "ask-for-password, ask-question, watch-keystroke: Command to send the answer to (not supported: the answer is printed)."),
                OptionSpec(.prompt, value: "string", help: "ask-for-password, ask-question: Message to display."),
                OptionSpec("number-of-tries", value: "integer", rule: .integer(0, 1000), help: "ask-for-password: Number of times to ask."),
                .flag(.dontPauseProgress, help: "ask-for-password, ask-question: Don't pause boot progress bar while asking."),
                OptionSpec("text", value: "string", help: "display-message, hide-message: The message text."),
                OptionSpec(.keys, value: "string", help: "watch-keystroke, ignore-keystroke: Keys to become (or stop being) sensitive to."),
                .flag(.retainSplash, help: "quit: Don't explicitly hide boot splash on exit."),
            ]),
        ],
        positionals: [PositionalSpec("command", help: "One of the commands above.", optional: true)])
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let askForPassword = OptionKey("ask-for-password")
    public static let command = OptionKey("command")
    public static let debug = OptionKey("debug")
    public static let details = OptionKey("details")
    public static let dontPauseProgress = OptionKey("dont-pause-progress")
    public static let getSplashPluginPath = OptionKey("get-splash-plugin-path")
    public static let hasActiveVt = OptionKey("has-active-vt")
    public static let hideSplash = OptionKey("hide-splash")
    public static let ignoreKeystroke = OptionKey("ignore-keystroke")
    public static let keys = OptionKey("keys")
    public static let newRootDir = OptionKey("new-root-dir")
    public static let newroot = OptionKey("newroot")
    public static let ping = OptionKey("ping")
    public static let progress = OptionKey("progress")
    public static let prompt = OptionKey("prompt")
    public static let quit = OptionKey("quit")
    public static let readWrite = OptionKey("read-write")
    public static let retainSplash = OptionKey("retain-splash")
    public static let showSplash = OptionKey("show-splash")
    public static let sysinit = OptionKey("sysinit")
    public static let update = OptionKey("update")
    public static let wait = OptionKey("wait")
}
