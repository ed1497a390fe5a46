// KioskTestDoubles — test doubles for the seams, shipped as a real module (as SwiftNIO ships
// NIOEmbedded): scripted input and motion that replay events at given times, a manual clock, and
// an event loop moved by hand (`EmbeddedEventLoop`). The offscreen screen that tests draw on is
// KioskOffscreen's (kiosk-hud's `--offscreen` is production code, so it lives apart from the
// doubles); this module re-exports it. Named for what it holds: KioskEmbedded, its earlier name,
// read as code for embedded boards; that module now only re-exports this one.
@_exported import KioskOffscreen
import KioskSeams
import KioskRaster

/// A clock that moves only when told.
public final class ManualClock: Clock, @unchecked Sendable {
    public private(set) var now: Seconds
    public init(_ start: Seconds = 0) { now = start }
    /// Moves forward by `dt` (negative or NaN is ignored: time never goes back).
    public func advance(by dt: Seconds) { if dt > 0 { now += dt } }
    /// Moves to `t` if that is later.
    public func set(_ t: Seconds) { if t > now { now = t } }
}

/// Calls a `ready` handler on a loop at the times of scripted events (ScriptedInput, ScriptedMotion).
final class ScriptedTimes {
    private var loop: EventLoop?
    private var ready: (() -> Void)?
    private var tokens: [LoopToken] = []

    func attach(to loop: EventLoop, _ ready: @escaping () -> Void, times: [Seconds]) {
        detach()
        self.loop = loop
        self.ready = ready
        for t in times { add(t) }
    }

    func add(_ time: Seconds) {
        guard let loop, let ready else { return }
        tokens.append(loop.schedule(at: time) { ready() })
    }

    func detach() {
        for t in tokens { loop?.cancel(t) }
        tokens = []
        loop = nil
        ready = nil
    }
}

/// Input replayed from a script of timed events.
public final class ScriptedInput: InputSource {
    private var queue: [TimedInputEvent]
    private let times = ScriptedTimes()
    public init(_ events: [TimedInputEvent] = []) { queue = events.sorted { $0.time < $1.time } }

    /// Adds an event at `time`.
    public func add(_ event: InputEvent, at time: Seconds) {
        queue.append(TimedInputEvent(time: time, event: event))
        queue.sort { $0.time < $1.time }
        times.add(time)
    }

    /// A tap: down, frame, up, frame, `duration` apart.
    public func tap(x: Double, y: Double, at time: Seconds, duration: Seconds = 0.05, slot: Int = 0) {
        add(.touchDown(slot: slot, x: x, y: y), at: time)
        add(.touchFrame, at: time)
        add(.touchUp(slot: slot), at: time + duration)
        add(.touchFrame, at: time + duration)
    }

    public func events(until time: Seconds) -> [TimedInputEvent] {
        let n = queue.prefix { $0.time <= time }.count
        let out = Array(queue.prefix(n))
        queue.removeFirst(n)
        return out
    }

    public func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws {
        times.attach(to: loop, ready, times: queue.map(\.time))
    }

    public func detach() { times.detach() }
}

/// Acceleration samples replayed from a script.
public final class ScriptedMotion: MotionSource {
    private var queue: [AccelerationSample]
    private let times = ScriptedTimes()
    /// Whether the scripted sensor counts as delivering (set false to play a lost sensor).
    public var delivering = true
    public init(_ samples: [AccelerationSample] = []) { queue = samples.sorted { $0.time < $1.time } }

    public func add(_ s: AccelerationSample) {
        queue.append(s)
        queue.sort { $0.time < $1.time }
        times.add(s.time)
    }

    /// Samples every `interval` from `start` to `end` of a constant gravity vector.
    public func hold(x: Double, y: Double, z: Double, from start: Seconds, to end: Seconds, interval: Seconds = 1.0 / 30) {
        var t = start
        while t <= end {
            add(AccelerationSample(time: t, x: x, y: y, z: z))
            t += interval
        }
    }

    public func samples(until time: Seconds) -> [AccelerationSample] {
        let n = queue.prefix { $0.time <= time }.count
        let out = Array(queue.prefix(n))
        queue.removeFirst(n)
        return out
    }

    public func isDelivering(at time: Seconds) -> Bool { delivering }

    public func attach(to loop: EventLoop, _ ready: @escaping () -> Void) throws {
        times.attach(to: loop, ready, times: queue.map(\.time))
    }

    public func detach() { times.detach() }
}
