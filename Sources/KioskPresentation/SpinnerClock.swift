/// Timing of the indeterminate activity indicator.
///
/// The spoke spinner (UIActivityIndicatorView style) advances one of `steps`
/// spokes every `period / steps` seconds (default 12 steps per 1 s, i.e. one
/// step per 1/12 s); a ring spinner uses the continuous `angle(at:)`.
/// Phases are measured from `origin`, so restarting the spinner means making
/// a new clock with `origin: now`.
public struct SpinnerClock: Sendable, Equatable {
    /// Number of discrete phases per revolution (≥ 1).
    public let steps: Int
    /// Seconds per revolution (> 0 and finite).
    public let period: Double
    /// Time at which phase 0 / angle 0 begins.
    public let origin: Double

    /// Creates a clock. `steps < 1` becomes 1; a non-positive or non-finite
    /// `period` becomes 1 s; a non-finite `origin` becomes 0.
    public init(steps: Int = 12, period: Double = 1, origin: Double = 0) {
        self.steps = Swift.max(1, steps)
        self.period = period.isFinite && period > 0 ? period : 1
        self.origin = origin.isFinite ? origin : 0
    }

    /// Seconds between phase changes.
    public var stepDuration: Double { period / Double(steps) }

    /// Fraction of the current revolution at `now`, in 0..<1 (0 for non-finite times).
    public func revolutionFraction(at now: Double) -> Double {
        let cycles = (now - origin) / period
        guard cycles.isFinite else { return 0 }
        let f = cycles - cycles.rounded(.down)
        return f < 1 ? Swift.max(0, f) : 0
    }

    /// Index of the highlighted spoke at `now`, in 0..<steps (works before `origin` too).
    public func phase(at now: Double) -> Int {
        let cycles = (now - origin) / period
        guard cycles.isFinite else { return 0 }
        let stepIndex = (cycles * Double(steps)).rounded(.down)
        let count = Double(steps)
        var m = stepIndex - count * (stepIndex / count).rounded(.down)
        if !(m >= 0 && m < count) { m = 0 }   // huge values lose precision
        return Int(m)
    }

    /// Continuous rotation at `now` in radians, in 0..<2π.
    public func angle(at now: Double) -> Double {
        revolutionFraction(at: now) * 2 * Double.pi
    }

    /// The first time strictly after `now` at which `phase` changes (a
    /// frame-scheduling deadline). Non-finite `now` gives `origin + stepDuration`.
    public func nextPhaseChange(after now: Double) -> Double {
        guard now.isFinite else { return origin + stepDuration }
        let step = stepDuration
        let index = ((now - origin) / step).rounded(.down)
        let next = origin + (index + 1) * step
        return next > now ? next : now.nextUp
    }
}
