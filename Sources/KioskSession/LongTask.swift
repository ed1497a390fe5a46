import KioskSeams
import KioskHUD

/// The HUD a long task drives: a session's own (`HUDSession`), or a daemon's (KioskRun).
public protocol TaskHUD: AnyObject {
    /// What it shows now.
    var content: HUDContent { get }
    /// Shows `content`; with `animatedProgress` the progress eases to its value.
    func update(_ content: HUDContent, animatedProgress: Bool) throws
    /// Calls `handler` when the button is pressed.
    func onButton(_ handler: @escaping () -> Void)
    /// Whether anyone can see it now: false while a display is still awaited (`--wait-display`)
    /// or none is there; the end notice is then not waited for.
    var isOnScreen: Bool { get }
}

extension TaskHUD {
    public var isOnScreen: Bool { true }
}

extension HUDSession: TaskHUD {
    public var content: HUDContent { configuration.content }

    public func update(_ content: HUDContent, animatedProgress: Bool) throws {
        let old = configuration.content
        var c = content
        if animatedProgress { c.progress = old.progress }
        if c != old { try update(content: { $0 = c }) }
        if animatedProgress && content.progress != old.progress { setProgress(content.progress, animated: true) }
    }

    public func onButton(_ handler: @escaping () -> Void) { setButtonAction(.call(handler)) }

    public var isOnScreen: Bool { !displays.isEmpty }
}

/// How a long task ended.
public enum TaskEnd: Equatable, Sendable {
    case success
    /// It failed; the text says how (e.g. "exit 3", "killed by signal 9").
    case failed(String)
    case cancelled
}

/// A long operation on a HUD with a Cancel button (what `kiosk-hud run` shows for its command,
/// and what a Swift program can use for its own work): progress that never goes backwards,
/// details, a Cancel that can ask for a second tap, "Cancelling…" until the work has stopped,
/// and an end notice (success, the failure, "Cancelled") shown for a while before `onDone`.
///
///     let task = LongTask(hud: session, loop: loop, options: .init())
///     task.onCancel = { worker.stop() }          // then call task.finished(.cancelled) when it has
///     task.onDone = { _ in loop.stop() }
///     task.setProgress(0.4)
public final class LongTask {
    public struct Options {
        /// The button's title; nil: no button (nothing can cancel).
        public var cancelTitle: String? = "Cancel"
        /// A first tap only asks "Tap again to cancel" (for 3 s), so a brush of the screen stops nothing.
        public var confirmCancel = false
        /// Let the progress go down when the work says so (default: it only grows).
        public var allowBackwards = false
        /// The mode once progress is known (determinate, annular or bar).
        public var progressMode: HUDMode = .annular
        public var successText = "Done"
        public var confirmText = "Tap again to cancel"
        public var cancellingText = "Cancelling…"
        public var cancelledText = "Cancelled"
        /// How long the end notice stays; nil: SVProgressHUD's time for its text (0.06 s a
        /// character + 0.5 s, at least 5 s) for success and failure, 1.5 s for "Cancelled".
        public var noticeDuration: Double?
        public init() {}
    }

    public enum State: Equatable, Sendable {
        case running
        /// The first tap of a confirmed cancel: waiting for the second.
        case confirming
        case cancelling
        case ended(TaskEnd)
    }

    let hud: TaskHUD
    let loop: EventLoop
    public let options: Options
    public private(set) var state: State = .running
    /// The user asked to cancel (and confirmed, if asked to): stop the work, then `finished(.cancelled)`.
    public var onCancel: (() -> Void)?
    /// The end notice has been shown: the exit code a command would end with (0, 1, 130).
    public var onDone: ((TaskEnd) -> Void)?
    /// Problems showing something (a layout that failed), for the log.
    public var log: (String) -> Void = { _ in }
    private var shownProgress: Double?
    private var labelBeforeConfirm = ""
    private var confirmTimer: LoopToken?
    private var noticeTimer: LoopToken?

