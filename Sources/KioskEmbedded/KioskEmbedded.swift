// KioskEmbedded — test doubles for the device seams, shipped as a real module (as SwiftNIO ships
// NIOEmbedded): an offscreen display that keeps every presented frame and its damage, scripted
// input and motion that replay events at given times, and a manual clock.
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
/// copied, as a real display does) and a log of every present.
public final class OffscreenDisplay: Display {
    public struct Present: Sendable, Equatable {
        public var damage: [IntRect]
        public var area: Int
    }

    public let width: Int
    public let height: Int
    public let preferredFormat: PixelFormat
    public let transform: DisplayTransform
    /// The picture as presented so far.
    public let screen: Bitmap
    /// Every present, in order.
    public private(set) var presents: [Present] = []
    /// Keep a full copy of each presented frame (off by default: memory).
    public var keepFrames = false
    public private(set) var frames: [Bitmap] = []

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, rotation: Rotation = .none) throws {
        self.width = width; self.height = height; preferredFormat = format
        transform = DisplayTransform(rotation: rotation, width: width, height: height)
        screen = try Bitmap(width: width, height: height, format: format)
    }

    public func present(_ frame: Surface, damage: DamageRegion) throws {
        precondition(frame.width == width && frame.height == height, "frame size differs from the display")
        let rects = damage.isEmpty ? [screen.surface.bounds] : damage.clipped(to: screen.surface.bounds).rects
        let canvas = Canvas(screen.surface)
        for r in rects { canvas.copy(from: frame, rect: r) }
        presents.append(Present(damage: rects, area: rects.reduce(0) { $0 + $1.area }))
        if keepFrames {
            let b = try Bitmap(width: width, height: height, format: preferredFormat)
            Canvas(b.surface).copy(from: screen.surface)
            frames.append(b)
        }
    }
}

/// Input replayed from a script of timed events.
public final class ScriptedInput: InputSource {
    private var queue: [TimedInputEvent]
    public init(_ events: [TimedInputEvent] = []) { queue = events.sorted { $0.time < $1.time } }

    /// Adds an event at `time`.
    public func add(_ event: InputEvent, at time: Seconds) {
        queue.append(TimedInputEvent(time: time, event: event))
        queue.sort { $0.time < $1.time }
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
}

/// Acceleration samples replayed from a script.
public final class ScriptedMotion: MotionSource {
    private var queue: [AccelerationSample]
    public init(_ samples: [AccelerationSample] = []) { queue = samples.sorted { $0.time < $1.time } }

    public func add(_ s: AccelerationSample) {
        queue.append(s)
        queue.sort { $0.time < $1.time }
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
}
