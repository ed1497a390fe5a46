// The event loop every long-running command runs on (`show`, `touch`, `tilt`, and the daemon and
// `run` to come): one thread, one poll(2) over every registered descriptor, timers on the
// HUD's monotonic clock, signals through one signalfd that the loop owns, and deferred work.
//
// Why poll and not epoll: a HUD watches a handful of descriptors (the card, the hotplug socket,
// libinput, the signalfd, a waker; a daemon adds at most a few dozen clients), so rebuilding the
// pollfd array each turn costs less than epoll's extra calls, and poll goes through the `Kernel`
// seam as one call that a test's fake kernel can answer. Timers are a short list scanned each
// turn for the same reason. Nothing here allocates on a turn with nothing to do: the pollfd
// array and the ids beside it are kept between turns (refilled in place, their capacity kept),
// the next timer is found by a scan, and the due timers are collected only when one is due.
//
// Threads: the loop and every handler run on the thread that calls `run`. The one way in from
// another thread is a `LoopWaker` (an eventfd): the accelerometer's sampler thread wakes the loop
// when it has a sample, instead of the loop ticking at the sampler's rate to look.
//
// Signals: `onSignal` blocks the signal and reads it from the loop's signalfd, so it never
// interrupts a call and never runs code at an arbitrary point. Blocked signals are inherited by
// children: a child started on purpose must get `originalSignalMask` back (posix_spawn's
// sigmask), and the keeper that holds a retained frame unblocks them itself.
import CKioskSys
import Glibc
import KioskSeams

/// The real event loop (poll(2) through a `Kernel`).
///
///     let loop = PollEventLoop()
///     loop.onSignal(SIGTERM) { loop.stop() }
///     loop.watch(fd, .readable) { _ in handle() }
///     loop.schedule(after: 0.5) { tick() }
///     try loop.run()
public final class PollEventLoop: EventLoop {
    /// The system calls (the real kernel, or a test's fake).
    public let kernel: Kernel
    /// The loop's clock.
    public let clock: Clock
    private var nextID = 1
    private struct Watch { var fd: Int32; var events: LoopEvents; var handler: (LoopEvents) -> Void }
    private struct Timer { var time: Seconds; var handler: () -> Void }
    private struct SignalHandler { var signal: Int32; var handler: () -> Void }
    /// Ordered by registration (ids grow), so handlers run in a stable order.
    private var watches: [(id: Int, watch: Watch)] = []
    /// The pollfd array and the watch ids beside it, refilled each turn in place.
    private var pollSet: [pollfd] = []
    private var pollIDs: [Int] = []
    private var timers: [Int: Timer] = [:]
    private var signalHandlers: [(id: Int, handler: SignalHandler)] = []
    private var deferred: [() -> Void] = []
    private var signalFD: Int32 = -1
    private var signalWatch: LoopToken?
    private var readSignals: Set<Int32> = []
    private var stopping = false
    /// Times the loop came back from poll: with nothing animating and no sensor, it should not
    /// grow (a static HUD wakes only for events).
    public private(set) var wakeups = 0

    /// The signal mask this thread had before the loop blocked any signal: what a child process
    /// must be started with.
    public let originalSignalMask: sigset_t

    public init(kernel: Kernel = LinuxKernel(), clock: Clock) {
        self.kernel = kernel
        self.clock = clock
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        originalSignalMask = mask
    }

    deinit { close() }

    /// Closes the loop's own descriptors (the signalfd) and unblocks its signals. Handlers stay
    /// registered but will not run.
    public func close() {
        if signalFD >= 0 { kernel.close(signalFD); signalFD = -1 }
        if !readSignals.isEmpty { kernel.unblockSignals(Array(readSignals)); readSignals = [] }
    }

    public var now: Seconds { clock.now }

    // MARK: Registration

    private func newToken() -> LoopToken {
        defer { nextID += 1 }
        return LoopToken(id: nextID)
    }

