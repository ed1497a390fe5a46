import KioskBoards
import KioskDevices
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

    init(command: CommandTask.Options, task: LongTask.Options, content: HUDContent) {
        self.command = command; self.taskOptions = task; self.content = content
    }

    /// Starts the command on `hud`; `end(code)` once it has ended and the notice was shown.
    private func start(hud: TaskHUD, loop: PollEventLoop, options: LongTask.Options? = nil, end: @escaping (Int32) -> Void) {
        // Our stdout or stderr may be a pipe whose reader goes away (the command's output then
        // goes nowhere, and the command still runs to its end, or its Cancel).
        ignoreBrokenPipes()
        let task = LongTask(hud: hud, loop: loop, options: options ?? taskOptions)
        task.log = showLog
        let c = CommandTask(command, task: task, loop: loop)
        c.log = { showLog("run: \($0)") }
        c.onDone = end
        for s in ShowCommand.quitSignals { loop.onSignal(s) { [weak c] in c?.forward(s) } }
        started = true
        commandTask = c
        c.start()
    }

    // MARK: On run's own display (ShowExtras)

    func attach(session: HUDSession, loop: PollEventLoop, screen: Screen, settings: HUDSettings) throws {
        try session.update(content: { $0 = content })
        start(hud: session, loop: loop) { code in session.end(.exit(code)) }
    }

    func inputChanged(_ name: String, added: Bool) {}
    func detach() -> Bool? { nil }
    var runsWithoutDisplay: Bool { true }

    // MARK: On a daemon's HUD

    func runThroughDaemon(_ hud: DaemonTaskHUD, loop: PollEventLoop, given: (String) -> Bool) throws {
        let before = hud.content
        var c = before
        c.mode = content.mode; c.progress = 0
        if given("label") { c.label = content.label }
        if given("details") { c.details = content.details }
        try hud.update(c, animatedProgress: false)
        try hud.beginActivity()
        var code: Int32 = 1
        hud.log = { showLog("run: \($0)") }
        // A daemon that stops answering ends the notice shown on it: run ends with its command.
        hud.onLost = { [weak self] _ in self?.commandTask?.task.hudLost() }
        start(hud: hud, loop: loop) { c in
            code = c
            // The daemon's HUD as it was, and its activity count back; then run ends (at once
            // if the daemon is gone).
            try? hud.update(before, animatedProgress: false)
            try? hud.endActivity()
            hud.settle { loop.stop() }
        }
        try loop.run()
        if code != 0 { throw ExitCode(code) }
    }

    // MARK: With no HUD

    func runAlone() throws {
        let loop = PollEventLoop(clock: SystemClock())
        var code: Int32 = 1
        var options = taskOptions
        options.noticeDuration = 0   // nobody to show it to
        start(hud: NoHUD(content), loop: loop, options: options) { code = $0; loop.stop() }
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
}
