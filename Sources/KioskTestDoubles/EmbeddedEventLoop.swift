import KioskSeams
import Synchronization

/// An event loop for tests (as NIO's EmbeddedEventLoop): nothing waits and no descriptor is
/// polled. Time is a `ManualClock` that moves only in `advance(to:)`/`advance(by:)`, which run
/// the timers that come due in order; a test makes a descriptor "ready" with `fire` and sends a
/// signal with `raise`. Handlers run exactly as on the real loop: one at a time, deferred work
/// after each.
///
///     let loop = EmbeddedEventLoop()
///     let session = try HUDSession(loop: loop, …)
///     loop.advance(by: 0.5)          // the grace time passes, the HUD shows
///     loop.raise(SIGTERM)            // the session quits
public final class EmbeddedEventLoop: EventLoop {
    public let clock: ManualClock
    private var nextID = 1
    private var watches: [(id: Int, fd: Int32, events: LoopEvents, handler: (LoopEvents) -> Void)] = []
    private var timers: [(id: Int, time: Seconds, handler: () -> Void)] = []
    private var signals: [(id: Int, signal: Int32, handler: () -> Void)] = []
    private var deferred: [() -> Void] = []
    /// True after `stop()` (a test can check that something asked the loop to end).
    public private(set) var stopped = false

    public init(clock: ManualClock = ManualClock()) { self.clock = clock }

    public var now: Seconds { clock.now }

    private func token() -> LoopToken { defer { nextID += 1 }; return LoopToken(id: nextID) }

    @discardableResult
    public func watch(_ fd: Int32, _ events: LoopEvents, _ handler: @escaping (LoopEvents) -> Void) -> LoopToken {
        let t = token()
        watches.append((t.id, fd, events, handler))
        return t
    }

    public func setEvents(_ token: LoopToken, _ events: LoopEvents) {
        if let i = watches.firstIndex(where: { $0.id == token.id }) { watches[i].events = events }
    }

    @discardableResult
    public func schedule(at time: Seconds, _ handler: @escaping () -> Void) -> LoopToken {
        let t = token()
        timers.append((t.id, time.isNaN ? now : time, handler))
        return t
    }

    @discardableResult
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> LoopToken {
        let t = token()
        signals.append((t.id, signal, handler))
        return t
    }

    public func execute(_ handler: @escaping () -> Void) { deferred.append(handler) }

    public func cancel(_ token: LoopToken) {
        wakers.removeAll { $0.id == token.id }
        watches.removeAll { $0.id == token.id }
        timers.removeAll { $0.id == token.id }
        signals.removeAll { $0.id == token.id }
    }

    public func stop() { stopped = true }

    /// Signals a test has marked pending (`pending`): a long frame stops at its next band.
    public var pendingSignals: Set<Int32> = []

    public func isSignalPending(_ signals: [Int32]) -> Bool { signals.contains(where: pendingSignals.contains) }

    private var wakers: [(id: Int, waker: EmbeddedWaker, handler: () -> Void)] = []

    public func makeWaker(_ handler: @escaping () -> Void) throws -> LoopWaker {
        let t = token()
        let w = EmbeddedWaker(token: t)
        wakers.append((t.id, w, handler))
        return w
    }

    // MARK: Driving it

    /// The descriptors being watched now, and for what.
    public var watchedDescriptors: [(fd: Int32, events: LoopEvents)] { watches.map { ($0.fd, $0.events) } }

    /// When the next timer is due (nil: none).
    public var nextTimer: Seconds? { timers.map(\.time).min() }

    /// How many timers are pending (a static HUD with nothing animating has none).
    public var pendingTimers: Int { timers.count }

    /// Runs deferred work, the handlers of wakers woken since, and the timers due now.
    public func run() {
        runDeferred()
        for w in wakers where w.waker.take() {
            w.handler()
            runDeferred()
        }
        while let i = dueTimerIndex(at: now) {
            let t = timers.remove(at: i)
            t.handler()
            runDeferred()
        }
    }

    /// Moves the clock to `time`, running each timer at its own time on the way, in order.
    public func advance(to time: Seconds) {
        run()
        while let next = timers.map(\.time).min(), next <= time {
            clock.set(next)
            run()
        }
        clock.set(time)
        run()
    }

    /// Moves the clock forward by `seconds` (see `advance(to:)`).
    public func advance(by seconds: Seconds) { advance(to: now + seconds) }

    /// Calls the handlers watching `fd` as if poll said it is ready for `events`.
    public func fire(_ fd: Int32, _ events: LoopEvents = .readable) {
        for w in watches where w.fd == fd {
            guard watches.contains(where: { $0.id == w.id }) else { continue }
            w.handler(events)
            runDeferred()
        }
        run()
    }

    /// Delivers `signal` to its handlers.
    public func raise(_ signal: Int32) {
        for s in signals where s.signal == signal {
            guard signals.contains(where: { $0.id == s.id }) else { continue }
            s.handler()
            runDeferred()
        }
        run()
    }

    private func runDeferred() {
        while !deferred.isEmpty {
            let work = deferred
            deferred.removeAll()
            for w in work { w() }
        }
    }

    private func dueTimerIndex(at t: Seconds) -> Int? {
        var best: Int?
        for (i, timer) in timers.enumerated() where timer.time <= t {
            if best == nil || timer.time < timers[best!].time { best = i }
        }
        return best
    }
}

/// The embedded loop's waker: `wake()` (from any thread) marks it; the loop's next `run` calls
/// its handler.
final class EmbeddedWaker: LoopWaker, Sendable {
    let token: LoopToken
    private let woken = Mutex(false)
    init(token: LoopToken) { self.token = token }
    func wake() { woken.withLock { $0 = true } }
    func take() -> Bool { woken.withLock { w in defer { w = false }; return w } }
}
