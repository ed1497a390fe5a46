/// Show/hide timing of the HUD, mirroring MBProgressHUD 1.2, plus
/// SVProgressHUD's activity counter. A pure value type: time is passed in.
///
/// ## Rules (MBProgressHUD 1.2)
/// * `show`: cancels a pending minimum-show hide, clears "finished". With a
///   grace time, the HUD is drawn only when the grace timer fires (and not at
///   all if `hide` comes first); otherwise it is shown now.
/// * Showing cancels a pending `hide(afterDelay:)` (as MBProgressHUD does,
///   also when the grace timer fires later), records `showStarted`, and
///   animates in from the *current* opacity/scale (begin-from-current-state);
///   zoom kinds start at their start scale only when the bezel is fully
///   transparent. Non-animated shows appear instantly.
/// * `hide`: cancels the grace timer, sets "finished", resets the activity
///   count, and if the HUD has been drawn for less than `minShowTime`
///   postpones the hide to exactly `showStarted + minShowTime`; else hides now.
/// * Hiding cancels `hide(afterDelay:)`; a drawn HUD animates out (or vanishes
///   when not animated) and then completes.
/// * `hide(afterDelay:)` schedules a `hide`; a new call replaces the old one.
///
/// ## Completion (`.completed`)
/// Emitted exactly once per *session*; a session opens with a `show` while no
/// session is open and closes with the first hide that takes effect:
/// * instant hide → at once; animated hide → when its animation ends;
/// * hide during the grace time (never drawn) → at once;
/// * hide during the minimum-show wait → when the postponed hide completes;
/// * a show that interrupts a hide animation → at once, before the show starts
///   (MBProgressHUD's `removeAllAnimations` calls the completion block with
///   `finished == NO`); the HUD then animates back in from where it was;
/// * further hides of a closed session do nothing, except that an instant
///   hide cuts a running hide animation short (its completion is then emitted
///   at once, still only once);
/// * a hide with no session open (never shown) emits nothing.
///
/// ## Time
/// Each entry point first fires everything due at or before its time, in
/// chronological order, each handled at its own deadline (so results do not
/// depend on how often `advance(to:)` is called). Non-finite times are replaced
/// by the last time seen; earlier-than-last times count as the last time.
/// `nextDeadline` is the earliest time `advance(to:)` must be called (a timer
/// or the end of an animation); while `isAnimating(at:)` the caller renders
/// frames at its own rate.
public struct PresentationMachine: Sendable, Equatable {
    /// Timing configuration; changes apply to transitions and timers started afterwards.
    public var config: PresentationConfig

    /// Outstanding activities (`pushActivity` minus `popActivity`, reset by `hide`).
    public private(set) var activityCount: Int = 0

    /// When the current drawn show started (nil when not shown or hiding).
    public private(set) var showStarted: Double?

    private struct ScheduledHide: Sendable, Equatable {
        var deadline: Double
        var animated: Bool
    }

    private enum Event { case animationEnd, grace, minShow, hideDelay }

    private var clock = MonotonicTime()
    private var tween = Tween.resting(opacity: 0, scale: 1, at: 0)
    private var onScreen = false
    private var finished = false
    private var useAnimation = true
    private var sessionOpen = false
    private var hideInFlight = false
    private var graceDeadline: Double?
    private var minShowDeadline: Double?
    private var hideDelay: ScheduledHide?

    /// Creates a hidden, idle machine.
    public init(config: PresentationConfig = PresentationConfig()) {
        self.config = config
    }

    // MARK: Entry points

    /// Requests the HUD (MBProgressHUD `showAnimated:`).
    @discardableResult
    public mutating func show(animated: Bool = true, at now: Double) -> [PresentationAction] {
        let now = clock.accept(now)
        var actions = fireDue(upTo: now)
        requestShow(animated: animated, at: now, into: &actions)
        return actions
    }

    /// Hides the HUD (MBProgressHUD `hideAnimated:`), honouring the minimum show time.
    @discardableResult
    public mutating func hide(animated: Bool = true, at now: Double) -> [PresentationAction] {
        let now = clock.accept(now)
        var actions = fireDue(upTo: now)
        requestHide(animated: animated, at: now, into: &actions)
        return actions
    }