    @discardableResult
    public func watch(_ fd: Int32, _ events: LoopEvents, _ handler: @escaping (LoopEvents) -> Void) -> LoopToken {
        let t = newToken()
        watches.append((t.id, Watch(fd: fd, events: events, handler: handler)))
        return t
    }

    public func setEvents(_ token: LoopToken, _ events: LoopEvents) {
        if let i = watches.firstIndex(where: { $0.id == token.id }) { watches[i].watch.events = events }
    }

    @discardableResult
    public func schedule(at time: Seconds, _ handler: @escaping () -> Void) -> LoopToken {
        let t = newToken()
        timers[t.id] = Timer(time: time.isNaN ? now : time, handler: handler)
        return t
    }

    @discardableResult
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> LoopToken {
        let t = newToken()
        signalHandlers.append((t.id, SignalHandler(signal: signal, handler: handler)))
        if !readSignals.contains(signal) {
            readSignals.insert(signal)
            updateSignalDescriptor()
        }
        return t
    }

    public func execute(_ handler: @escaping () -> Void) { deferred.append(handler) }

    public func cancel(_ token: LoopToken) {
        watches.removeAll { $0.id == token.id }
        timers[token.id] = nil
        if let i = signalHandlers.firstIndex(where: { $0.id == token.id }) {
            let s = signalHandlers.remove(at: i).handler.signal
            if !signalHandlers.contains(where: { $0.handler.signal == s }) {
                readSignals.remove(s)
                kernel.unblockSignals([s])
                updateSignalDescriptor()
            }
        }
    }

    public func stop() { stopping = true }

    public func isSignalPending(_ signals: [Int32]) -> Bool { kernel.isPending(signals) }

    /// Whether `token` is still registered.
    public func isRegistered(_ token: LoopToken) -> Bool {
        timers[token.id] != nil || watches.contains { $0.id == token.id } || signalHandlers.contains { $0.id == token.id }
    }

    /// The signalfd reads exactly the signals that have handlers.
    private func updateSignalDescriptor() {
        do {
            let fd = try kernel.signalDescriptor(Array(readSignals).sorted(), updating: signalFD >= 0 ? signalFD : nil)
            if signalFD < 0 {
                signalFD = fd
                signalWatch = watch(fd, .readable) { [unowned self] _ in self.dispatchSignals() }
            }
        } catch {
            // Without a signalfd the signal keeps its default action (SIGTERM still ends the
            // process); nothing else can be done here, and it has never been seen to fail.
            readSignals = []
        }
    }

