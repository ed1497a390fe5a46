// KioskTestDoubles — test doubles for the device seams, shipped as a real module (as SwiftNIO ships
// NIOEmbedded): an offscreen display that keeps every presented frame and its damage, scripted
// input and motion that replay events at given times, and a manual clock. (kiosk-hud's
// `--offscreen` draws on the offscreen display too.) Named for what it holds: KioskEmbedded, its
// earlier name, read as code for embedded boards; that module now only re-exports this one.
import KioskDevices
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

/// A display in memory: keeps a copy of the picture as presented (only damaged rectangles are
/// copied, as a real display does), counts the presents and remembers the last few.
public final class OffscreenDisplay: Display {
    public struct Present: Sendable, Equatable {
        public var damage: [IntRect]
        public var area: Int
    }

    public let width: Int
    public let height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    public let name: String
    public let scale: Double
    /// The picture as presented so far (1×1 and never written when `keepsPicture` is false).
    public let screen: Bitmap
    /// Whether presents are copied into `screen`. `show --offscreen -` shows nothing to anyone:
    /// without the copy it costs one canvas, not two (at 8192x8192, 256 MB less).
    public let keepsPicture: Bool
    /// How many presents so far.
    public private(set) var presentCount = 0
    /// The last `recentLimit` presents, oldest first (bounded: a HUD may run for days).
    public private(set) var recentPresents: [Present] = []
    public static let recentLimit = 64
    /// The last present, if any.
    public var lastPresent: Present? { recentPresents.last }
    /// Keep a full copy of each presented frame (off by default: memory; tests only).
    public var keepFrames = false
    public private(set) var frames: [Bitmap] = []
    /// Where `firstFrameTime` is read from (e.g. CLOCK_MONOTONIC seconds); nil: not recorded.
    public var timeSource: (() -> Double)?
    /// Called after each present (a test noting what was shown, a benchmark timing frames).
    public var onPresent: (() -> Void)?
    public private(set) var firstFrameTime: Double?

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, rotation: Rotation = .none,
                name: String = "offscreen", scale: Double = 1, keepsPicture: Bool = true) throws {
        self.width = width; self.height = height; preferredFormat = format
        self.name = name; self.scale = scale
        self.keepsPicture = keepsPicture
        transform = DisplayTransform(rotation: rotation, width: width, height: height)
        screen = try Bitmap(width: keepsPicture ? width : 1, height: keepsPicture ? height : 1, format: format)
    }

    public func present(_ frame: Surface, damage: Damage) throws {
        precondition(frame.width == width && frame.height == height, "frame size differs from the display")
        let rects = damage.rects(in: IntRect(x: 0, y: 0, width: width, height: height))
        if keepsPicture {
            let canvas = Canvas(screen.surface)
            for r in rects { canvas.copy(from: frame, rect: r) }
        }
        presentCount += 1
        if recentPresents.count == Self.recentLimit { recentPresents.removeFirst() }
        recentPresents.append(Present(damage: rects, area: rects.reduce(0) { $0 + $1.area }))
        if firstFrameTime == nil, let t = timeSource { firstFrameTime = t() }
        if keepFrames && keepsPicture {
            let b = try Bitmap(width: width, height: height, format: preferredFormat)
            Canvas(b.surface).copy(from: screen.surface)
            frames.append(b)
        }
        onPresent?()
    }
}

/// A screen of one offscreen display (the `--offscreen` stand-in for a real screen, and the
/// screen of tests): active unless suspended, no hotplug, every frame done at once.
public final class OffscreenScreen: Screen {
    public let display: OffscreenDisplay
    public var displays: [Display] { [display] }
    public private(set) var isActive = true
    public private(set) var isSuspended = false
    private var handler: ((ScreenEvent) -> Void)?
    private var loop: EventLoop?

    public init(_ display: OffscreenDisplay) { self.display = display }

    public func attach(to loop: EventLoop, _ handler: @escaping (ScreenEvent) -> Void) throws { self.handler = handler; self.loop = loop }
    public func close(retain: Bool) { handler = nil }

    /// Stops drawing (the picture stays as it is) until `resume`; the handler hears it after
    /// the current turn, as from a real screen.
    public func suspend() {
        guard !isSuspended else { return }
        isSuspended = true
        isActive = false
        tell(.deactivated)
    }

    public func resume() {
        guard isSuspended else { return }
        isSuspended = false
        isActive = true
        tell(.activated)
    }

    private func tell(_ e: ScreenEvent) {
        loop?.execute { [weak self] in self?.handler?(e) }
    }

    public var summary: String { "presents=\(display.presentCount)" }
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
