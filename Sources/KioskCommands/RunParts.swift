import KioskBoards
import KioskSeams
import KioskHUD
import KioskRun
import KioskSession
import KioskSys

/// What run adds to a display run, and the two other ways it runs (a daemon's HUD, none).
final class RunParts: ShowExtras {
    let command: CommandTask.Options
    let taskOptions: LongTask.Options
    let content: HUDContent
    var startHidden: Bool { false }
    var quitsOnSignals: Bool { false }
    private(set) var started = false
    private var commandTask: CommandTask?
    /// The loop a display run of the command runs on, with its kernel (the command's child
    /// process: its pipes, pidfd and SIGCHLD).
    var screenLoop: ScreenLoop?

    init(command: CommandTask.Options, task: LongTask.Options, content: HUDContent) {
        self.command = command; self.taskOptions = task; self.content = content
    }

    /// Starts the command on `hud`; `end(code)` once it has ended and the notice was shown.
    private func start(hud: TaskHUD, loop: ScreenLoop, options: LongTask.Options? = nil, end: @escaping (Int32) -> Void) {
        // Our stdout or stderr may be a pipe whose reader goes away (the command's output then
        // goes nowhere, and the command still runs to its end, or its Cancel).
        loop.kernel.ignoreBrokenPipes()
        let task = LongTask(hud: hud, loop: loop.loop, options: options ?? taskOptions)
        task.log = showLog
        let c = CommandTask(command, task: task, loop: loop.loop, kernel: loop.kernel)
        c.log = { showLog("run: \($0)") }
        c.onDone = end
        for s in ShowCommand.quitSignals { loop.loop.onSignal(s) { [weak c] in c?.forward(s) } }
        started = true
        commandTask = c
        c.start()
    }

    // MARK: On run's own display (ShowExtras)

    func attach(session: HUDSession, loop: EventLoop, kernel: Kernel, screen: Screen, settings: HUDSettings) throws {
        if let hud = continuing {
            // The command runs already (on a daemon that stopped answering): it goes on here.
            try hud.switchTo(session)
            onEnd = { session.end(.exit($0)) }
            showLog("run: going on on its own display")
            attachedOwn = true
            return
        }
        guard let loop = screenLoop else { throw ShowError("run: no loop for its command") }
        try session.update(content: { $0 = content })
        start(hud: session, loop: loop) { code in session.end(.exit(code)) }
    }

    func inputChanged(_ name: String, added: Bool) {}
    func detach() -> Bool? { nil }
    var runsWithoutDisplay: Bool { true }

    // MARK: On a daemon's HUD

    /// The command's HUD while it moves from a daemon to run's own display.
    private var continuing: SwitchingTaskHUD?
    private var attachedOwn = false
    private var onEnd: (Int32) -> Void = { _ in }

    /// Runs the command on the daemon's HUD. A daemon that stops answering mid-command is given
    /// up: the command goes on on run's own display through `ownDisplay` (nil, or no display
    /// there: without a HUD).
    func runThroughDaemon(_ daemonHUD: DaemonTaskHUD, loop: ScreenLoop, given: (String) -> Bool, ownDisplay: ((RunParts) throws -> Void)?) throws {
        let before = daemonHUD.content
        var c = before
        c.mode = content.mode; c.progress = 0
        if given("label") { c.label = content.label }
        if given("details") { c.details = content.details }
        try daemonHUD.update(c, animatedProgress: false)
        try daemonHUD.beginActivity()
        let hud = SwitchingTaskHUD(daemonHUD)
        var code: Int32 = 1
        var switching = false
        daemonHUD.log = { showLog("run: \($0)") }
        onEnd = { c in
            code = c
            // The daemon's HUD as it was, and its activity count back; then run ends (at once
            // if the daemon is gone).
            try? daemonHUD.update(before, animatedProgress: false)
            try? daemonHUD.endActivity()
            daemonHUD.settle { loop.loop.stop() }
        }
        daemonHUD.onLost = { [weak self] _ in
            guard let self, let task = self.commandTask?.task else { return }
            // Its end notice: cut short, run ends with its command.
            if case .ended = task.state { task.hudLost(); return }
            if ownDisplay != nil { switching = true; loop.loop.stop() } else { showLog("run: the command goes on without a HUD") }
        }
        start(hud: hud, loop: loop) { [weak self] c in self?.onEnd(c) }
        try loop.run()
        guard switching, let ownDisplay else {
            if code != 0 { throw ExitCode(code) }
            return
        }
        // The daemon gets its HUD back for when it answers again (left in its socket); the
        // command's HUD waits, as it was, for run's own display.
        let shown = hud.content
        try hud.switchTo(NoHUD(shown))
        try? daemonHUD.update(before, animatedProgress: false)
        try? daemonHUD.endActivity()
        daemonHUD.settle {}
        continuing = hud
        do {
            try ownDisplay(self)
        } catch where !attachedOwn {
            showLog("run: no display of its own (\(error)); the command goes on without a HUD")
            onEnd = { c in code = c; loop.loop.stop() }
            if case .ended = commandTask?.task.state { commandTask?.task.hudLost() }
            try loop.run()
            if code != 0 { throw ExitCode(code) }
        }
    }

    // MARK: With no HUD

    func runAlone() throws {
        let loop = ScreenLoop.system()
        var code: Int32 = 1
        var options = taskOptions
        options.noticeDuration = 0   // nobody to show it to
        start(hud: NoHUD(content), loop: loop, options: options) { code = $0; loop.loop.stop() }
        try loop.run()
        if code != 0 { throw ExitCode(code) }
    }
}

/// A HUD that shows nothing (run without a display): the task's states still happen.
final class NoHUD: TaskHUD {
    var content: HUDContent
    init(_ c: HUDContent) { content = c }
    func update(_ c: HUDContent, animatedProgress: Bool) throws { content = c }
    func onButton(_ handler: @escaping () -> Void) {}
    /// Nobody sees it: an end notice is not waited for.
    var isOnScreen: Bool { false }
}
