// CommandTask with real child processes on a real poll loop (each on a thread of its own, so
// the loop's signal mask stays there), and a HUD that records what it was asked to show and
// presses its button when told. Here the task does not own every child of the process (the
// test runner has others): the command's end is seen through its pidfd, and what it started
// is found below it. `kiosk-hud run` itself (the subreaper case) is tested in KioskCommandTests.
import Glibc
import KioskSeams
import KioskHUD
import KioskRun
import KioskSession
import KioskSys
import KioskTestSupport
import Testing

final class PressableHUD: TaskHUD {
    var content = HUDContent(mode: .indeterminate, label: "Copying")
    var labels: [String] = []
    var progress: [Double] = []
    var button: (() -> Void)?
    func update(_ c: HUDContent, animatedProgress: Bool) throws {
        if c.label != labels.last { labels.append(c.label) }
        if c.progress != content.progress { progress.append(c.progress) }
        content = c
    }
    func onButton(_ handler: @escaping () -> Void) { button = handler }
}

/// What a run of a command ended with.
struct TaskRun: Sendable {
    var code: Int32
    var labels: [String]
    var progress: [Double]
    var mode: String
    /// Seconds from start to `onDone`, and from the press to `onDone`.
    var seconds: Double
    var afterPress: Double?
}

/// Runs `arguments` as a CommandTask; `presses` are seconds after the start at which the button
/// is pressed, `signal` (at a time) is forwarded as if it had reached us.
func runTask(_ arguments: [String], killAfter: Double = 5, confirm: Bool = false, presses: [Double] = [],
             signal: (Int32, Double)? = nil, configure: @escaping @Sendable (inout CommandTask.Options) -> Void = { _ in }) async -> TaskRun {
    await onOwnThread {
        let loop = PollEventLoop(clock: SystemClock())
        let hud = PressableHUD()
        var taskOptions = LongTask.Options()
        taskOptions.confirmCancel = confirm
        taskOptions.noticeDuration = 0
        let task = LongTask(hud: hud, loop: loop, options: taskOptions)
        var options = CommandTask.Options(arguments: arguments)
        options.killAfter = killAfter
        configure(&options)
        let c = CommandTask(options, task: task, loop: loop)
        var code: Int32 = -1
        let start = loop.now
        var pressedAt: Double?
        c.onDone = { code = $0; loop.stop() }
        c.start()
        for t in presses { loop.schedule(after: t) { pressedAt = loop.now; hud.button?() } }
        if let (s, t) = signal { loop.schedule(after: t) { c.forward(s) } }
        loop.schedule(after: 60) { loop.stop() }   // a test that hangs fails instead
        try? loop.run()
        let end = loop.now
        return TaskRun(code: code, labels: hud.labels, progress: hud.progress, mode: hud.content.mode.rawValue,
                       seconds: end - start, afterPress: pressedAt.map { end - $0 })
    }
}

/// The processes whose command line contains `marker` (none must be left after a test).
func processes(marked marker: String) -> [Int32] {
    var found: [Int32] = []
    for name in listDirectory("/proc") ?? [] {
        guard let pid = Int32(name), pid != getpid(), let bytes = Proc.readBytes("/proc/\(name)/cmdline"), !bytes.isEmpty else { continue }
        let text = String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        // A zombie has an empty cmdline; one that is still here is a leftover.
        if text.contains(marker) { found.append(pid) }
    }
    return found
}

