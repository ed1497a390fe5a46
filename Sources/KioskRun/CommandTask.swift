import Glibc
import KioskBoards
import KioskSeams
import KioskSession
import KioskSys

/// A command run as a long task on a HUD: what `kiosk-hud run` does once the HUD is there.
/// The command starts (`ChildProcess`), its output moves the progress (`OutputProgress`), the
/// HUD's Cancel ends it (SIGTERM to everything it started, SIGKILL after `killAfter`), and when
/// it has ended — and whatever it left running has been ended too — the HUD shows how and
/// `onDone` hears the exit code: 0, the command's own status (128 + n for a signal), or 130
/// for a cancel.
public final class CommandTask {
    public struct Options {
        public var arguments: [String]
        /// Give the command our stdin (default: /dev/null, so it cannot wait for a keyboard).
        public var stdin = false
        /// Seconds from SIGTERM to SIGKILL.
        public var killAfter = 5.0
        /// "Cancelling…" stays at least this long, so it can be read even when the command stops at once.
        public var minCancellingTime = 1.0
        /// Every descendant of this process is the command's (the `run` command: it becomes the
        /// child subreaper). Off for a program that has children of its own.
        public var ownsEveryChild = false
        public var progress = OutputProgress()
        /// The end notices' words: a failure, a command that cannot be run (English by default).
        public var words = Words()
        public init(arguments: [String]) { self.arguments = arguments }
    }

    public let task: LongTask
    public let options: Options
    let loop: any EventLoop
    /// The system calls behind `loop` (the command's child process).
    let kernel: any Kernel
    public private(set) var child: ChildProcess?
    /// The exit code `run` ends with, once the end notice has been shown.
    public var onDone: ((Int32) -> Void)?
    /// Log lines (stderr for `run`).
    public var log: (String) -> Void = { _ in }
    private var parser: OutputProgress
    private var killTimer: LoopToken?
    private var cancelledAt: Seconds?
    private var quitSignal: Int32?
    private var code: Int32 = 0
    /// When the cancel's SIGTERM went out (for the log and the measurements).
    public private(set) var termSentAt: Seconds?

    public convenience init(_ options: Options, task: LongTask, loop: PollEventLoop) {
        self.init(options, task: task, loop: loop, kernel: loop.kernel)
    }

    /// The command's task on any event loop, its system calls through `kernel` (the one behind
    /// `loop`); else as the `PollEventLoop` initialiser.
    public init(_ options: Options, task: LongTask, loop: any EventLoop, kernel: any Kernel) {
        self.options = options; self.task = task; self.loop = loop; self.kernel = kernel
        parser = options.progress
        task.onCancel = { [weak self] in self?.cancel() }
        task.onDone = { [weak self] _ in guard let self else { return }; self.onDone?(self.code) }
    }

    /// Starts the command. One that cannot be started ends the task at once, as a shell would
    /// say it: 127 when it was not found, 126 when it could not be run (the HUD says why).
    public func start() {
        do {
            child = try ChildProcess(
                options.arguments, stdin: options.stdin, ownsEveryChild: options.ownsEveryChild, loop: loop, kernel: kernel,
                onOutput: { [weak self] _, bytes in self?.output(bytes) },
                onExit: { [weak self] e in self?.commandEnded(e) })
        } catch {
            let why = String(cString: strerror(error.errno))
            log("cannot run \(options.arguments[0]): \(why)")
            code = error.errno == ENOENT ? 127 : 126
            task.finished(.failed(options.words.text(.cannotRun, [.command: options.arguments[0], .reason: why])))
            return
        }
        log("started \(options.arguments[0]) (pid \(child!.pid))")
    }

    /// A signal that reached us (SIGINT, SIGTERM, SIGHUP): passed to the command's group; a
    /// second one of the same kind, or `killAfter` later, SIGKILL. The end then shows no notice.
    public func forward(_ signal: Int32) {
        guard let child, child.exit == nil else { return }
        if quitSignal == signal { child.signalAll(SIGKILL); return }
        quitSignal = signal
        child.signalGroup(signal)
        armKill()
    }

    private func output(_ bytes: ArraySlice<UInt8>) {
        for e in parser.feed(bytes) { apply(e) }
    }

    private func apply(_ e: OutputProgress.Event) {
        switch e {
        case let .progress(p): task.setProgress(p)
        case let .details(text): task.setDetails(text)
        }
    }

    private func cancel() {
        guard let child, child.exit == nil, cancelledAt == nil else { return }
        cancelledAt = loop.now
        child.signalAll(SIGTERM)
        termSentAt = loop.now
        log("cancel: SIGTERM sent to \(options.arguments[0])")
        armKill()
    }

    private func armKill() {
        guard killTimer == nil else { return }
        killTimer = loop.schedule(after: options.killAfter) { [weak self] in
            guard let self, let child = self.child else { return }
            self.log("still running \(fmt(self.options.killAfter)) s after SIGTERM: SIGKILL")
            child.signalAll(SIGKILL)
        }
    }

    private func commandEnded(_ e: ChildExit) {
        for ev in parser.flush() { apply(ev) }
        if let t = killTimer { loop.cancel(t) }
        killTimer = nil
        log("\(options.arguments[0]) ended: \(exitDescription(e))")
        endLeftovers(since: loop.now) { [weak self] in self?.finish(e) }
    }

    /// Whatever the command left running (a daemon it started, a setsid'd grandchild) gets
    /// SIGTERM, SIGKILL `killAfter` later, and is reaped.
    private func endLeftovers(since start: Seconds, first: Bool = true, then done: @escaping () -> Void) {
        guard let child else { return done() }
        guard child.anyAlive else { return done() }
        if first { log("ending what the command left running"); child.signalAll(SIGTERM) }
        if loop.now - start >= options.killAfter { child.signalAll(SIGKILL) }
        loop.schedule(after: 0.02) { [weak self] in self?.endLeftovers(since: start, first: false, then: done) }
    }

    private func finish(_ e: ChildExit) {
        child?.close()
        let end: TaskEnd
        if let at = cancelledAt {
            code = 130
            let wait = max(0, options.minCancellingTime - (loop.now - at))
            if wait > 0 { loop.schedule(after: wait) { [weak self] in self?.task.finished(.cancelled) }; return }
            end = .cancelled
        } else if e == .exited(0) {
            code = 0; end = .success
        } else {
            code = e.shellStatus; end = .failed(failureText(e, options.words))
        }
        // Stopped by a signal to us (systemd stopping the unit, Ctrl+C): no notice to wait for.
        task.finished(end, noticeDuration: quitSignal == nil ? nil : 0)
    }
}

/// "Failed (exit status 3)", "Failed (killed by SIGKILL)" in `words`' language: the HUD's end notice.
public func failureText(_ e: ChildExit, _ words: Words) -> String {
    switch e {
    case let .exited(c): words.text(.failedStatus, [.status: String(c)])
    case let .signalled(s): words.text(.failedSignal, [.signal: signalName(s)])
    }
}

/// "exit status 3", "killed by SIGKILL": as the HUD and the log say how a command ended.
public func exitDescription(_ e: ChildExit) -> String {
    switch e {
    case let .exited(c): "exit status \(c)"
    case let .signalled(s): "killed by \(signalName(s))"
    }
}

/// "SIGTERM", or "signal 40" for one without a usual name.
public func signalName(_ s: Int32) -> String {
    let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT",
                                  SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE",
                                  SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2"]
    return names[s] ?? "signal \(s)"
}

func fmt(_ v: Double) -> String { String((v * 100).rounded() / 100) }
