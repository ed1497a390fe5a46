import Glibc
import KioskFakeKernel
import KioskRun
import KioskSys
import Testing

/// The command's pipes, its start and its output pass through the loop's kernel (the seam), as
/// a fake kernel records them.
@Suite struct ChildProcessSeamTests {
    @Test func pipesSpawnAndOutputGoThroughTheKernel() throws {
        let kernel = FakeKernel()
        let loop = PollEventLoop(kernel: kernel, clock: SystemClock())
        var output: [UInt8] = [], ended: ChildExit?
        // Its output goes to our stderr (target 2), which the test run does not read.
        let child = try ChildProcess(["sh", "-c", "echo seam >&2"], stdin: false, loop: loop,
                                     onOutput: { _, bytes in output += bytes }, onExit: { ended = $0 })
        let end = monotonicSeconds() + 10
        while ended == nil && monotonicSeconds() < end { try loop.runOnce(timeout: 0.05) }
        #expect(ended != nil && child.exit != nil)
        #expect(String(decoding: output, as: UTF8.self) == "seam\n")
        #expect(kernel.count("pipe") == 2 && kernel.count("spawn sh") == 1 && kernel.count("fcntl O_NONBLOCK") == 2, "\(kernel.calls.filter { $0 != "poll" })")
        #expect(kernel.count("write") >= 1, "the output passed through is written by the kernel seam")
        // The end is watched on a pidfd made by the seam too (and closed through it).
        #expect(kernel.count("pidfd_open") == 1)
    }
}
