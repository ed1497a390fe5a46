import KioskBehavior
import KioskDevices
import KioskRaster
import KioskText

/// A HUD on a display: MBProgressHUD's API over the pure state machines of KioskBehavior, the
/// renderer, and the device seams. Single-threaded: call it from one place (the frame loop).
///
///     let hud = try HUD(display: display, clock: clock, fonts: FontLibrary())
///     hud.content = HUDContent(mode: .annular, label: "Updating…")
///     hud.show()
///     while true {
///         hud.progress = work.fraction
///         let next = try hud.tick()      // draws and presents what changed
///         sleep(until: next ?? forever)  // or wait for a page flip
///     }
public final class HUD {
    public let display: Display
    public let clock: Clock
    public let renderer: HUDRenderer
    private var presentation: PresentationMachine
    private var progressAnimator = ProgressAnimator()
    private var spinner: SpinnerClock
    private var motion: (x: Double, y: Double) = (0, 0)
    private var firstPresent = true
    /// Called once each time a hide completes (MBProgressHUD's completionBlock).
    public var onCompletion: (() -> Void)?
    /// The button is drawn pressed.
    public var buttonPressed = false

    /// Timing rules: grace time, minimum show time, animation.
    public var presentationConfig: PresentationConfig {
        get { presentation.config }
        set { presentation.config = newValue }
    }

    public init(display: Display, clock: Clock, fonts: FontLibrary, style: HUDStyle = HUDStyle(),
                content: HUDContent = HUDContent(), config: PresentationConfig = PresentationConfig()) throws {
        self.display = display
        self.clock = clock
        renderer = try HUDRenderer(width: display.width, height: display.height, format: display.preferredFormat,
                                   fonts: fonts, style: style, content: content)
        presentation = PresentationMachine(config: config)
        spinner = SpinnerClock(origin: clock.now)
        progressAnimator.set(content.progress, animated: false, at: clock.now)
    }

    /// What the HUD shows. Changing the label, details, mode or button lays it out again.
    public var content: HUDContent {
        get { renderer.content }
        set {
            let old = renderer.content.progress
            try? renderer.update(content: newValue)
            if newValue.progress != old || newValue.progress.isNaN { progressAnimator.set(newValue.progress, animated: false, at: clock.now) }
        }
    }

    public var style: HUDStyle {
        get { renderer.style }
        set { try? renderer.update(style: newValue) }
    }

    /// The progress (0…1). Setting it jumps; use `setProgress(_:animated:)` to ease.
    public var progress: Double {
        get { progressAnimator.target }
        set { setProgress(newValue, animated: false) }
    }

    public func setProgress(_ p: Double, animated: Bool) {
        progressAnimator.set(p, animated: animated, at: clock.now)
        var c = renderer.content
        c.progress = progressAnimator.target
        try? renderer.update(content: c)
    }

    /// Tilt from the motion source, each axis −1…1; moved by ±`style.motionDepth` points.
    public func setMotion(x: Double, y: Double) { motion = (x, y) }

    // MARK: Show and hide

    public func show(animated: Bool = true) { handle(presentation.show(animated: animated, at: clock.now)) }
    public func hide(animated: Bool = true) { handle(presentation.hide(animated: animated, at: clock.now)) }
    public func hide(animated: Bool = true, afterDelay delay: Double) {
        handle(presentation.hide(animated: animated, afterDelay: delay, at: clock.now))
    }
    /// SVProgressHUD's activity count: each push shows, the pop that brings it to 0 hides.
    public func pushActivity() { handle(presentation.pushActivity(at: clock.now)) }
    public func popActivity() { handle(presentation.popActivity(at: clock.now)) }

    /// Whether the HUD is on screen (including its hide animation).
    public var isVisible: Bool { presentation.appearance(at: clock.now).isVisible }

    private func handle(_ actions: [PresentationAction]) {
        for a in actions where a == .completed { onCompletion?() }
    }

    // MARK: Frames

    /// The frame state for now.
    public func frameState() -> HUDFrameState {
        let now = clock.now
        let a = presentation.appearance(at: now)
        let sc = renderer.style.scale > 0 ? renderer.style.scale : 1
        let d = MotionOffset.map(x: motion.x, y: motion.y, depth: renderer.style.motionDepth * sc)
        return HUDFrameState(visible: a.isVisible, opacity: a.opacity, scale: a.scale,
                             progress: progressAnimator.value(at: now), spinnerPhase: spinner.phase(at: now),
                             motionX: d.dx, motionY: d.dy, buttonPressed: buttonPressed)
    }

    /// Fires due timers, draws what changed and presents it. Returns the damage presented (empty
    /// when nothing changed) and when the next frame is due (nil: nothing until the next event).
    @discardableResult
    public func tick() throws -> (damage: DamageRegion, next: Seconds?) {
        let now = clock.now
        handle(presentation.advance(to: now))
        let state = frameState()
        let damage = renderer.render(state)
        if !damage.isEmpty || firstPresent {
            try display.present(renderer.shadow.surface, damage: firstPresent ? DamageRegion() : damage)
            firstPresent = false
        }
        return (damage, nextFrame(after: now, state: state))
    }

    func nextFrame(after now: Seconds, state: HUDFrameState) -> Seconds? {
        var next = presentation.nextDeadline
        func earliest(_ t: Seconds?) { if let t, t > now { next = min(next ?? t, t) } }
        let frame = now + 1.0 / 60
        if presentation.isAnimating(at: now) || progressAnimator.isAnimating(at: now) { earliest(frame) }
        if state.visible && renderer.content.mode == .indeterminate { earliest(spinner.nextPhaseChange(after: now)) }
        return next
    }
}
