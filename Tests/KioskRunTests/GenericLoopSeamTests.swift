import Glibc
import KioskSeams
import KioskFakeKernel
import KioskRun
import KioskSession
import KioskSys
import KioskTestSupport
import Testing

/// `ChildProcess` and `CommandTask` on a loop given only as `any EventLoop`: their system calls
/// go through the kernel they are given, not through the loop's own (a loop on another fake
/// kernel here, so the two can be told apart).
@Suite struct GenericLoopSeamTests {
    @Test func childProcessOnAnyEventLoopUsesTheGivenKernel() throws {
        let loopKernel = FakeKernel(), given = FakeKernel()
        let poll = PollEventLoop(kernel: loopKernel, clock: SystemClock())
        let loop: any EventLoop = poll
        var output: [UInt8] = [], ended: ChildExit?
        // Its output goes to our stderr (target 2), which the test run does not read.
        let child = try ChildProcess(["sh", "-c", "echo generic >&2"], stdin: false, loop: loop, kernel: given,
                                     onOutput: { _, bytes in output += bytes }, onExit: { ended = $0 })
        let end = monotonicSeconds() + 10
        while ended == nil && monotonicSeconds() < end { try poll.runOnce(timeout: 0.05) }
        #expect(ended == .exited(0) && child.exit == .exited(0))
        #expect(String(decoding: output, as: UTF8.self) == "generic\n")
        #expect(given.count("pipe") == 2 && given.count("spawn sh") == 1 && given.count("pidfd_open") == 1, "\(given.calls)")
        #expect(given.count("write") >= 1)
        #expect(loopKernel.count("pipe") == 0 && loopKernel.count("spawn sh") == 0 && loopKernel.count("write") == 0,
                "\(loopKernel.calls.filter { $0 != "poll" })")
    }

    @Test func commandTaskOnAnyEventLoopUsesTheGivenKernel() async {
        let seen = await onOwnThread { () -> [String: Int] in
            let loopKernel = FakeKernel(), given = FakeKernel()
            let poll = PollEventLoop(kernel: loopKernel, clock: SystemClock())
            let loop: any EventLoop = poll
            var taskOptions = LongTask.Options()
            taskOptions.noticeDuration = 0
            let task = LongTask(hud: PressableHUD(), loop: loop, options: taskOptions)
            let c = CommandTask(CommandTask.Options(arguments: ["sh", "-c", "exit 3"]), task: task, loop: loop, kernel: given)
            var code: Int32 = -1
            c.onDone = { code = $0; loop.stop() }
            c.start()
            loop.schedule(after: 60) { loop.stop() }   // a test that hangs fails instead
            try? poll.run()
            return ["code": Int(code), "given spawn": given.count("spawn sh"), "given pipe": given.count("pipe"),
                    "loop spawn": loopKernel.count("spawn sh"), "loop pipe": loopKernel.count("pipe")]
        }
        #expect(seen == ["code": 3, "given spawn": 1, "given pipe": 2, "loop spawn": 0, "loop pipe": 0])
    }
}
