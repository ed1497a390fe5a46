// The accelerometer as a `MotionSource`: a sampler thread makes the (possibly blocking) sysfs
// reads and drops each sample into a mailbox; the render loop takes what is there. The mailbox is
// a `Mutex` (Synchronization) held only to append or swap an array — never across a read — so
// the render thread waits at most for a few hundred nanoseconds of copying, never for I/O.
import KioskBehavior
import KioskDevices
import KioskSys
import Synchronization

/// A motion source that can say it has stopped delivering (lost, absent or stalled sensor): the
/// tilt then eases back to centre.
public protocol MotionSourceHealth: AnyObject {
    /// Whether fresh samples are arriving at `time`.
    func isDelivering(at time: Seconds) -> Bool
}

/// Read-cost statistics of the sampler thread (one sample = existence check + 3 preads + parse).
public struct IIOReadStats: Sendable, Equatable {
    /// Good samples taken.
    public var samples = 0
    /// Times a running device was lost.
    public var failures = 0
    /// Seconds spent taking the good samples, in all and at most for one.
    public var totalSeconds = 0.0
    public var maxSeconds = 0.0
    /// Seconds per good sample.
    public var meanSeconds: Double { samples > 0 ? totalSeconds / Double(samples) : 0 }
}

/// An IIO accelerometer as a `MotionSource` (samples in m/s², panel frame, stamped with the
/// caller's clock), read off the render path.
///
///     let source = try IIOMotionSource.start(settings: .init(accel: "accel-display"), clock: clock) { print($0) }
///     let tracker = TiltTracker(source: source, config: TiltFilter.Config())
///     // every frame:
///     let tilt = tracker.update(at: clock.now); hud.setMotion(x: tilt.x, y: tilt.y)
public final class IIOMotionSource: MotionSource, MotionSourceHealth, Sendable {
    private struct Mailbox {
        var queue: [AccelerationSample] = []
        var status: IIOStatus = .starting
        var lastSampleTime: Double?
        var stopRequested = false
        var stats = IIOReadStats()
    }

    /// Samples kept when nobody takes them (the oldest are dropped).
    public static let queueLimit = 256
    private let mailbox = Mutex(Mailbox())
    /// Without a new sample for this long the source counts as stalled (not delivering).
    public let staleAfter: Double

    /// A mailbox with no thread: feed it with `pump(_:at:)` (tests, or a caller's own loop).
    public init(staleAfter: Double = 0.5) {
        self.staleAfter = staleAfter
    }

    /// Starts a sampler thread for `settings`; samples are stamped with `clock` (use the HUD's).
    /// `staleAfter` defaults to 5 periods, at least 0.5 s.
    public static func start(settings: IIOSampler.Settings, clock: any Clock & Sendable, staleAfter: Double? = nil,
                             log: @escaping @Sendable (String) -> Void) throws(SysError) -> IIOMotionSource {
        let source = IIOMotionSource(staleAfter: staleAfter ?? max(0.5, 5 * settings.period))
        try spawnDetachedThread { [source] in
            source.run(settings: settings, clock: clock, log: log)
        }
        return source
    }

    /// Asks the thread to finish (it closes the device). Returns at once: a read blocked in the
    /// kernel finishes on its own.
    public func stop() { mailbox.withLock { $0.stopRequested = true } }

    /// One sampler turn on the caller's thread, published like the thread's.
    public func pump(_ sampler: IIOSampler, at now: Double) {
        let t0 = monotonicSeconds()
        let r = sampler.step(at: now)
        publish(r, status: sampler.status, at: now, cost: monotonicSeconds() - t0)
    }

    // MARK: Consumer side (never blocks on I/O)

    /// Every sample taken up to `time`, oldest first, each once (m/s², panel axes). Never waits on I/O.
    public func samples(until time: Seconds) -> [AccelerationSample] {
        mailbox.withLock { m in
            guard let first = m.queue.first, first.time <= time else { return [] }
            if m.queue.last!.time <= time {
                let out = m.queue
                m.queue.removeAll(keepingCapacity: true)
                return out
            }
            let n = m.queue.prefix { $0.time <= time }.count
            let out = Array(m.queue.prefix(n))
            m.queue.removeFirst(n)
            return out
        }
    }

    /// True while a device is running and its last sample is at most `staleAfter` old.
    public func isDelivering(at time: Seconds) -> Bool {
        mailbox.withLock { m in
            guard m.status.isRunning, let t = m.lastSampleTime else { return false }
            return time - t <= staleAfter
        }
    }

    /// The sampler's status as last published.
    public var status: IIOStatus { mailbox.withLock { $0.status } }

    /// Read-cost statistics so far.
    public var stats: IIOReadStats { mailbox.withLock { $0.stats } }

    // MARK: Producer side

    private func publish(_ reading: IIOReading?, status: IIOStatus, at now: Double, cost: Double) {
        mailbox.withLock { m in
            m.status = status
            if let r = reading {
                if m.queue.count >= Self.queueLimit { m.queue.removeFirst(m.queue.count - Self.queueLimit + 1) }
                m.queue.append(AccelerationSample(time: now, x: r.panel.x, y: r.panel.y, z: r.panel.z))
                m.lastSampleTime = now
                m.stats.samples += 1
                m.stats.totalSeconds += cost
                m.stats.maxSeconds = max(m.stats.maxSeconds, cost)
            } else if status.isRunning == false, case .failed = status, m.lastSampleTime != nil {
                m.stats.failures += 1
                m.lastSampleTime = nil
            }
        }
    }

    private func run(settings: IIOSampler.Settings, clock: any Clock & Sendable, log: @escaping @Sendable (String) -> Void) {
        let sampler = IIOSampler(settings: settings, log: log)
        defer { sampler.close() }
        var next = clock.now
        while !mailbox.withLock({ $0.stopRequested }) {
            pump(sampler, at: clock.now)
            // Fixed-rate schedule; after an overrun (a slow read) start again from now.
            let now = clock.now
            next += sampler.interval
            if next < now { next = now }
            // Sleep in slices so stop() is noticed within 100 ms.
            while !mailbox.withLock({ $0.stopRequested }) {
                let left = next - clock.now
                if left <= 0 { break }
                sleepSeconds(min(left, 0.1))
            }
        }
    }
}