func marker() -> String { "kiosk-run-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

@Suite struct CommandTaskTests {
    @Test func successShowsTheProgressThenDone() async {
        let r = await runTask(["sh", "-c", "echo 25%; sleep 0.05; echo 'MSG half'; echo PROGRESS 50; sleep 0.05; printf 'step 3/4\\r'; sleep 0.05; echo 100%"])
        #expect(r.code == 0)
        #expect(r.progress == [0.25, 0.5, 0.75, 1])
        #expect(r.labels.last == "Done" && r.mode == "success")
    }

    @Test func aFailureShowsItsStatusAndEndsWithIt() async {
        let r = await runTask(["sh", "-c", "exit 3"])
        #expect(r.code == 3 && r.labels.last == "Failed (exit status 3)" && r.mode == "error")
        let k = await runTask(["sh", "-c", "kill -KILL $$"])
        #expect(k.code == 137 && k.labels.last == "Failed (killed by SIGKILL)")
    }

    @Test func aCommandThatCannotBeRun() async {
        let r = await runTask(["/nonexistent/kiosk-command"])
        #expect(r.code == 127 && r.labels.last == "Cannot run /nonexistent/kiosk-command: No such file or directory")
        let dir = Proc.makeTempDir("kiosk-run-noexec")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        _ = Proc.run(["sh", "-c", "echo 'echo hi' > \(dir)/script; chmod 644 \(dir)/script"])
        let n = await runTask([dir + "/script"])
        #expect(n.code == 126 && n.labels.last?.hasSuffix("Permission denied") == true, "\(n.labels)")
    }

    /// A command that ignores SIGTERM: SIGKILL after the kill timeout, "Cancelled", 130.
    @Test func cancelKillsACommandThatIgnoresSIGTERM() async {
        let m = marker()
        let r = await runTask(["sh", "-c", "trap '' TERM; sleep 600 & wait; : \(m)"], killAfter: 0.5, presses: [0.3])
        #expect(r.code == 130)
        #expect(r.labels.suffix(2) == ["Cancelling…", "Cancelled"], "\(r.labels)")
        // The kill timeout, then at least 1 s of "Cancelling…" from the press.
        #expect((r.afterPress ?? 0) >= 0.99 && (r.afterPress ?? 99) < 2, "\(r.afterPress ?? -1)")
        #expect(processes(marked: m).isEmpty)
    }

    /// A grandchild in a session of its own (setsid) that ignores SIGTERM is ended too.
    @Test func cancelEndsASetsidGrandchild() async {
        let m = marker()
        let r = await runTask(["sh", "-c", "setsid sh -c \"trap '' TERM; sleep 600; : \(m)\" & sleep 600; : \(m)"], killAfter: 0.5, presses: [0.3])
        #expect(r.code == 130)
        // The grandchild is killed with the session; its exit reaches init (its reaper) a moment
        // later: looked at until it is gone (at most 5 s), not after a fixed sleep.
        var left = processes(marked: m)
        for _ in 0..<500 where !left.isEmpty { usleep(10_000); left = processes(marked: m) }
        #expect(left.isEmpty)
    }

    @Test func aConfirmedCancelIgnoresASingleTap() async {
        let m = marker()
        let r = await runTask(["sh", "-c", "sleep 4; : \(m)"], confirm: true, presses: [0.2])
        #expect(r.code == 0 && r.labels.contains("Tap again to cancel"))
        #expect(r.labels.suffix(2) == ["Copying", "Done"], "\(r.labels)")   // the question went away after 3 s
        let twice = await runTask(["sh", "-c", "sleep 600; : \(m)"], confirm: true, presses: [0.2, 0.5])
        #expect(twice.code == 130)
        #expect(processes(marked: m).isEmpty)
    }

    /// SIGTERM to us is passed to the command's group; the command says how it ended.
    @Test func aSignalToUsIsPassedOn() async {
        let r = await runTask(["sh", "-c", "trap 'exit 7' TERM; while :; do sleep 0.05; done"], signal: (SIGTERM, 0.3))
        #expect(r.code == 7 && r.labels.last == "Failed (exit status 7)")
        let twice = await runTask(["sh", "-c", "trap '' INT; while :; do sleep 0.05; done"], signal: (SIGINT, 0.3))
        // Ignored: SIGKILL after the kill timeout.
        #expect(twice.code == 137)
    }
}