    /// Schedules `hide(animated:)` at `now + delay`, replacing any earlier
    /// schedule. A NaN, infinite or negative delay counts as 0 (fires at the
    /// next `advance`).
    @discardableResult
    public mutating func hide(animated: Bool = true, afterDelay delay: Double, at now: Double) -> [PresentationAction] {
        let now = clock.accept(now)
        let actions = fireDue(upTo: now)
        hideDelay = ScheduledHide(deadline: now + delay.sanitizedDuration, animated: animated)
        return actions
    }

    /// Starts an activity: increments `activityCount` and shows the HUD unless
    /// it is already shown (or waiting for its grace time) for another activity.
    @discardableResult
    public mutating func pushActivity(animated: Bool = true, at now: Double) -> [PresentationAction] {
        let now = clock.accept(now)
        var actions = fireDue(upTo: now)
        if activityCount < Int.max { activityCount += 1 }
        if !sessionOpen || finished {
            requestShow(animated: animated, at: now, into: &actions)
        }
        return actions
    }

    /// Ends an activity: decrements `activityCount` (never below 0) and hides
    /// the HUD when it reaches 0. Popping at 0 does nothing.
    @discardableResult
    public mutating func popActivity(animated: Bool = true, at now: Double) -> [PresentationAction] {
        let now = clock.accept(now)
        var actions = fireDue(upTo: now)
        guard activityCount > 0 else { return actions }
        activityCount -= 1
        if activityCount == 0 {
            requestHide(animated: animated, at: now, into: &actions)
        }
        return actions
    }

    /// Fires every timer and animation end due at or before `now`, in order.
    @discardableResult
    public mutating func advance(to now: Double) -> [PresentationAction] {
        fireDue(upTo: clock.accept(now))
    }

    // MARK: Queries

    /// What to draw at `now`. Call `advance(to:)` first so due timers have fired.
    public func appearance(at now: Double) -> Appearance {
        guard onScreen else { return .hidden }
        let t = clock.peek(now)
        return Appearance(isVisible: true,
                          opacity: tween.opacity(at: t).clampedUnit(nanFallback: 0),
                          scale: tween.scale(at: t))
    }

    /// Whether a show/hide animation is in progress at `now` (render frames).
    public func isAnimating(at now: Double) -> Bool {
        onScreen && tween.isRunning(at: clock.peek(now))
    }

    /// The earliest time at which `advance(to:)` must be called: the next
    /// grace, minimum-show or hide-after-delay timer, or the end of the
    /// running animation. Nil when nothing is pending. Frames in between are
    /// the caller's business (see `isAnimating(at:)`).
    public var nextDeadline: Double? {
        nextEvent()?.time
    }

    /// Whether the HUD is drawn at all (same as `appearance(at:).isVisible`).
    public var isVisible: Bool { onScreen }

    /// Coarse state, for diagnostics and tests.
    public var phase: PresentationPhase {
        if hideInFlight { return .hiding }
        if graceDeadline != nil && !onScreen { return .waitingForGrace }
        if minShowDeadline != nil { return .waitingForMinShow }
        if onScreen { return .shown }
        return sessionOpen ? .waitingForGrace : .hidden
    }

    // MARK: Internals

    private mutating func requestShow(animated: Bool, at now: Double, into actions: inout [PresentationAction]) {
        minShowDeadline = nil
        useAnimation = animated
        finished = false
        sessionOpen = true
        if config.graceTime > 0 {
            // Keep an earlier pending grace deadline: repeated shows do not postpone drawing.
            if graceDeadline == nil { graceDeadline = now + config.graceTime }
        } else {
            graceDeadline = nil
            showNow(at: now, into: &actions)
        }
    }

    private mutating func requestHide(animated: Bool, at now: Double, into actions: inout [PresentationAction]) {
        activityCount = 0
        graceDeadline = nil
        useAnimation = animated
        finished = true
        if config.minShowTime > 0, let started = showStarted, now - started < config.minShowTime {
            minShowDeadline = started + config.minShowTime
            return
        }
        hideNow(animated: animated, at: now, into: &actions)
    }

