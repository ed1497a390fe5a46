/// The displayed value of a determinate progress indicator, eased towards its target.
///
/// Animated changes run from the value displayed at the time of the change
/// (so retargeting mid-animation never jumps) to the new target along
/// `curve` over `duration` (default: critically damped spring, 0.2 s).
///
/// Sanitising: NaN keeps the previous target (0 initially); ±∞ and values
/// outside 0…1 clamp to 0…1. Times follow the same rules as `PresentationMachine`.
public struct ProgressAnimator: Sendable, Equatable {
    /// Seconds an animated change takes (NaN, ±∞ and negative become 0 = jump).
    public var duration: Double {
        get { _duration }
        set { _duration = newValue.sanitizedDuration }
    }

    /// Curve of animated changes.
    public var curve: TimingCurve

    /// The value being animated towards (the last accepted `set`).
    public private(set) var target: Double

    private var _duration: Double
    private var from: Double
    private var start: Double = 0
    private var span: Double = 0
    private var clock = MonotonicTime()

    /// Creates an animator displaying `initial` (sanitised; NaN → 0).
    public init(initial: Double = 0, duration: Double = 0.2, curve: TimingCurve = .spring) {
        let value = initial.clampedUnit(nanFallback: 0)
        self.target = value
        self.from = value
        self._duration = duration.sanitizedDuration
        self.curve = curve
    }

    /// Sets a new target. Animated: eases from the currently displayed value;
    /// otherwise the displayed value jumps.
    public mutating func set(_ value: Double, animated: Bool, at now: Double) {
        let now = clock.accept(now)
        let newTarget = value.clampedUnit(nanFallback: target)
        let current = self.value(at: now)
        target = newTarget
        from = current
        start = now
        span = animated && current != newTarget ? _duration : 0
    }

    /// The value to display at `now`, in 0…1.
    public func value(at now: Double) -> Double {
        let t = clock.peek(now)
        if t >= start + span { return target }
        let p = curve.progress(elapsed: t - start, duration: span)
        if p >= 1 { return target }
        return (from + (target - from) * p).clampedUnit(nanFallback: target)
    }

    /// Whether the displayed value is still moving at `now`.
    public func isAnimating(at now: Double) -> Bool {
        span > 0 && clock.peek(now) < start + span
    }

    /// When the running animation ends (nil when at rest).
    public var animationEnd: Double? {
        span > 0 ? start + span : nil
    }
}
