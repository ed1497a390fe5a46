/// Timing configuration of a `PresentationMachine` (MBProgressHUD's properties).
///
/// Every duration is sanitised on assignment: NaN, ±∞ and negative values become 0.
public struct PresentationConfig: Sendable, Equatable {
    private var _graceTime: Double
    private var _minShowTime: Double
    private var _animationDuration: Double

    /// Seconds to wait after `show` before the HUD is drawn at all; a hide
    /// before it expires means the HUD is never shown. 0 = show immediately.
    public var graceTime: Double {
        get { _graceTime }
        set { _graceTime = newValue.sanitizedDuration }
    }

    /// Minimum seconds the HUD stays on screen once drawn; an earlier hide is
    /// postponed to `showStarted + minShowTime`. 0 = no minimum.
    public var minShowTime: Double {
        get { _minShowTime }
        set { _minShowTime = newValue.sanitizedDuration }
    }

    /// Show/hide transition style.
    public var animation: AnimationKind

    /// Duration of animated show/hide transitions (0 = animated transitions are instant).
    public var animationDuration: Double {
        get { _animationDuration }
        set { _animationDuration = newValue.sanitizedDuration }
    }

    /// Curve of show/hide transitions (default: MBProgressHUD's critically damped spring).
    public var curve: TimingCurve

    /// Creates a configuration; defaults match MBProgressHUD.
    public init(graceTime: Double = 0, minShowTime: Double = 0,
                animation: AnimationKind = .fade, animationDuration: Double = 0.3,
                curve: TimingCurve = .spring) {
        _graceTime = graceTime.sanitizedDuration
        _minShowTime = minShowTime.sanitizedDuration
        _animationDuration = animationDuration.sanitizedDuration
        self.animation = animation
        self.curve = curve
    }
}