    private mutating func showNow(at now: Double, into actions: inout [PresentationAction]) {
        hideDelay = nil
        let fromOpacity = onScreen ? tween.opacity(at: now) : 0
        let fromScale = onScreen ? tween.scale(at: now) : 1
        if hideInFlight {
            // The interrupted hide animation completes now (finished == NO in UIKit).
            hideInFlight = false
            actions.append(.completed)
        }
        showStarted = now
        let duration = config.animationDuration
        if useAnimation && duration > 0 && (fromOpacity != 1 || fromScale != 1) {
            let startScale = fromOpacity == 0 ? config.animation.showStartScale : fromScale
            tween = Tween(fromOpacity: fromOpacity, fromScale: startScale, toOpacity: 1, toScale: 1,
                          start: now, duration: duration, curve: config.curve)
        } else {
            tween = .resting(opacity: 1, scale: 1, at: now)
        }
        if !onScreen {
            onScreen = true
            actions.append(.appeared)
        }
    }

    private mutating func hideNow(animated: Bool, at now: Double, into actions: inout [PresentationAction]) {
        hideDelay = nil
        minShowDeadline = nil
        guard sessionOpen else {
            // Nothing new to hide; an instant hide cuts a running hide animation short.
            if hideInFlight && !animated { finishHide(at: now, into: &actions) }
            return
        }
        sessionOpen = false
        guard showStarted != nil else {
            // Hidden before the grace time expired: never drawn, complete at once.
            // (A hide animation of an earlier session may still be running; it is left alone.)
            actions.append(.completed)
            return
        }
        showStarted = nil
        actions.append(.hideStarted)
        hideInFlight = true
        let duration = config.animationDuration
        if animated && duration > 0 {
            tween = Tween(fromOpacity: tween.opacity(at: now), fromScale: tween.scale(at: now),
                          toOpacity: 0, toScale: config.animation.hideEndScale,
                          start: now, duration: duration, curve: config.curve)
        } else {
            finishHide(at: now, into: &actions)
        }
    }

    private mutating func finishHide(at now: Double, into actions: inout [PresentationAction]) {
        hideInFlight = false
        tween = .resting(opacity: 0, scale: 1, at: now)
        if onScreen {
            onScreen = false
            actions.append(.disappeared)
        }
        actions.append(.completed)
    }

    /// The earliest pending event; ties resolve as animation end, grace, minimum show, hide delay.
    private func nextEvent() -> (event: Event, time: Double)? {
        var best: (event: Event, time: Double)?
        func consider(_ event: Event, _ time: Double?) {
            guard let time else { return }
            if best == nil || time < best!.time { best = (event, time) }
        }
        consider(.animationEnd, tween.duration > 0 ? tween.end : nil)
        consider(.grace, graceDeadline)
        consider(.minShow, minShowDeadline)
        consider(.hideDelay, hideDelay?.deadline)
        return best
    }

    private mutating func fireDue(upTo now: Double) -> [PresentationAction] {
        var actions: [PresentationAction] = []
        // Every event clears itself and handlers only schedule later deadlines,
        // so this terminates quickly; the bound is a belt-and-braces guard.
        for _ in 0..<64 {
            guard let (event, time) = nextEvent(), time <= now else { break }
            switch event {
            case .animationEnd:
                if hideInFlight {
                    finishHide(at: time, into: &actions)
                } else {
                    tween = .resting(opacity: tween.toOpacity, scale: tween.toScale, at: time)
                }
            case .grace:
                graceDeadline = nil
                if !finished { showNow(at: time, into: &actions) }
            case .minShow:
                minShowDeadline = nil
                hideNow(animated: useAnimation, at: time, into: &actions)
            case .hideDelay:
                let animated = hideDelay?.animated ?? true
                hideDelay = nil
                requestHide(animated: animated, at: time, into: &actions)
            }
        }
        return actions
    }
}
