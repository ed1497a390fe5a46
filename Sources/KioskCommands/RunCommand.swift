import Glibc
import KioskBoards
import KioskCLI
import KioskDaemon
import KioskSeams
import KioskHUD
import KioskRun
import KioskSession
import KioskSettings
import KioskSys

/// `kiosk-hud run -- CMD ARGS…`: a long command with a progress HUD and a Cancel that really
/// stops it. The HUD is a running daemon's when its socket answers, else run's own display (as
/// `show`), else none (the command still runs: the HUD never stands in the way of the work).
public enum RunCommand {
    /// `kiosk-hud run`'s options, help and manual page.
    public static let spec = CommandSpec(
        "run", abstract: "Run a command with a progress HUD and a Cancel button that stops it.",
        discussion: """
        The HUD is the running daemon's when its socket answers (--socket; the daemon's style and \
        board then apply, and its content is put back afterwards), else run owns the display as show \
        does (the display options below), else — no display — the command runs without a HUD (one log \
        line). --hud chooses instead.

        On a daemon's HUD nothing waits for the daemon: one that does not answer within \
        --daemon-timeout seconds is given up (one log line): with --hud auto the command goes on on \
        run's own display (else, or with no display, without a HUD), the output keeps passing through \
        and run ends with the command (signals still cancel it).

        The command runs in its own process group with stdin from /dev/null (--stdin: ours); run is \
        its child subreaper, so what it starts (even with setsid or a daemon's double fork) is ended \
        with it, and nothing is left behind. Its stdout and stderr are passed through unchanged and \
        read for progress, line by line ("\\r" ends a line too): PROGRESS n (0-100) and MSG text \
        (psplash's words; MSG sets the details), --progress-regex's capture, curl's meter, dd's \
        "N bytes … copied" against --total-bytes, else the last n% (rsync --info=progress2, apt, \
        wget) or n/m on the line. With no progress seen the HUD stays indeterminate; the first turns \
        it into --mode (bar, annular or determinate; default bar). Progress never goes back unless \
        --allow-backwards.

        The button (--cancel-title, default Cancel; --no-cancel: none) sends SIGTERM to everything \
        the command started, shows "Cancelling…", SIGKILL after --kill-after seconds, then \
        "Cancelled". --confirm-cancel wants a second tap within 3 s. SIGINT, SIGTERM and SIGHUP \
        sent to run are passed to the command's group (a second one of the same: SIGKILL). These \
        texts, the button's and the end notices are in the board profile's [words] language \
        (--language; auto: the system's locale), or the profile's own [words] texts.

        Exit codes: the command's own (0 after the success notice; 128+n when a signal ended it), \
        130 cancelled from the HUD, 127 the command was not found, 126 it could not be run, 1 \
        another error, 64 bad options.
        """,
        groups: ShowCommand.displayGroups.map { g in
            var g = g
            // Parsed (to say why they do not apply) but not shown: the task owns the button and the end.
            for i in g.options.indices where refused.contains(g.options[i].name) { g.options[i].hidden = true }
            return g
        } + [OptionGroup("Run", [
            OptionSpec(.hud, value: "where", rule: .choice(RunHUD.allCases.map(\.rawValue)),
                       help: "Where the HUD is: auto (the daemon if it answers, else the display, else none), daemon, display or none."),
            OptionSpec(.socket, value: "PATH", rule: .path, help: "The daemon's control socket. Default: \(ControlSocket.defaultPath)."),
            OptionSpec(.daemonTimeout, rule: .number(0.1, 3600, "seconds"),
                       help: "Seconds the daemon may take to answer a request before run gives it up (default: 2)."),
            .flag(.stdin, help: "Give the command our stdin (default: /dev/null)."),
            OptionSpec(.progressRegex, value: "ERE", rule: .text(1024, nonEmpty: true, "a regular expression"),
                       help: "A POSIX extended regular expression whose first capture is a percentage or n/m, tried on each output line before the known formats."),
            OptionSpec(.totalBytes, value: "N", rule: .number(1, 1e18, "a byte count"), help: "The total size for dd's \"N bytes copied\" lines (dd status=progress)."),
            .flag(.detailsFromOutput, help: "Show each output line that is not progress as the details."),
            .flag(.allowBackwards, help: "Let the progress go down when the output says so."),
            OptionSpec(.cancelTitle, value: "TEXT", rule: .text(256, nonEmpty: true), help: "The Cancel button's title (default: [words] cancel, Cancel in English)."),
            .flag(.noCancel, help: "No Cancel button."),
            .flag(.confirmCancel, help: "A first tap only asks \"Tap again to cancel\"; a second within 3 s cancels."),
            OptionSpec(.killAfter, rule: .number(0, 3600, "seconds"), help: "Seconds from SIGTERM to SIGKILL (default: 5)."),
            OptionSpec(.successText, value: "TEXT", rule: .text(256, nonEmpty: true), help: "The text shown when the command succeeds (default: [words] done, Done in English)."),
            OptionSpec(.noticeDuration, rule: .number(0, 60, "seconds"),
                       help: "How long the end (success, failure) stays (default: SVProgressHUD's time for its text, at least 5 s; Cancelled 1.5 s)."),
        ]), OptionGroup("Words", SettingOptions.options(group: SettingGroup.words))],
        positionals: [PositionalSpec("command", help: "The command and its arguments (after --).", repeated: true)])

