import KioskPresentation
import KioskSeams
import KioskHUD
import KioskRaster
import KioskText

/// A session could not start: which display, and why.
public struct SessionError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A HUD on every display of a screen, run by an event loop (see the module's header).
///
///     let loop = PollEventLoop(clock: clock)
///     let session = HUDSession(loop: loop, screen: screen, fonts: fonts, clock: clock,
///                              configuration: SessionConfiguration(content: content, onButton: .exit(10),
///                                                                  quitSignals: [SIGINT, SIGTERM]))
///     session.onEnd = { _ in loop.stop() }
///     try session.start()
///     try loop.run()
public final class HUDSession {
    public let loop: EventLoop
    public let screen: Screen
    public let fonts: FontLibrary
    public let clock: Clock
    public private(set) var configuration: SessionConfiguration
    /// Hears why the session ended, once.
    public var onEnd: ((SessionEnd) -> Void)?
    /// Log lines (one per thing worth knowing: hiding on the button, a failed frame).
    public var log: (String) -> Void
    /// Why it ended (nil while running).
    public private(set) var ended: SessionEnd?

    private var huds: [(display: Display, hud: HUD)] = []
    /// The HUD of the last display that went away, until another display takes its state.
    private var carried: HUD?
    private var observers: [(SessionEvent) -> Void] = []
    private var input: InputSource?
    private var motion: (source: MotionSource, tracker: TiltTracker)?
    private var motionCheck: LoopToken?
    private var frameTimer: LoopToken?
    private var nextFrame: Seconds?
    private var frameQueued = false
    private var lastTick = -Double.infinity
    private var hiding = false
    private var firstFrameSeen = false
    /// Whether the first frame is on a display (the `.firstFrame` event has been sent).
    public var firstFrameShown: Bool { firstFrameSeen }
    private var signalTokens: [LoopToken] = []
    /// Frames drawn (ticks of every HUD), for measurements.
    public private(set) var frames = 0

    public init(loop: EventLoop, screen: Screen, fonts: FontLibrary, clock: Clock, configuration: SessionConfiguration,
                log: @escaping (String) -> Void = { _ in }) {
        self.loop = loop; self.screen = screen; self.fonts = fonts; self.clock = clock
        self.configuration = configuration
        self.log = log
    }

    /// Attaches to the screen and the quit signals, makes a HUD for each display (then calls
    /// `laidOut`, for start-up measurements) and draws the first frame. Throws when a display
    /// cannot have a HUD (the layout fails at its size).
    public func start(laidOut: () -> Void = {}) throws {
        try screen.attach(to: loop) { [unowned self] e in self.screenEvent(e) }
        for s in configuration.quitSignals {
            signalTokens.append(loop.onSignal(s) { [unowned self] in self.end(.signal(s)) })
        }
        try syncHUDs()
        laidOut()
        tick()
    }

    /// Every HUD, and the one waiting for a display to carry its state to (so that what is
    /// asked while there is no display is what the next display shows).
    private var allHUDs: [HUD] { huds.map(\.hud) + (carried.map { [$0] } ?? []) }

    /// Every HUD, with its display (the first is the one input goes to).
    public var displays: [(display: Display, hud: HUD)] { huds }

    /// The HUD input goes to: the first display's.
    public var primaryHUD: HUD? { huds.first?.hud }

    /// Calls `observer` on every session event, in the order observers were added.
    public func addObserver(_ observer: @escaping (SessionEvent) -> Void) { observers.append(observer) }

    private func tell(_ e: SessionEvent) { for o in observers { o(e) } }

    // MARK: Displays

    private func syncHUDs() throws {
        let live = screen.displays
        // A display that went away leaves its HUD's state to the displays that come next (the
        // device switched: the same HUD, its animations on the same clock), even when they come
        // later (nothing to draw on between the two devices).
        if let gone = huds.first(where: { h in !live.contains { $0 === h.display } }) { carried = gone.hud }
        huds.removeAll { h in !live.contains { $0 === h.display } }
        var added = false
        for d in live where !huds.contains(where: { $0.display === d }) {
            let h = try makeHUD(for: d)
            if let c = carried { h.carryState(from: c) }
            huds.append((d, h))
            added = true
        }
        if added { carried = nil }
        // Keep the screen's order: the first display is the one input maps onto.
        huds.sort { a, b in (live.firstIndex { $0 === a.display } ?? 0) < (live.firstIndex { $0 === b.display } ?? 0) }
        if let first = huds.first { input?.follow(first.display.transform) }
    }

    private func makeHUD(for d: Display) throws -> HUD {
        var style = configuration.style
        style.scale = configuration.scale ?? d.scale
        let h: HUD
        do {
            h = try HUD(display: d, clock: clock, fonts: fonts, style: style, content: configuration.content, config: configuration.timing)
        } catch {
            throw SessionError("\(d.name): cannot lay out the HUD at \(d.width)x\(d.height): \(error)")
        }
        h.drawsUnderlay = drawsUnderlayOnOverlays
        h.renderer.setUnderlay(color: configuration.underlayColor, image: configuration.underlay, fit: configuration.underlayFit)
        h.renderer.setLogo(configuration.logo)
        var bc = h.buttonConfig
        bc.activationKeys = Set(configuration.buttonKeys)
        bc.tapOutside = configuration.tapOutside
        h.buttonConfig = bc
        let name = d.name
        h.addObserver { [unowned self] e in self.hudEvent(e, display: name) }
        if !configuration.startHidden && !hiding { h.show(animated: configuration.animateIn) }
        return h
    }

    private func screenEvent(_ e: ScreenEvent) {
        guard ended == nil else { return }
        switch e {
        case .displaysChanged:
            do { try syncHUDs() } catch {
                end(.failed("\(error)"))
                return
            }
            log("outputs: " + screen.displays.map { "\($0.name) \($0.width)x\($0.height)" }.joined(separator: ", "))
            tick()
        case .activated:
            tick()
        case .deactivated:
            break
        case .frameDone:
            // Vblank pacing: the next animation frame as soon as the last one is on screen.
            if let n = nextFrame, n - clock.now <= screen.frameInterval { tick() }
        }
        tell(.screen(e))
    }

    // MARK: The button

    private func hudEvent(_ e: HUDEvent, display: String) {
        tell(.hud(e, display: display))
        switch e {
        case .buttonPressed: perform(configuration.onButton)
        case .tappedOutside: perform(configuration.onTapOutside)
        case .hidden:
            if hiding, !huds.contains(where: { $0.hud.isVisible }) { end(.exit(0)) }
        }
    }

    private func perform(_ action: SessionAction) {
        switch action {
        case .none: break
        case let .exit(code): end(.exit(code))
        case .hide:
            guard !hiding else { return }
            hiding = true
            log("button: hiding")
            for h in huds { h.hud.hide(animated: true) }
            requestFrame()
        case let .call(f): f()
        }
    }

    // MARK: Input and tilt

    /// Routes `source`'s events to the first display's HUD from now on.
    public func attachInput(_ source: InputSource) throws {
        input?.detach()
        input = source
        if let first = huds.first { source.follow(first.display.transform) }
        try source.attach(to: loop) { [unowned self] in self.inputReady() }
    }

    private func inputReady() {
        guard let input, ended == nil else { return }
        let events = input.events(until: clock.now)
        // Drained even while another program has the screen; the HUD takes them only when on it.
        guard !events.isEmpty, screen.isActive, let h = primaryHUD else { return }
        h.handle(events)
        requestFrame()
    }

    /// Moves every bezel with `source`'s tilt, filtered by `filter`, from now on.
    public func attachMotion(_ source: MotionSource, filter: TiltFilter.Config) throws {
        motion?.source.detach()
        let tracker = TiltTracker(source: source, config: filter)
        motion = (source, tracker)
        try source.attach(to: loop) { [unowned self] in self.motionReady() }
        requestFrame()
    }

    /// The tilt tracker, when a motion source is attached.
    public var tiltTracker: TiltTracker? { motion?.tracker }

    /// How long a sensor may stay quiet before the session looks whether it still delivers.
    public static let motionQuietCheck = 1.0

    private func motionReady() {
        guard ended == nil else { return }
        if let t = motionCheck { loop.cancel(t) }
        motionCheck = loop.schedule(after: HUDSession.motionQuietCheck) { [unowned self] in
            self.motionCheck = nil
            self.tick()
        }
        tick()
    }

    // MARK: Frames

    /// Draws a frame after the current handler (many changes in one turn make one frame), or —
    /// when the last frame was drawn less than a frame interval ago — at the next frame time,
    /// so that a flood of updates draws at most one frame per display frame, not one per update.
    public func requestFrame() {
        guard !frameQueued, ended == nil else { return }
        frameQueued = true
        let due = lastTick + screen.frameInterval
        if clock.now >= due {
            loop.execute { [weak self] in self?.queuedFrame() }
        } else {
            loop.schedule(at: due) { [weak self] in self?.queuedFrame() }
        }
    }

    /// Draws now what was changed and not drawn yet (a frame waiting for the next frame time),
    /// so that a run ending at a client's request leaves everything asked before on screen.
    public func drawPendingFrame() {
        if frameQueued && ended == nil { tick() }
    }

    private func queuedFrame() {
        guard frameQueued else { return }
        frameQueued = false
        tick()
    }

    /// Fires due timers, draws what changed on every display, and arranges the next frame.
    private func tick() {
        guard ended == nil else { return }
        let now = clock.now
        lastTick = now
        frameQueued = false
        var next: Seconds?
        if let m = motion {
            let t = m.tracker.update(at: now)
            for h in huds { h.hud.setMotion(x: t.x, y: t.y) }
            if m.tracker.isMoving(at: now) { next = now + 1.0 / 60 }
        }
        if screen.isActive {
            frames += 1
            // A quit that arrives during a long frame (an 8K canvas) stops it between bands.
            let quit = configuration.quitSignals
            let stop = { [loop] in !quit.isEmpty && loop.isSignalPending(quit) }
            for (d, h) in huds {
                do {
                    if let n = try h.tick(stoppingWhen: stop).next { next = min(next ?? n, n) }
                    if stop() { return }   // the loop reads the signal next and ends the session
                } catch {
                    end(.failed("\(d.name): \(error)"))
                    return
                }
            }
            if !firstFrameSeen, let t = screen.displays.compactMap(\.firstFrameTime).min() {
                firstFrameSeen = true
                tell(.firstFrame(t))
            }
        }
        guard ended == nil else { return }
        schedule(next)
    }

    private func schedule(_ next: Seconds?) {
        if let t = frameTimer { loop.cancel(t) }
        frameTimer = nil
        nextFrame = next
        guard let next else { return }
        frameTimer = loop.schedule(at: next) { [unowned self] in
            self.frameTimer = nil
            self.tick()
        }
    }

    // MARK: Driving the HUDs (the daemon's requests, `run`'s progress)

    /// Changes what every HUD shows. Throws (and leaves every HUD as it was) when the new
    /// content cannot be laid out on one of them.
    public func update(content change: (inout HUDContent) -> Void) throws {
        var c = configuration.content
        change(&c)
        try apply(c, animatedProgress: false)
    }

    /// Sets the progress on every HUD (clamped to 0…1; NaN ignored), easing when `animated`.
    public func setProgress(_ p: Double, animated: Bool) {
        guard !p.isNaN else { return }
        configuration.content.progress = min(max(p, 0), 1)
        for h in allHUDs { h.setProgress(p, animated: animated) }
        requestFrame()
    }

    private func apply(_ c: HUDContent, animatedProgress: Bool) throws {
        var done: [HUD] = []
        for h in huds {
            do { try h.hud.update(content: c) } catch {
                for d in done { try? d.update(content: configuration.content) }
                throw SessionError("\(h.display.name): \(error)")
            }
            done.append(h.hud)
        }
        configuration.content = c
        requestFrame()
    }

    /// Changes the look of every HUD (each keeps its display's scale). Throws (changing
    /// nothing) when it cannot be laid out so.
    public func update(style change: (inout HUDStyle) -> Void) throws {
        var s = configuration.style
        change(&s)
        try restyleAll { h in
            var own = s
            own.scale = h.hud.style.scale
            return own
        }
        configuration.style = s
        requestFrame()
    }

    /// Gives every HUD the style `style(hud)` returns, all or none: when one cannot be laid out
    /// so, those changed already get their style of before back, and it throws.
    private func restyleAll(_ style: ((display: Display, hud: HUD)) -> HUDStyle) throws {
        var done: [(HUD, HUDStyle)] = []
        for h in huds {
            let before = h.hud.style
            do { try h.hud.update(style: style(h)) } catch {
                for (d, b) in done { try? d.update(style: b) }
                throw SessionError("\(h.display.name): \(error)")
            }
            done.append((h.hud, before))
        }
    }

    /// Changes the pixels per point (nil: each display's own, from its panel's size) of every
    /// HUD, and of those made from now on. Throws (changing nothing) when a HUD cannot be laid
    /// out so.
    public func setScale(_ scale: Double?) throws {
        guard scale != configuration.scale else { return }
        try restyleAll { h in
            var own = h.hud.style
            own.scale = scale ?? h.display.scale
            return own
        }
        configuration.scale = scale
        requestFrame()
    }

    /// Changes the keys (Linux key codes) that press the button, and whether taps outside the
    /// bezel are reported, on every HUD from now on.
    public func setButtonKeys(_ keys: [Int], tapOutside: Bool) {
        configuration.buttonKeys = keys
        configuration.tapOutside = tapOutside
        for h in allHUDs {
            var bc = h.buttonConfig
            bc.activationKeys = Set(keys)
            bc.tapOutside = tapOutside
            h.buttonConfig = bc
        }
    }

    /// Changes what the button does from now on.
    public func setButtonAction(_ action: SessionAction) { configuration.onButton = action }

    /// Changes the timing rules (grace time, minimum show time, animation) of every HUD.
    public func update(timing: PresentationConfig) {
        configuration.timing = timing
        for h in allHUDs { h.presentationConfig = timing }
        requestFrame()
    }

    /// Whether displays over another program's picture (a compositor's overlay layer) show the
    /// underlay as the session's own displays do — the splash's whole picture over the
    /// compositor until the kiosk app is there — rather than the HUD alone (`HUD.drawsUnderlay`).
    public var drawsUnderlayOnOverlays = false {
        didSet {
            guard drawsUnderlayOnOverlays != oldValue else { return }
            for h in huds {
                h.hud.drawsUnderlay = drawsUnderlayOnOverlays
                h.hud.renderer.setUnderlay(color: configuration.underlayColor, image: configuration.underlay, fit: configuration.underlayFit)
            }
            requestFrame()
        }
    }

    /// Changes what lies under every HUD: a colour, and a picture scaled over it as `fit` says.
    public func setUnderlay(color: Color, image: Bitmap?, fit: UnderlayFit = .fill) {
        configuration.underlayColor = color
        configuration.underlay = image
        configuration.underlayFit = fit
        for h in huds { h.hud.renderer.setUnderlay(color: color, image: image, fit: fit) }
        requestFrame()
    }

    /// Changes every HUD's logo picture (nil: none); the style places and sizes it.
    public func setLogo(_ image: Bitmap?) {
        configuration.logo = image
        for h in huds { h.hud.renderer.setLogo(image) }
        requestFrame()
    }

    /// SVProgressHUD's activity count on every HUD: each push shows, the pop that brings it to
    /// 0 hides.
    public func pushActivity() {
        hiding = false
        for h in allHUDs { h.pushActivity() }
        tell(.showing)
        requestFrame()
    }

    public func popActivity() {
        for h in allHUDs { h.popActivity() }
        requestFrame()
    }

    /// Presses the button as a tap would, once (on the first display that shows it); false when
    /// no display shows a button.
    @discardableResult
    public func pressButton() -> Bool { huds.contains { $0.hud.pressButton() } }

    /// Whether any HUD is on screen (including a hide animation).
    public var isVisible: Bool { huds.contains { $0.hud.isVisible } }

    /// Shows every HUD (after the grace time), animated or not.
    public func show(animated: Bool) {
        hiding = false
        configuration.startHidden = false
        for h in allHUDs { h.show(animated: animated) }
        tell(.showing)
        requestFrame()
    }

    /// Hides every HUD, animated or not, after `delay` seconds.
    public func hide(animated: Bool, afterDelay delay: Double = 0) {
        for h in allHUDs { h.hide(animated: animated, afterDelay: delay) }
        requestFrame()
    }

    // MARK: Ending

    /// Ends the session (idempotent): input and motion are detached, nothing more is drawn, and
    /// `onEnd` hears why. The owner closes the screen.
    public func end(_ reason: SessionEnd) {
        guard ended == nil else { return }
        ended = reason
        input?.detach()
        motion?.source.detach()
        for t in signalTokens + [frameTimer, motionCheck].compactMap({ $0 }) { loop.cancel(t) }
        signalTokens = []; frameTimer = nil; motionCheck = nil
        onEnd?(reason)
    }
}
