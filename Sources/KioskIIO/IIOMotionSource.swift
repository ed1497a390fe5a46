// The accelerometer as a `MotionSource`: a sampler thread makes the (possibly blocking) sysfs
// reads and drops each sample into a mailbox, then wakes the event loop (an eventfd); the loop
// takes what is there. The mailbox is a `Mutex` (Synchronization) held only to append or swap an
// array — never across a read — so the loop's thread waits at most for a few hundred
// nanoseconds of copying, never for I/O. With no sensor the thread sleeps until the kernel
// announces an IIO device (a uevent), so an idle HUD on a board without one wakes nobody.
import Glibc
import KioskPresentation
import KioskSeams
import KioskSys
import Synchronization

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
public final class IIOMotionSource: MotionSource, Sendable {
    private struct Mailbox {
        var queue: [AccelerationSample] = []
        var status: IIOStatus = .starting
        var lastSampleTime: Double?
        var stopRequested = false
        var rescanRequested = false
        var stats = IIOReadStats()
        /// Woken after each publish (the loop the source is attached to).
        var waker: LoopWaker?
    }

    /// Samples kept when nobody takes them (the oldest are dropped).
    public static let queueLimit = 256
    private let mailbox = Mutex(Mailbox())
    /// Without a new sample for this long the source counts as stalled (not delivering).
    public let staleAfter: Double

    /// The thread's wake-up call (stop, rescan): an eventfd it polls with the uevent socket.
    private let control: Int32?
    /// The seam the thread's calls go through (the caller's: shared by the thread and the loop,
    /// so one that may be used from both, as the real kernel, which holds nothing).
    private let kernel: any KernelFiles & KernelDescriptors & KernelEvents & Sendable

    /// A mailbox with no thread: feed it with `pump(_:at:)` (tests, or a caller's own loop).
    public init(staleAfter: Double = 0.5, kernel: any KernelFiles & KernelDescriptors & KernelEvents & Sendable = LinuxKernel()) {
        self.staleAfter = staleAfter
        self.kernel = kernel
        control = nil
    }

    private init(staleAfter: Double, control: Int32, kernel: any KernelFiles & KernelDescriptors & KernelEvents & Sendable) {
        self.staleAfter = staleAfter
        self.control = control
        self.kernel = kernel
    }

    deinit { if let control { kernel.close(control) } }

    /// Starts a sampler thread for `settings`; samples are stamped with `clock` (use the HUD's).
    /// `staleAfter` defaults to 5 periods, at least 0.5 s.
    /// Every system call of the thread (discovery, the device, its wake-ups) goes through `kernel`.
    public static func start(settings: IIOSampler.Settings, clock: any Clock & Sendable, staleAfter: Double? = nil,
                             kernel: any KernelFiles & KernelDescriptors & KernelEvents & Sendable = LinuxKernel(),
                             log: @escaping @Sendable (String) -> Void) throws(SysError) -> IIOMotionSource {
        let source = IIOMotionSource(staleAfter: staleAfter ?? max(0.5, 5 * settings.period), control: try kernel.eventDescriptor(), kernel: kernel)
        try spawnDetachedThread { [source] in
            source.run(settings: settings, clock: clock, log: log)
        }
        return source
    }

    /// Asks the thread to finish (it closes the device). Returns at once: a read blocked in the
    /// kernel finishes on its own.
    public func stop() {
        mailbox.withLock { $0.stopRequested = true; $0.waker = nil }
        poke()
    }

    /// Asks the thread to look for a device now (an IIO device may have appeared).
    public func rescan() {
        mailbox.withLock { $0.rescanRequested = true }
        poke()
    }

    private func poke() {
        var one: UInt64 = 1
        guard let control else { return }
        _ = withUnsafeBytes(of: &one) { try? kernel.write(control, $0) }
    }

    // MARK: On the loop

    public func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws {
        let waker = try loop.makeWaker(ready)
        mailbox.withLock { $0.waker = waker }
    }

    public func detach() { mailbox.withLock { $0.waker = nil } }

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
        let waker: LoopWaker? = mailbox.withLock { m in
            let changed = m.status != status
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
            return reading != nil || changed ? m.waker : nil
        }
        waker?.wake()
    }

    private func run(settings: IIOSampler.Settings, clock: any Clock & Sendable, log: @escaping @Sendable (String) -> Void) {
        let sampler = IIOSampler(settings: settings, kernel: kernel, log: log)
        defer { sampler.close() }
        // The kernel's uevents tell the thread when an IIO device comes (the real root only: a
        // test's fake tree has no uevents, so it is looked at every retry interval instead).
        let uevents = settings.root == .system ? try? kernel.ueventDescriptor() : nil
        defer { if let uevents { kernel.close(uevents) } }
        var next = clock.now
        while true {
            let (stop, rescan) = mailbox.withLock { m in
                defer { m.rescanRequested = false }
                return (m.stopRequested, m.rescanRequested)
            }
            if stop { return }
            if rescan { sampler.searchNow() }
            let now = clock.now
            if now >= next || rescan {
                pump(sampler, at: now)
                // Fixed-rate schedule; after an overrun (a slow read) start again from now.
                next += sampler.interval
                if next < now { next = now }
            }
            // Nothing to read and nothing to retry: sleep until a uevent or a request.
            let idle = sampler.status == .absent && uevents != nil
            wait(seconds: idle ? nil : max(0, next - clock.now), uevents: uevents)
        }
    }

    /// Waits for `seconds` (nil: until woken), for a request on the control eventfd, or for an
    /// IIO uevent (which asks for a rescan).
    private func wait(seconds: Double?, uevents: Int32?) {
        guard let control else { return }
        var fds = [pollfd(fd: control, events: Int16(POLLIN), revents: 0)]
        if let u = uevents { fds.append(pollfd(fd: u, events: Int16(POLLIN), revents: 0)) }
        let ms: Int32 = seconds.map { Int32(min($0 * 1000, 3_600_000).rounded(.up)) } ?? -1
        guard (try? kernel.poll(&fds, timeoutMs: ms)) ?? 0 > 0 else { return }
        if fds[0].revents != 0 {
            var count: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &count) { try? kernel.read(control, into: $0) }
        }
        if fds.count > 1, fds[1].revents != 0, let u = uevents {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var iio = false
            while let n = try? kernel.read(u, into: &buffer), n > 0 {
                let iioField = Array("SUBSYSTEM=iio".utf8)
                if buffer[..<n].split(separator: 0).contains(where: { $0.elementsEqual(iioField) }) { iio = true }
            }
            if iio { mailbox.withLock { $0.rescanRequested = true } }
        }
    }
}