    /// show's options that run has no use for: the task owns the button and decides the end.
    /// In the order they are checked (the first given is the one the error names).
    static let refused = ["duration", "on-button", "button", "until-window"]

    /// Runs the command with its HUD until it ends (see the spec's exit codes).
    public static func run(_ a: ParsedArguments) throws {
        for o in refused where a.given(o) {
            throw UsageError("--\(o) does not go with run" + (o == "button" ? " (--cancel-title names the button)" : ""))
        }
        var command = CommandTask.Options(arguments: a.positionals)
        command.stdin = a.flag(.stdin)
        command.killAfter = try a.double(.killAfter) ?? 5
        command.ownsEveryChild = true
        command.progress.totalBytes = try a.double(.totalBytes)
        command.progress.detailsFromOutput = a.flag(.detailsFromOutput)
        if let pattern = a.string(.progressRegex) {
            let re: PosixRegex
            do { re = try PosixRegex(pattern) } catch { throw UsageError("--progress-regex \(shown(pattern)): \(error.detail ?? "not a valid regular expression")") }
            command.progress.pattern = { re.firstCapture(in: $0) }
        }
        let settings = try SettingOptions.resolve(a, log: false)
        let words = settings.words
        command.words = words
        var task = LongTask.Options()
        task.cancelTitle = a.flag(.noCancel) ? nil : a.string(.cancelTitle) ?? words.text(.cancel)
        task.confirmCancel = a.flag(.confirmCancel)
        task.allowBackwards = a.flag(.allowBackwards)
        task.successText = a.string(.successText) ?? words.text(.done)
        task.confirmText = words.text(.confirmCancel)
        task.cancellingText = words.text(.cancelling)
        task.cancelledText = words.text(.cancelled)
        task.noticeDuration = try a.double(.noticeDuration)
        var content = settings.content
        if content.mode.showsProgress { task.progressMode = content.mode } else { task.progressMode = .bar }
        if content.mode != .text { content.mode = .indeterminate }
        let parts = RunParts(command: command, task: task, content: content)

        let hud = a.string(.hud).flatMap(RunHUD.init) ?? .auto
        if hud == .auto || hud == .daemon {
            let path = a.string(.socket) ?? ControlSocket.defaultPath
            let loop = ScreenLoop.system()
            do {
                let daemonHUD = try DaemonTaskHUD(path: path, loop: loop.loop, replyTimeout: try a.double(.daemonTimeout) ?? DaemonTaskHUD.defaultReplyTimeout)
                // --hud auto: a daemon that stops answering mid-command leaves run on its own display.
                let own: ((RunParts) throws -> Void)? = hud == .auto ? { try ShowCommand(a, extras: $0, loop: loop).run() } : nil
                parts.screenLoop = loop
                return try parts.runThroughDaemon(daemonHUD, loop: loop, given: { a.given($0) }, ownDisplay: own)
            } catch let e as DaemonClient.Failure {
                if hud == .daemon { throw ShowError("no daemon on \(path): \(e)") }
            }
        }
        if hud == .none { return try parts.runAlone() }
        do {
            let loop = ScreenLoop.system()
            parts.screenLoop = loop
            try ShowCommand(a, extras: parts, loop: loop).run()
        } catch let e as ScreenUnavailable where hud == .auto && !parts.started {
            showLog("\(e.description); running the command without a HUD")
            try parts.runAlone()
        }
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let allowBackwards = OptionKey("allow-backwards")
    public static let cancelTitle = OptionKey("cancel-title")
    public static let confirmCancel = OptionKey("confirm-cancel")
    public static let daemonTimeout = OptionKey("daemon-timeout")
    public static let detailsFromOutput = OptionKey("details-from-output")
    public static let hud = OptionKey("hud")
    public static let killAfter = OptionKey("kill-after")
    public static let noCancel = OptionKey("no-cancel")
    public static let noticeDuration = OptionKey("notice-duration")
    public static let progressRegex = OptionKey("progress-regex")
    public static let stdin = OptionKey("stdin")
    public static let successText = OptionKey("success-text")
    public static let totalBytes = OptionKey("total-bytes")
}

/// `run --hud`: where the command's HUD is.
enum RunHUD: String, CaseIterable {
    /// The daemon if it answers, else the display, else none.
    case auto
    case daemon, display, none
}
