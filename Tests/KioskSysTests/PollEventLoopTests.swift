// The event loop: timers in order, descriptors, deferred work, wakers from other threads,
// signals through the one signalfd, a closed descriptor, and no wake-up when nothing happens.
import Glibc
import KioskSeams
import KioskFakeKernel
import KioskSys
import Testing

/// A pipe whose read end the loop watches.
final class Pipe {
    let r: Int32, w: Int32
    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        r = fds[0]; w = fds[1]
        _ = fcntl(r, F_SETFL, O_NONBLOCK)
    }
    func write(_ s: String) { _ = Array(s.utf8).withUnsafeBytes { Glibc.write(w, $0.baseAddress, $0.count) } }
    func drain() { var b = [UInt8](repeating: 0, count: 64); while Glibc.read(r, &b, 64) > 0 {} }
    deinit { Glibc.close(r); Glibc.close(w) }
}

@Suite struct PollEventLoopTests {
    @Test func timersRunInTimeOrderAndCancelledOnesNever() throws {
        let loop = PollEventLoop(clock: SystemClock())
        var ran: [String] = []
        let t0 = loop.now
        loop.schedule(at: t0 + 0.03) { ran.append("c") }
        var late: LoopToken!
        loop.schedule(at: t0 + 0.01) { ran.append("a"); loop.cancel(late) }
        late = loop.schedule(at: t0 + 0.02) { ran.append("never") }
        loop.schedule(after: -1) { ran.append("now") }
        loop.schedule(after: .nan) { ran.append("nan: now") }
        loop.schedule(at: t0 + 0.04) { loop.stop() }
        try loop.run()
        #expect(ran == ["now", "nan: now", "a", "c"])
        #expect(loop.now - t0 >= 0.04)
    }

    @Test func watchedDescriptorsAndDeferredWork() throws {
        let loop = PollEventLoop(clock: SystemClock())
        let p = Pipe()
        var order: [String] = []
        var token: LoopToken!
        token = loop.watch(p.r, .readable) { events in
            #expect(events.contains(.readable))
            p.drain()
            order.append("read")
            loop.execute { order.append("deferred") }
            if order.filter({ $0 == "read" }).count == 2 { loop.cancel(token) }
        }
        p.write("x")
        try loop.runOnce(timeout: 1)
        #expect(order == ["read", "deferred"])
        p.write("y")
        try loop.runOnce(timeout: 1)
        p.write("z")   // no longer watched
        try loop.runOnce(timeout: 0.02)
        #expect(order == ["read", "deferred", "read", "deferred"])
        #expect(!loop.isRegistered(token))
    }

    /// A descriptor closed while still watched (its owner forgot to cancel) is reported once as
    /// an error and dropped, instead of waking every turn.
    @Test func aClosedDescriptorIsReportedOnceAndDropped() throws {
        let loop = PollEventLoop(clock: SystemClock())
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        var seen: [LoopEvents] = []
        let t = loop.watch(fds[0], .readable) { seen.append($0) }
        Glibc.close(fds[0]); Glibc.close(fds[1])
        try loop.runOnce(timeout: 0.1)
        try loop.runOnce(timeout: 0.02)
        #expect(seen.count == 1 && seen[0].contains(.error))
        #expect(!loop.isRegistered(t))
    }

    /// Another thread wakes the loop through a waker: the handler runs on the loop's thread.
    @Test func wakersBringWorkFromOtherThreads() throws {
        let loop = PollEventLoop(clock: SystemClock())
        let me = pthread_self()
        var calls = 0, onLoopThread = true
        let waker = try loop.makeWaker {
            calls += 1
            onLoopThread = onLoopThread && pthread_equal(pthread_self(), me) != 0
            loop.stop()
        }
        try spawnDetachedThread { for _ in 0..<100 { waker.wake() } }
        let start = monotonicSeconds()
        try loop.run(for: 5)
        #expect(calls >= 1 && onLoopThread)
        #expect(monotonicSeconds() - start < 5)
        loop.cancel(waker.token)
    }

    /// Signals come through the loop's one signalfd (the fake kernel's here), to every handler of
    /// that signal, and the signalfd reads only signals with handlers.
    @Test func signalsReachTheirHandlers() throws {
        let k = FakeKernel()
        let loop = PollEventLoop(kernel: k, clock: SystemClock())
        var got: [Int32] = []
        let term = loop.onSignal(SIGTERM) { got.append(SIGTERM) }
        loop.onSignal(SIGUSR1) { got.append(SIGUSR1) }
        #expect(k.signalsRead == [SIGUSR1, SIGTERM])
        k.signalsQueued = [SIGTERM, SIGUSR1]
        try loop.run(for: 0.05)
        #expect(got == [SIGTERM, SIGUSR1])
        loop.cancel(term)
        #expect(k.signalsRead == [SIGUSR1])
        loop.close()
        #expect(k.leaks.isEmpty)
    }

    /// A signalfd that cannot be made leaves the signal's default action; nothing crashes.
    @Test func aFailedSignalfdIsSurvived() throws {
        let k = FakeKernel()
        k.failAt = (0, EMFILE)
        let loop = PollEventLoop(kernel: k, clock: SystemClock())
        loop.onSignal(SIGUSR2) {}
        try loop.run(for: 0.01)
        #expect(k.calls.first == "signalfd")
        #expect(k.leaks.isEmpty)
    }

    /// With nothing to do the loop waits in one poll: no timer, no spin.
    @Test func anIdleLoopWakesOnlyForEvents() throws {
        let loop = PollEventLoop(clock: SystemClock())
        let p = Pipe()
        loop.watch(p.r, .readable) { _ in p.drain() }
        let before = loop.wakeups
        try loop.runOnce(timeout: 0.3)
        #expect(loop.wakeups - before == 1)
    }
}
