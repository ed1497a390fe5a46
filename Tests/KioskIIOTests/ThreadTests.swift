// The sampler thread: samples arrive off the caller's thread, a blocked read never blocks the
// consumer, stop() ends it.
import Glibc
import KioskPresentation
import KioskSeams
import KioskIIO
import KioskSession
import KioskSys
import Testing

@Suite struct ThreadTests {
    @Test func samplesArriveAndFailureAndRecoveryWorkLive() async throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0, raw: rawCounts(right: 60))
        let clock = SystemClock()
        let log = LogLines()
        let source = try IIOMotionSource.start(settings: .init(root: fs.root, rate: 50, retryInterval: 0.2), clock: clock, log: log.sink)
        defer { source.stop() }
        let tracker = TiltTracker(source: source, config: .init(timeConstant: 0.05))
        // Generous limits: under a loaded machine (the VM suites run beside this one) the
        // sampler thread may wait long for a core, and so may this task; what matters is that it
        // gets there. A wake-up after the deadline still gets its look (a task that overslept
        // the whole limit must not fail unseen).
        func until(_ seconds: Double, _ done: () -> Bool) async throws -> Bool {
            let end = clock.now + seconds
            while true {
                let now = clock.now
                tracker.update(at: now)
                if done() { return true }
                if now >= end { return false }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(try await until(30) { tracker.offset(at: clock.now, depth: 10) == (10, 0) })
        // Rate over the time that really passed (a loaded machine oversleeps).
        let n0 = source.stats.samples, t0 = clock.now
        try await Task.sleep(for: .milliseconds(500))
        let perSecond = Double(source.stats.samples - n0) / (clock.now - t0)
        #expect(perSecond > 5 && perSecond < 60, "\(perSecond) samples/s at 50 Hz")
        // Gone: eases back to centre.
        fs.removeDevice(0)
        #expect(try await until(30) { tracker.offset(at: clock.now, depth: 10) == (0, 0) && !tracker.isMoving(at: clock.now) })
        #expect(log.count(containing: "lost") == 1)
        // Back: tracks again.
        fs.addAccelerometer(0, raw: rawCounts(right: -60))
        #expect(try await until(30) { tracker.offset(at: clock.now, depth: 10) == (-10, 0) })
        // Stopped: no more samples.
        source.stop()
        try await Task.sleep(for: .milliseconds(300))
        let n1 = source.stats.samples
        try await Task.sleep(for: .milliseconds(300))
        #expect(source.stats.samples == n1)
    }

    /// A FIFO standing in for an attribute (or a hung bus's stand-in) never blocks anything:
    /// the sampler refuses it at once, says why, and the consumer's calls stay fast.
    @Test func aFIFOAttributeIsRefusedAndTheConsumerGoesOn() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let fifo = fs.devicePath(0) + "/in_accel_x_raw"
        fs.removeAttribute(0, "in_accel_x_raw")
        #expect(mkfifo(fifo, 0o644) == 0)
        let clock = SystemClock()
        let log = LogLines()
        let source = try IIOMotionSource.start(settings: .init(root: fs.root), clock: clock, log: log.sink)
        defer { source.stop() }
        let tracker = TiltTracker(source: source)
        var worst = 0.0, calls = 0
        let end = clock.now + 0.8
        while clock.now < end {
            let t0 = monotonicSeconds()
            let t = tracker.update(at: clock.now)
            _ = source.isDelivering(at: clock.now)
            worst = max(worst, monotonicSeconds() - t0)
            calls += 1
            #expect(t == (0, 0))
            usleep(5000)
        }
        #expect(calls > 20 && worst < 0.05)
        #expect(source.stats.samples == 0)
        #expect(log.count(containing: "not a regular file (a FIFO)") == 1, "\(log.all)")
        if case .failed = source.status {} else { Issue.record("status \(source.status)") }
    }
}
