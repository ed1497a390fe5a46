// Glue for the frame loop: a motion source in, the tilt for HUD.setMotion out.
import KioskPresentation
import KioskSeams

/// Feeds a `MotionSource`'s samples through a `TiltFilter` and eases back to centre when the
/// source stops delivering (`MotionSource.isDelivering`). Single-threaded: the frame loop owns it.
///
///     let tilt = tracker.update(at: clock.now)     // each frame
///     hud.setMotion(x: tilt.x, y: tilt.y)
///     if tracker.isMoving(at: clock.now) { /* keep drawing frames */ }
public final class TiltTracker {
    /// Where the samples come from.
    public let source: any MotionSource
    /// The filter state (see `TiltFilter`).
    public private(set) var filter: TiltFilter
    /// The newest sample taken.
    public private(set) var lastSample: AccelerationSample?

    public init(source: any MotionSource, config: TiltFilter.Config = TiltFilter.Config()) {
        self.source = source
        filter = TiltFilter(config: config)
    }

    /// The filter's settings (rotation, reduce motion, …); changes apply from the next sample.
    public var config: TiltFilter.Config {
        get { filter.config }
        set { filter.config = newValue }
    }

    /// Takes every sample up to `time`, checks the source is still delivering, and returns the
    /// tilt (−1…1 per axis, picture axes) for `HUD.setMotion(x:y:)`.
    @discardableResult
    public func update(at time: Seconds) -> (x: Double, y: Double) {
        for s in source.samples(until: time) { feed(s) }
        checkHealth(at: time)
        return filter.value(at: time)
    }

    /// Feeds one sample (for callers that take samples themselves).
    public func feed(_ s: AccelerationSample) {
        filter.add(x: s.x, y: s.y, z: s.z, at: s.time)
        lastSample = s
    }

    /// Releases the filter (eases back to centre) if the source says it is not delivering.
    public func checkHealth(at time: Seconds) {
        if !source.isDelivering(at: time) { filter.release(at: time) }
    }

    /// The tilt at `time` without taking samples.
    public func value(at time: Seconds) -> (x: Double, y: Double) { filter.value(at: time) }

    /// The offset in pixels for `depth`.
    public func offset(at time: Seconds, depth: Double) -> (dx: Double, dy: Double) { filter.offset(at: time, depth: depth) }

    /// Whether the tilt is still easing (keep drawing frames until it is not).
    public func isMoving(at time: Seconds) -> Bool { filter.isMoving(at: time) }
}