    public init(hud: TaskHUD, loop: EventLoop, options: Options = Options()) {
        self.hud = hud; self.loop = loop; self.options = options
        var c = hud.content
        c.buttonTitle = options.cancelTitle ?? ""
        c.buttonHasAction = options.cancelTitle != nil
        show(c)
        hud.onButton { [weak self] in self?.buttonPressed() }
    }

    /// The work's progress (0…1); the first one turns the spinner into `progressMode`.
    public func setProgress(_ p: Double) {
        guard p.isFinite, state == .running || state == .confirming else { return }
        let v = min(max(p, 0), 1)
        if let s = shownProgress, v < s, !options.allowBackwards { return }
        if let s = shownProgress, v == s { return }
        var c = hud.content
        if shownProgress == nil, !c.mode.showsProgress { c.mode = options.progressMode; c.progress = 0 }
        shownProgress = v
        c.progress = v
        show(c, animated: true)
    }

    public func setDetails(_ text: String) { change { $0.details = text } }

    public func setLabel(_ text: String) {
        if state == .confirming { labelBeforeConfirm = text; return }
        change { $0.label = text }
    }

    private func change(_ f: (inout HUDContent) -> Void) {
        guard case .running = state else { if state == .confirming { var c = hud.content; f(&c); show(c) }; return }
        var c = hud.content
        f(&c)
        show(c)
    }

    private func show(_ c: HUDContent, animated: Bool = false) {
        do { try hud.update(c, animatedProgress: animated) } catch { log("the HUD cannot show it (\(error)); the work goes on") }
    }

    // MARK: Cancel

    private func buttonPressed() {
        switch state {
        case .running where options.confirmCancel:
            state = .confirming
            labelBeforeConfirm = hud.content.label
            change { $0.label = options.confirmText }
            confirmTimer = loop.schedule(after: 3) { [weak self] in self?.disarm() }
        case .running, .confirming:
            if let t = confirmTimer { loop.cancel(t) }
            if state == .confirming { var c = hud.content; c.label = labelBeforeConfirm; show(c) }
            state = .cancelling
            onCancel?()   // first: the work hears of it before the HUD is laid out again
            var c = hud.content
            c.label = options.cancellingText
            c.buttonTitle = ""; c.buttonHasAction = false
            show(c)
        default: break
        }
    }

    private func disarm() {
        confirmTimer = nil
        guard state == .confirming else { return }
        state = .running
        change { $0.label = labelBeforeConfirm }
    }

    // MARK: The end

    /// The work ended: shows how, then calls `onDone` after the notice's time
    /// (`noticeDuration`, else the options').
    public func finished(_ end: TaskEnd, noticeDuration: Double? = nil) {
        if case .ended = state { return }
        if let t = confirmTimer { loop.cancel(t) }
        state = .ended(end)
        var c = hud.content
        c.buttonTitle = ""; c.buttonHasAction = false; c.details = ""; c.image = nil
        let text: String
        switch end {
        case .success: c.mode = .success; text = options.successText
        case let .failed(why): c.mode = .error; text = why
        case .cancelled: c.mode = .error; text = options.cancelledText
        }
        c.label = text
        show(c)
        let duration = !hud.isOnScreen ? 0 : noticeDuration ?? options.noticeDuration ?? (end == .cancelled ? 1.5 : max(Double(text.count) * 0.06 + 0.5, 5))
        noticeTimer = loop.schedule(after: duration) { [weak self] in self?.noticeTimer = nil; self?.onDone?(end) }
    }

    /// The HUD can no longer be seen (a daemon that stopped answering): an end notice being
    /// shown ends now (`onDone`); one shown later is not waited for if `hud.isOnScreen` says so.
    public func hudLost() {
        guard case let .ended(end) = state, let t = noticeTimer else { return }
        loop.cancel(t)
        noticeTimer = nil
        onDone?(end)
    }
}
