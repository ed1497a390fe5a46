// The event loop seam: one thread waits for descriptors, timers and signals, and calls the
// handlers registered for them (as NIO's EventLoop or sd-event). Backends register their
// descriptors (the DRM card's flip events, libinput, the hotplug socket, a control socket)
// instead of running a poll of their own, so one wait serves all of them and nothing blocks
// another. KioskSys has the real loop (poll(2), one signalfd); KioskTestDoubles has the test
// double, whose time moves only when a test moves it.

/// What a watched descriptor is ready for (poll(2)'s POLLIN, POLLOUT, POLLHUP, POLLERR).
public struct LoopEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    public static let readable = LoopEvents(rawValue: 0x001)
    public static let writable = LoopEvents(rawValue: 0x004)
    public static let error = LoopEvents(rawValue: 0x008)
    public static let hangup = LoopEvents(rawValue: 0x010)
}

/// A registration with an event loop (a watched descriptor, a timer, a signal handler); pass
/// it to `EventLoop.cancel` to end it.
public struct LoopToken: Hashable, Sendable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// One thread's wait for descriptors, timers and signals. Every handler runs on the loop's
/// thread, one at a time, in the order the events were seen; a handler may register and cancel
/// anything (a cancelled registration's handler is not called again, even later in the same
/// turn).
public protocol EventLoop: AnyObject {
    /// The loop's clock (the HUD's), in seconds.
    var now: Seconds { get }

    /// Calls `handler` with what `fd` is ready for, each time it is, until cancelled. `events`
    /// says what to wait for (errors and hang-ups are always reported).
    @discardableResult
    func watch(_ fd: Int32, _ events: LoopEvents, _ handler: @escaping (LoopEvents) -> Void) -> LoopToken

    /// Changes what a watched descriptor waits for (e.g. `.writable` only while output is queued).
    func setEvents(_ token: LoopToken, _ events: LoopEvents)

    /// Calls `handler` once at `time` (on this loop's clock), or at the next turn if that has passed.
    @discardableResult
    func schedule(at time: Seconds, _ handler: @escaping () -> Void) -> LoopToken

    /// Calls `handler` each time `signal` arrives, until cancelled. The signal is blocked and read
    /// through the loop's one signalfd while any handler for it is registered (so it never
    /// interrupts a system call, and never kills the process while handled).
    @discardableResult
    func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> LoopToken

    /// Runs `handler` on the loop's thread after the current handler, before the loop waits again.
    func execute(_ handler: @escaping () -> Void)

    /// Ends a registration (idempotent).
    func cancel(_ token: LoopToken)

    /// Makes `run` return after the current turn.
    func stop()

    /// Whether one of `signals` has arrived and waits to be handled: a long piece of work (a
    /// full frame on a large canvas) asks this between its parts and stops early, so a quit is
    /// answered at once.
    func isSignalPending(_ signals: [Int32]) -> Bool

    /// A way for another thread to have `handler` run on this loop (`LoopWaker.wake()`); the
    /// handler runs once per turn however many wakes came. Cancel `waker.token` to end it.
    func makeWaker(_ handler: @escaping () -> Void) throws -> LoopWaker
}

/// Wakes an event loop from another thread (the accelerometer's sampler thread has a sample).
public protocol LoopWaker: AnyObject, Sendable {
    /// Has the loop run the waker's handler soon. Safe from any thread.
    func wake()
    /// The loop's registration of this waker.
    var token: LoopToken { get }
}

extension EventLoop {
    /// Calls `handler` once, `delay` seconds from now.
    @discardableResult
    public func schedule(after delay: Seconds, _ handler: @escaping () -> Void) -> LoopToken {
        schedule(at: now + (delay.isFinite ? max(0, delay) : 0), handler)
    }
}
