// Failure and recovery: no sensor, removal mid-run, garbage, stalls, re-attach. Driven by hand:
// one sampler step and one frame per 1/30 s of simulated time.
import KioskPresentation
import KioskSeams
import KioskIIO
import KioskSession
import Testing

/// A fake tree, a sampler pumped by hand into an `IIOMotionSource`, and a tracker reading it.
final class Rig {
    let fs = FakeSysfs()
    let log = LogLines()
    let source = IIOMotionSource(staleAfter: 0.5)
    let tracker: TiltTracker
    let depth: Double
    private(set) var sampler: IIOSampler!
    var time = 0.0
    /// dx, dy in pixels after each `run` frame.
    var offsets: [(dx: Double, dy: Double)] = []

    init(settings: (IIORoot) -> IIOSampler.Settings = { IIOSampler.Settings(root: $0) },
         config: TiltFilter.Config = TiltFilter.Config(), depth: Double = 10) {
        tracker = TiltTracker(source: source, config: config)
        self.depth = depth
        sampler = IIOSampler(settings: settings(fs.root), log: log.sink)
    }

    /// Runs `seconds` of sampler steps and frames at 30 Hz; `pump: false` = the sampler is stuck.
    func run(_ seconds: Double, pump: Bool = true, each: ((Rig) -> Void)? = nil) {
        let end = time + seconds
        while time < end - 1e-9 {
            time += 1.0 / 30
            if pump { source.pump(sampler, at: time) }
            each?(self)
            tracker.update(at: time)
            offsets.append(tracker.offset(at: time, depth: depth))
        }
    }

    var offset: (dx: Double, dy: Double) { tracker.offset(at: time, depth: depth) }
}

@Suite struct LifecycleTests {
    @Test func noSensorMeansEffectOffAndOneInfoLine() {
        let rig = Rig()
        rig.run(30)                                   // 30 s, 30 retries
        #expect(rig.log.all == ["tilt: no accelerometer in \(rig.fs.root.devicesDirectory); motion effect off"])
        #expect(rig.source.status == .absent && !rig.source.isDelivering(at: rig.time))
        #expect(rig.offsets.allSatisfy { $0 == (0, 0) })
        #expect(!rig.tracker.isMoving(at: rig.time))
    }

    @Test func aSensorThatAppearsLaterIsPickedUp() {
        let rig = Rig()
        rig.run(2)
        rig.fs.addAccelerometer(0, raw: rawCounts(right: 60))
        rig.run(3)
        #expect(rig.source.status.isRunning)
        #expect(rig.offset == (10, 0))
        #expect(rig.log.count(containing: "using iio:device0 (mxc4005)") == 1)
    }

    @Test func removalMidRunEasesBackThenReattaches() throws {
        let rig = Rig()
        rig.fs.addAccelerometer(0, raw: rawCounts(right: 60))
        rig.run(1.5)
        #expect(rig.offset == (10, 0))
        // The device goes away (module unloaded, cable, …).
        rig.fs.removeDevice(0)
        let lostAt = rig.offsets.count
        rig.run(2)
        if case .failed = rig.source.status {} else { Issue.record("status \(rig.source.status)") }
        #expect(rig.log.count(containing: "iio:device0 lost: \(rig.fs.devicePath(0)) is gone") == 1)
        let after = rig.offsets[lostAt...].map(\.dx)
        #expect(after[0] == 10 && after[1] < 10 && after[1] > 8)        // eases, no jump
        #expect(zip(after, after.dropFirst()).allSatisfy { $0.0 >= $0.1 })  // monotonically back
        #expect(rig.offset == (0, 0) && !rig.tracker.isMoving(at: rig.time))  // and stops
        // Quiet while it is gone (no line per retry).
        let lines = rig.log.all.count
        rig.run(5)
        #expect(rig.log.all.count == lines)
        // It comes back (maybe under another number) and the effect resumes.
        rig.fs.addAccelerometer(1, raw: rawCounts(right: -60))
        rig.run(3)
        #expect(rig.source.status.isRunning)
        #expect(rig.offset == (-10, 0))
        #expect(rig.log.count(containing: "using iio:device1") == 1)
    }

    @Test(arguments: ["EIO", "garbage", "absurd"])
    func aBadReadingEasesBackAndStops(kind: String) {
        let rig = Rig()
        rig.fs.addAccelerometer(0, raw: rawCounts(top: 70))
        rig.run(1.5)
        #expect(rig.offset == (0, -10))
        switch kind {
        case "EIO":                   // a call that fails: pread on a directory
            rig.fs.removeAttribute(0, "in_accel_z_raw")
            mkdirs(rig.fs.devicePath(0) + "/in_accel_z_raw")
            rig.sampler.close()       // fresh descriptors at the next attach
        case "garbage": rig.fs.setAttribute(0, "in_accel_z_raw", "ERROR\n")
        default: rig.fs.setRaw(0, (0, 0, 1_000_000))
        }
        rig.run(2.5)
        #expect(rig.offset == (0, 0) && !rig.tracker.isMoving(at: rig.time))
        #expect(!rig.source.isDelivering(at: rig.time))
        #expect(rig.log.all.filter { $0.contains("lost") || $0.contains("cannot use") }.count == 1, "\(rig.log.all)")
        // Fixed: back within the retry interval.
        if kind == "EIO" { removeTree(rig.fs.devicePath(0) + "/in_accel_z_raw") }
        rig.fs.setRaw(0, rawCounts(top: -70))
        rig.run(3)
        #expect(rig.offset == (0, 10))
    }

    @Test func aStalledSamplerCountsAsLost() {
        // A read that blocks in the kernel: no samples arrive although the status says running.
        let rig = Rig()
        rig.fs.addAccelerometer(0, raw: rawCounts(right: 60))
        rig.run(1.5)
        #expect(rig.offset == (10, 0))
        rig.run(0.4, pump: false)
        #expect(rig.offset == (10, 0))                 // within staleAfter: hold
        rig.run(2, pump: false)
        #expect(rig.source.status.isRunning && !rig.source.isDelivering(at: rig.time))
        #expect(rig.offset == (0, 0))                  // eased back
        rig.run(2)                                      // the read returns: tracking again
        #expect(rig.offset == (10, 0))
    }

    @Test func unconsumedSamplesAreBounded() {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let source = IIOMotionSource()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: { _ in })
        for i in 0..<200 { source.pump(sampler, at: Double(i) / 30) }
        #expect(source.samples(until: 5).count == 151)            // t ≤ 5 s: samples 0…150
        for i in 200..<700 { source.pump(sampler, at: Double(i) / 30) }
        let rest = source.samples(until: 1000)
        #expect(rest.count == IIOMotionSource.queueLimit)
        #expect(rest.last!.time == 699.0 / 30)
        #expect(source.stats.samples == 700 && source.stats.failures == 0)
    }
}