    private func dispatchSignals() {
        let size = MemoryLayout<signalfd_siginfo>.size
        var record = [UInt8](repeating: 0, count: size * 8)
        while true {
            let n: Int
            do {
                n = try record.withUnsafeMutableBytes { (b) throws(SysError) in try kernel.read(signalFD, into: b) }
            } catch { return }
            guard n >= size else { return }
            for k in 0..<(n / size) {
                let signo = Int32(bitPattern: record.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: k * size, as: UInt32.self) })
                for (id, h) in signalHandlers where h.signal == signo {
                    guard signalHandlers.contains(where: { $0.id == id }) else { continue }
                    h.handler()
                }
            }
        }
    }

    // MARK: Running

    /// Runs turns until `stop()` is called.
    public func run() throws(SysError) {
        stopping = false
        while !stopping { try runOnce(timeout: nil) }
    }

    /// Runs turns until `stop()` or until `seconds` have passed (tests, bounded waits).
    public func run(for seconds: Seconds) throws(SysError) {
        stopping = false
        let end = now + seconds
        repeat { try runOnce(timeout: max(0, end - now)) } while !stopping && now < end
    }

    /// One turn: deferred work, due timers, then one poll for at most `timeout` seconds (nil:
    /// until the next timer, or forever), the handlers of what is ready, and the timers due
    /// after it.
    public func runOnce(timeout: Seconds?) throws(SysError) {
        runDeferred()
        runDueTimers()
        runDeferred()
        if stopping { return }
        var wait = timeout
        if let next = nextTimerTime { wait = min(wait ?? .infinity, max(0, next - now)) }
        pollSet.removeAll(keepingCapacity: true)
        pollIDs.removeAll(keepingCapacity: true)
        // By index: an iterator over the (id, watch) pairs boxes each in a debug build.
        for i in watches.indices {
            pollSet.append(pollfd(fd: watches[i].watch.fd, events: watches[i].watch.events.rawValue, revents: 0))
            pollIDs.append(watches[i].id)
        }
        // Round up: waking before a timer is due would spin.
        let ms: Int32 = wait.map { Int32(min(3_600_000, ($0 * 1000).rounded(.up))) } ?? -1
        let n = try kernel.poll(&pollSet, timeoutMs: ms)
        // This turn's view (a handler that runs the loop itself refills the stored ones; the
        // copy-on-write then gives that turn its own).
        let fds = pollSet, ids = pollIDs
        wakeups += 1
        if n > 0 {
            for (i, p) in fds.enumerated() where p.revents != 0 {
                guard let w = watches.first(where: { $0.id == ids[i] })?.watch else { continue }
                var ready = LoopEvents(rawValue: p.revents & (LoopEvents.readable.rawValue | LoopEvents.writable.rawValue
                                                              | LoopEvents.error.rawValue | LoopEvents.hangup.rawValue))
                if p.revents & Int16(POLLNVAL) != 0 {
                    // A descriptor closed while watched: the owner forgot to cancel. Stop
                    // watching it (it would be reported again on every turn) and tell the owner.
                    cancel(LoopToken(id: ids[i]))
                    ready.insert(.error)
                }
                w.handler(ready)
                runDeferred()
            }
        }
        runDueTimers()
        runDeferred()
    }

    private func runDeferred() {
        while !deferred.isEmpty {
            let work = deferred
            deferred.removeAll()
            for w in work { w() }
        }
    }

    /// When the next timer is due; nil without timers.
    private var nextTimerTime: Seconds? {
        var next: Seconds?
        for timer in timers.values where next.map({ timer.time < $0 }) ?? true { next = timer.time }
        return next
    }

    private func runDueTimers() {
        let t = now
        guard let next = nextTimerTime, next <= t else { return }
        let due = timers.filter { $0.value.time <= t }.sorted { ($0.value.time, $0.key) < ($1.value.time, $1.key) }
        for (id, timer) in due {
            guard timers.removeValue(forKey: id) != nil else { continue }   // cancelled by an earlier one
            timer.handler()
        }
    }

    // MARK: Wakers

    public func makeWaker(_ handler: @escaping () -> Void) throws -> LoopWaker {
        let waker = EventFDWaker(fd: try kernel.eventDescriptor(), kernel: kernel)
        waker.token = watch(waker.fd, .readable) { [weak waker] _ in
            waker?.drain()
            handler()
        }
        return waker
    }
}

/// Wakes a `PollEventLoop` from another thread: an eventfd. The descriptor is closed when the
/// last reference goes, so a thread that still holds the waker never writes to a reused number.
/// `wake` writes to it directly, not through the `Kernel`: it is the one call made from another
/// thread, and a test's fake kernel is not thread-safe (the eventfd is real in any case).
final class EventFDWaker: LoopWaker, @unchecked Sendable {
    let fd: Int32
    private let kernel: Kernel
    var token = LoopToken(id: 0)

    init(fd: Int32, kernel: Kernel) { self.fd = fd; self.kernel = kernel }
    deinit { kernel.close(fd) }

    func wake() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { try? FileDescriptor(rawValue: fd).writeOnce($0) }
    }

    func drain() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? kernel.read(fd, into: $0) }
    }
}
