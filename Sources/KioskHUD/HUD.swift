import KioskPresentation
import KioskSeams
import KioskRaster
import KioskText

/// What a HUD tells its observers.
public enum HUDEvent: Sendable, Equatable {
    /// The button was pressed (touch-up inside, mouse, or an activation key).
    case buttonPressed
    /// A tap outside the bezel, when `buttonConfig.tapOutside` is on.
    case tappedOutside
    /// A hide completed (MBProgressHUD's completionBlock): once per hide.
    case hidden
}

/// A HUD on a display: MBProgressHUD's API over the pure state machines of KioskPresentation, the
/// renderer, and the device seams. Single-threaded: call it from one place (the frame loop).
///
///     let hud = try HUD(display: display, clock: clock, fonts: FontLibrary())
///     try hud.update(content: HUDContent(mode: .annular, label: "Updating…"))
///     hud.addObserver { if $0 == .buttonPressed { cancel() } }
///     hud.show()
///     while true {
///         hud.setProgress(work.fraction, animated: true)
///         let next = try hud.tick().next   // draws and presents what changed
///         sleep(until: next ?? forever)    // or wait for a page flip (HUDSession does this)
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
    /// The button is drawn pressed.
    public var buttonPressed = false
    private var tracker = ButtonTracker()
    private var observers: [(HUDEvent) -> Void] = []
    private var pointer: (x: Double, y: Double) = (0, 0)
    /// The input region last given to an overlay display (`followInputRegion`); unset at first.
    private var inputRegion: [IntRect]?? = .none

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
        renderer.transparentUnderlay = display.isOverlay
        presentation = PresentationMachine(config: config)
        spinner = SpinnerClock(origin: clock.now)
        progressAnimator.set(content.progress, animated: false, at: clock.now)
    }

    /// On a display over another program's picture (`Display.isOverlay`): draw the underlay
    /// there too, as on a display of our own — the splash's whole picture, covering the program
    /// (taking input on the whole picture while shown), rather than the HUD alone over it. The
    /// owner sets the underlay again after turning this on (`HUDRenderer.setUnderlay`).
    public var drawsUnderlay = false {
        didSet {
            guard drawsUnderlay != oldValue else { return }
            renderer.transparentUnderlay = display.isOverlay && !drawsUnderlay
            inputRegion = .none
        }
    }

    /// Continues what `other` (the HUD of a display that went away) was in the middle of: shown
    /// or hidden and its animation, the activity count, the progress and its easing, the
    /// spinner's clock (it keeps turning from where it was) and the tilt. Its content and style
    /// are the session's, which made this one. The next tick draws the whole picture.
    public func carryState(from other: HUD) {
        presentation = other.presentation
        progressAnimator = other.progressAnimator
        spinner = other.spinner
        motion = other.motion
        firstPresent = true
    }

    /// What the HUD shows. Change it with `update(content:)`.
    public var content: HUDContent { renderer.content }

    /// How the HUD looks. Change it with `update(style:)`.
    public var style: HUDStyle { renderer.style }

    /// Changes what the HUD shows; the label, details, mode, button or image lay it out again
    /// when the next frame is drawn (updates between two frames cost one layout). Still
    /// `throws`, for the API's sake: the style's fonts are open already, so new content does
    /// not fail to lay out; a style that cannot be laid out throws from `update(style:)`.
    public func update(content newValue: HUDContent) throws {
        let old = renderer.content.progress
        try renderer.update(content: newValue)
        if newValue.progress != old || newValue.progress.isNaN { progressAnimator.set(newValue.progress, animated: false, at: clock.now) }
    }

    /// Changes how the HUD looks; throws (and changes nothing) when it cannot be laid out so.
    public func update(style newValue: HUDStyle) throws { try renderer.update(style: newValue) }

    /// The progress (0…1) being shown or eased to.
    public var progress: Double { progressAnimator.target }

    /// Sets the progress (0…1; out of range is clamped, NaN ignored), easing to it when `animated`.
    public func setProgress(_ p: Double, animated: Bool) {
        progressAnimator.set(p, animated: animated, at: clock.now)
        // Only the progress changes: no layout, so this cannot fail.
        renderer.setProgress(progressAnimator.target)
    }

    /// Tilt from the motion source, each axis −1…1; moved by ±`style.motionDepth` points.
    public func setMotion(x: Double, y: Double) { motion = (x, y) }

    // MARK: Input

    /// How the button reacts to touches, the mouse and keys.
    public var buttonConfig: ButtonTrackerConfig {
        get { tracker.config }
        set { tracker.config = newValue }
    }

    /// Calls `observer` on every button press, tap outside and completed hide, in the order
    /// observers were added (they are kept for the HUD's lifetime). KioskHUDAsync's
    /// `buttonEvents()` makes an AsyncStream from this.
    public func addObserver(_ observer: @escaping (HUDEvent) -> Void) {
        observers.append(observer)
    }

    private func tell(_ e: HUDEvent) { for o in observers { o(e) } }

    // The closures of the earlier API, called by one observer added when the first is set.
    private var completionBlock: (() -> Void)?
    private var buttonBlock: (() -> Void)?
    private var tapOutsideBlock: (() -> Void)?
    private var blocksObserved = false

    private func observeBlocks() {
        guard !blocksObserved else { return }
        blocksObserved = true
        // Unowned: the HUD keeps its observers, so this one never outlives it.
        addObserver { [unowned self] event in
            switch event {
            case .hidden: completionBlock?()
            case .buttonPressed: buttonBlock?()
            case .tappedOutside: tapOutsideBlock?()
            }
        }
    }

    /// Called once each time a hide completes (MBProgressHUD's completionBlock); nil calls nothing.
    /// Deprecated in 0.1.0, to be removed in 0.2.0 at the earliest: an observer sees the same
    /// moment as `.hidden`, after the observers added before the first closure was set.
    @available(*, deprecated, message: "use addObserver { if $0 == .hidden { … } }")
    public var onCompletion: (() -> Void)? {
        get { completionBlock }
        set { completionBlock = newValue; observeBlocks() }
    }

    /// Called when the button is pressed. Deprecated in 0.1.0 (removed in 0.2.0 at the earliest).
    @available(*, deprecated, message: "use addObserver { if $0 == .buttonPressed { … } }")
    public var onButton: (() -> Void)? {
        get { buttonBlock }
        set { buttonBlock = newValue; observeBlocks() }
    }

    /// Called on a tap outside the bezel, when `buttonConfig.tapOutside` is on. Deprecated in
    /// 0.1.0 (removed in 0.2.0 at the earliest).
    @available(*, deprecated, message: "use addObserver { if $0 == .tappedOutside { … } }")
    public var onTapOutside: (() -> Void)? {
        get { tapOutsideBlock }
        set { tapOutsideBlock = newValue; observeBlocks() }
    }

    /// Feeds input events (picture coordinates) to the button. Touches land where the button is
    /// drawn now, motion offset included; while the HUD is hidden or animating out, the button
    /// takes nothing. Nothing is passed on: the HUD owns the screen.
    public func handle(_ events: [TimedInputEvent]) {
        updateTrackerGeometry()
        for e in events {
            let pe: PointerEvent?
            switch e.event {
            case let .touchDown(slot, x, y): pe = .down(id: slot, x: x, y: y)
            case let .touchMotion(slot, x, y): pe = .move(id: slot, x: x, y: y)
            case let .touchUp(slot): pe = .up(id: slot)
            case let .touchCancel(slot): pe = .cancel(id: slot)
            case .touchFrame: pe = nil
            case let .pointerMotion(x, y):
                pointer = (x, y)
                pe = .move(id: -1, x: x, y: y)
            case let .pointerButton(pressed): pe = pressed ? .down(id: -1, x: pointer.x, y: pointer.y) : .up(id: -1)
            case let .key(code, pressed): pe = .key(code: code, pressed: pressed)
            }
            if let pe { apply(tracker.handle(pe, at: e.time)) }
        }
    }

    private func updateTrackerGeometry() {
        let state = frameState()
        let usable = state.visible && state.opacity >= 1 && presentation.phase == .shown
        let (mx, my) = renderer.motion(state)
        let dx = Double(mx), dy = Double(my)
        func hit(_ r: Rect?) -> HitRect? {
            r.map { HitRect(x: $0.x + dx, y: $0.y + dy, width: $0.width, height: $0.height) }
        }
        let button = usable && renderer.content.showsButton ? hit(renderer.layout.button) : nil
        apply(tracker.setGeometry(button: button, bezel: hit(renderer.layout.bezel)))
    }

    private func apply(_ actions: [ButtonAction]) {
        for a in actions {
            switch a {
            case let .highlight(on): buttonPressed = on
            case .activate: tell(.buttonPressed)
            case .tapOutside: tell(.tappedOutside)
            }
        }
    }

    /// Presses the button as a tap would (a remote Cancel: `kiosk-hud ctl press`); false when
    /// no button with an action is on screen.
    @discardableResult
    public func pressButton() -> Bool {
        guard renderer.content.showsButton, renderer.content.buttonHasAction, isVisible else { return false }
        tell(.buttonPressed)
        return true
    }

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
        for a in actions where a == .completed { tell(.hidden) }
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
    /// `stop` is asked between the bands of a large frame; when it says so nothing is presented
    /// (and the next tick draws everything again).
    @discardableResult
    public func tick(stoppingWhen stop: () -> Bool = { false }) throws -> (damage: DamageRegion, next: Seconds?) {
        let now = clock.now
        handle(presentation.advance(to: now))
        let state = frameState()
        guard let damage = renderer.render(state, stoppingWhen: stop) else { return (DamageRegion(), nil) }
        if !damage.isEmpty || firstPresent {
            if display.isOverlay { followInputRegion(state) }
            try display.present(renderer.shadow.surface, damage: firstPresent ? .whole : .region(damage))
            firstPresent = false
        }
        return (damage, nextFrame(after: now, state: state))
    }

    /// Tells an overlay display where the HUD takes input (`Display.setInputRegion`): nothing
    /// while hidden, the whole picture while a background covers the program or a tap outside the
    /// bezel does something, else the bezel's box as drawn.
    private func followInputRegion(_ state: HUDFrameState) {
        let region: [IntRect]?
        if !state.visible || state.opacity <= 0 {
            region = []
        } else if buttonConfig.tapOutside || renderer.style.background != .none || !renderer.transparentUnderlay {
            region = nil
        } else {
            let box = renderer.layout.bezel.offsetBy(dx: state.motionX.rounded(), dy: state.motionY.rounded()).enclosingPixels
            region = [box]
        }
        guard region != inputRegion else { return }
        inputRegion = region
        display.setInputRegion(region)
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
