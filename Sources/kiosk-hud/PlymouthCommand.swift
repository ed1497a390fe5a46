import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSettings
import KioskSys

/// `kiosk-hud plymouth …`: the `plymouth` command's forms over Plymouth's protocol, with its
/// exit codes, so that kiosk-hud can stand in for /usr/bin/plymouth (a link named `plymouth`
/// runs this; docs/plymouth.md) in front of `kiosk-hud daemon --plymouth` — or of plymouthd.
enum PlymouthCommand {
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

    static let spec = CommandSpec(
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
                .flag("debug", help: "Say on stderr what is sent and what came back."),
                .flag("get-splash-plugin-path", help: "Plymouth's plugin directory (kiosk-hud has none: exit 1)."),
                OptionSpec("newroot", value: "string", help: "Tell boot daemon that new root filesystem is mounted."),
                .flag("quit", help: "Tell boot daemon to quit."),
                .flag("ping", help: "Check if boot daemon is running."),
                .flag("has-active-vt", help: "Check if boot daemon has an active vt."),
                .flag("sysinit", help: "Tell boot daemon root filesystem is mounted read-write."),
                .flag("show-splash", help: "Show splash screen."),
                .flag("hide-splash", help: "Hide splash screen."),
                .flag("ask-for-password", help: "Ask user for password."),
                OptionSpec("ignore-keystroke", value: "string", help: "Remove sensitivity to a keystroke."),
                OptionSpec("update", value: "string", help: "Tell boot daemon an update about boot progress."),
                .flag("details", help: "Tell boot daemon there were errors during boot."),
                .flag("wait", help: "Wait for boot daemon to quit."),
                OptionSpec("socket", value: "NAME", rule: .text(100, nonEmpty: true, "an abstract socket name"),
                           help: "The daemon's abstract socket name (kiosk-hud's; plymouth has none). Default: \(PlymouthWire.defaultSocketName)."),
            ]),
            OptionGroup("Command options", [
                .flag("boot-up", help: "change-mode: Starting the system up."),
                .flag("shutdown", help: "change-mode: Shutting the system down."),
                .flag("reboot", help: "change-mode: Rebooting the system."),
                .flag("updates", help: "change-mode: Applying updates."),
                .flag("system-upgrade", help: "change-mode: Upgrading the OS to a new version."),
                .flag("firmware-upgrade", help: "change-mode: Upgrading firmware to a new version."),
                OptionSpec("progress", value: "integer", rule: .integer(0, 100, "a percentage"), help: "system-update: The percentage progress of the updates."),
                OptionSpec("status", value: "string", help: "update: Tell daemon the current boot status."),
                OptionSpec("new-root-dir", value: "string", help: "update-root-fs: Root filesystem is about to change."),
                .flag("read-write", help: "update-root-fs: Root filesystem is no longer read-only."),
                OptionSpec("command", value: "string", help: "ask-for-password, ask-question, watch-keystroke: Command to send the answer to (not supported: the answer is printed)."),
                OptionSpec("prompt", value: "string", help: "ask-for-password, ask-question: Message to display."),
                OptionSpec("number-of-tries", value: "integer", rule: .integer(0, 1000), help: "ask-for-password: Number of times to ask."),
                .flag("dont-pause-progress", help: "ask-for-password, ask-question: Don't pause boot progress bar while asking."),
                OptionSpec("text", value: "string", help: "display-message, hide-message: The message text."),
                OptionSpec("keys", value: "string", help: "watch-keystroke, ignore-keystroke: Keys to become (or stop being) sensitive to."),
                .flag("retain-splash", help: "quit: Don't explicitly hide boot splash on exit."),
            ]),
        ],
        positionals: [PositionalSpec("command", help: "One of the commands above.", optional: true)])

    /// Plymouth's exit codes.
    static let refused: Int32 = 1, disconnected: Int32 = 2

    static func run(_ a: ParsedArguments) throws {
        let debug = a.flag("debug")
        if a.flag("get-splash-plugin-path") {
            writeLine("Error: kiosk-hud has no Plymouth splash plugins", to: 2)
            throw ExitCode(refused)
        }
        var pipeline: [PlymouthRequest]
        var wait = false
        if let name = a.positionals.first {
            guard let command = commands.first(where: { $0.name == name }) else {
                throw UsageError("unknown command '\(shown(name))'", command: ["kiosk-hud", "plymouth"])
            }
            let others = commands.flatMap(\.options).filter { !command.options.contains($0) }
            if let o = others.first(where: a.given) { throw UsageError("--\(o) does not go with \(name)", command: ["kiosk-hud", "plymouth"]) }
            pipeline = try requests(for: name, a)
        } else if let action = try topLevel(a) {
            pipeline = action
        } else if a.flag("wait") {
            pipeline = []
            wait = true
        } else {
            if let o = commands.flatMap(\.options).first(where: a.given) {
                throw UsageError("--\(o) goes with a command (\(commands.filter { $0.options.contains(o) }.map(\.name).joined(separator: ", ")))",
                                 command: ["kiosk-hud", "plymouth"])
            }
            writeText(helpText(root: kioskHUDCommandLine(first: "plymouth"), path: ["kiosk-hud", "plymouth"]), to: 2)
            return   // plymouth without a request: its help, and 0
        }
        let socket = a.string("socket") ?? PlymouthWire.defaultSocketName
        let client: PlymouthClient
        do { client = try PlymouthClient(name: socket) } catch {
            if debug { writeLine("plymouth: \(error)", to: 2) }
            if wait { return }   // nothing to wait for
            throw ExitCode(refused)
        }
        do {
            if wait {
                try client.waitForEnd()
                return
            }
            let replies = try client.send(pipeline)
            if debug {
                writeLine("plymouth: sent \(pipeline.map(\.name).joined(separator: ", ")); replies: \(replies.map { "\($0)" }.joined(separator: ", "))", to: 2)
            }
            // Every reply but the last (a pause before a question) only has to come.
            guard replies.count == pipeline.count, let last = replies.last else { throw PlymouthClient.Failure.disconnected }
            switch last {
            case .ack: return
            case let .answer(bytes):
                if a.given("command") { writeLine("Error: --command is not supported; the answer is not passed on", to: 2); throw ExitCode(refused) }
                writeLine(String(decoding: bytes, as: UTF8.self), to: 1)
            case let .answers(list):
                for b in list { writeLine(String(decoding: b, as: UTF8.self), to: 1) }
            case .nak, .noAnswer:
                throw ExitCode(refused)
            }
        } catch let f as PlymouthClient.Failure {
            switch f {
            case .disconnected:
                writeLine("error: \(f)", to: 2)
                throw ExitCode(disconnected)
            default:
                writeLine("error: \(f)", to: 2)
                throw ExitCode(refused)
            }
        }
    }

    /// The requests of a command.
    static func requests(for name: String, _ a: ParsedArguments) throws -> [PlymouthRequest] {
        func text(_ option: String) throws -> String {
            guard let t = a.string(option) else { throw UsageError("\(name) needs --\(option)", command: ["kiosk-hud", "plymouth"]) }
            return try fits(t, option)
        }
        let pause = !a.flag("dont-pause-progress")
        switch name {
        case "change-mode":
            let given = modes.filter(a.flag)
            guard let m = given.first.flatMap(PlymouthMode.init(rawValue:)) else {
                writeLine("Error no mode specified for 'change-mode' command", to: 2)
                throw ExitCode(refused)
            }
            return [.changeMode(m)]
        case "system-update": return [.systemUpdate(try a.value("progress")?.int ?? 0)]
        case "update": return [.status(try text("status"))]
        case "update-root-fs":
            if let dir = a.string("new-root-dir") { return [.newRoot(try fits(dir, "new-root-dir"))] }
            guard a.flag("read-write") else { throw UsageError("update-root-fs needs --new-root-dir or --read-write", command: ["kiosk-hud", "plymouth"]) }
            return [.systemInitialized]
        case "show-splash": return [.showSplash]
        case "hide-splash": return [.hideSplash]
        case "ask-for-password":
            return (pause ? [.pauseProgress] : []) + [.password(prompt: try a.string("prompt").map { try fits($0, "prompt") })]
        case "ask-question":
            return (pause ? [.pauseProgress] : []) + [.question(prompt: try a.string("prompt").map { try fits($0, "prompt") })]
        case "display-message": return [.showMessage(try text("text"))]
        case "hide-message": return [.hideMessage(try text("text"))]
        case "watch-keystroke": return [.watchKeystroke(keys: try a.string("keys").map { try fits($0, "keys") })]
        case "ignore-keystroke": return [.ignoreKeystroke(keys: try a.string("keys").map { try fits($0, "keys") })]
        case "pause-progress": return [.pauseProgress]
        case "unpause-progress": return [.unpauseProgress]
        case "report-error": return [.reportError]
        case "deactivate": return [.deactivate]
        case "reactivate": return [.reactivate]
        default: return [.quit(retain: a.flag("retain-splash"))]
        }
    }

    /// The top-level option that acts, in plymouth's order of precedence; nil: none.
    static func topLevel(_ a: ParsedArguments) throws -> [PlymouthRequest]? {
        if a.flag("show-splash") { return [.showSplash] }
        if a.flag("hide-splash") { return [.hideSplash] }
        if a.flag("quit") { return [.quit(retain: false)] }
        if a.flag("ping") { return [.ping] }
        if a.flag("has-active-vt") { return [.hasActiveVT] }
        if let s = a.string("update") { return [.status(try fits(s, "update"))] }
        if a.flag("ask-for-password") { return [.pauseProgress, .password(prompt: nil)] }
        if let k = a.string("ignore-keystroke") { return [.ignoreKeystroke(keys: try fits(k, "ignore-keystroke"))] }
        if a.flag("sysinit") { return [.systemInitialized] }
        if let r = a.string("newroot") { return [.newRoot(try fits(r, "newroot"))] }
        if a.flag("details") { return [.reportError] }
        return nil
    }

    /// `text` if the wire can carry it (254 bytes, no NUL).
    static func fits(_ text: String, _ option: String) throws -> String {
        guard text.utf8.count <= PlymouthWire.maxArgument else {
            throw UsageError(optionError(option, text, expected: "text of at most \(PlymouthWire.maxArgument) bytes"), command: ["kiosk-hud", "plymouth"])
        }
        return text
    }
}
