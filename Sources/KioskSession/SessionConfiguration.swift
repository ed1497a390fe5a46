import KioskPresentation
import KioskSeams
import KioskHUD
import KioskRaster

/// What the session does when the button is pressed or the screen is tapped outside the bezel.
public enum SessionAction {
    /// Nothing (observers still hear it).
    case none
    /// End the session with this exit code.
    case exit(Int32)
    /// Hide every HUD (animated), then end with exit code 0.
    case hide
    /// Call the owner (e.g. tell a daemon's subscribers, signal a child process).
    case call(() -> Void)
}

/// Why a session ended.
public enum SessionEnd: Sendable, Equatable {
    /// An action, the owner, or the HUDs hidden after `.hide`: the exit code.
    case exit(Int32)
    /// A quit signal arrived (its number).
    case signal(Int32)
    /// Something could not go on (a display could not be drawn on), and why.
    case failed(String)
}

/// What a session tells its observers.
public enum SessionEvent: Sendable, Equatable {
    /// A HUD's event (button, tap outside, hidden), from the display named.
    case hud(HUDEvent, display: String)
    /// The screen's event (displays changed, activated, deactivated, frame done).
    case screen(ScreenEvent)
    /// The first frame went on screen at this CLOCK_MONOTONIC time (a display's `firstFrameTime`).
    case firstFrame(Double)
    /// The HUDs were asked to show (`show`, `pushActivity`): an owner that lets the display go
    /// while there is nothing to show takes it now (a daemon started hidden).
    case showing
}

/// How a session's HUDs start and behave.
public struct SessionConfiguration {
    /// The look; `scale` is replaced by `scale` below or each display's own.
    public var style: HUDStyle
    /// What the HUDs show at first.
    public var content: HUDContent
    /// Grace time, minimum show time, animation.
    public var timing: PresentationConfig
    /// What lies under the HUD: a colour, and a picture scaled over it.
    public var underlayColor: Color
    public var underlay: Bitmap?
    /// How the underlay picture covers the frame.
    public var underlayFit = UnderlayFit.fill
    /// The logo picture (placed and sized as `style` says), or none.
    public var logo: Bitmap?
    /// Pixels per point for every display; nil: each display's own (its panel's size).
    public var scale: Double?
    /// Keys (Linux key codes) that press the button.
    public var buttonKeys: [Int]
    /// Report taps outside the bezel.
    public var tapOutside: Bool
    public var onButton: SessionAction
    public var onTapOutside: SessionAction
    /// Fade (or zoom) in instead of appearing at once.
    public var animateIn: Bool
    /// The signals that end the session (e.g. SIGINT, SIGTERM, SIGHUP).
    public var quitSignals: [Int32]
    /// Start hidden (a daemon that waits for its first `show`).
    public var startHidden: Bool

    public init(style: HUDStyle = HUDStyle(), content: HUDContent = HUDContent(), timing: PresentationConfig = PresentationConfig(),
                underlayColor: Color = .black, underlay: Bitmap? = nil, scale: Double? = nil, buttonKeys: [Int] = [28, 57, 1, 96],
                tapOutside: Bool = false, onButton: SessionAction = .none, onTapOutside: SessionAction = .none,
                animateIn: Bool = false, quitSignals: [Int32] = [], startHidden: Bool = false) {
        self.style = style; self.content = content; self.timing = timing
        self.underlayColor = underlayColor; self.underlay = underlay; self.scale = scale
        self.buttonKeys = buttonKeys; self.tapOutside = tapOutside
        self.onButton = onButton; self.onTapOutside = onTapOutside
        self.animateIn = animateIn; self.quitSignals = quitSignals; self.startHidden = startHidden
    }
}
