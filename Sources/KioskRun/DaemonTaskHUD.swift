import KioskDaemon
import KioskSeams
import KioskHUD
import KioskProtocol
import KioskSession

/// A running daemon's HUD as a long task's: updates go to it as requests, the button comes back
/// as events on a second connection that the loop watches.
///
/// Nothing waits on the loop: requests are written without blocking and their replies read when
/// they come (`DaemonLinkMachine` decides what goes out, and when the daemon is gone). A daemon
/// that stops answering for `replyTimeout` seconds is given up (`lost`, `onLost`): the task goes
/// on without its HUD, and what it would have shown is left in the socket, unanswered, for a
/// daemon that comes back.
public final class DaemonTaskHUD: TaskHUD {
    /// Seconds a reply may take before the daemon is considered gone, unless told otherwise.
    public static let defaultReplyTimeout = 2.0

    let requests: DaemonClient
    let events: DaemonClient
    let loop: EventLoop
    private var token: LoopToken?
    private var requestToken: LoopToken?
    private var deadline: LoopToken?
    private var machine: DaemonLinkMachine
    private var outgoing: [UInt8] = []
    private var pendingEvents: [DaemonLinkMachine.Event] = []
    private var handling = false
    private var whenSettled: (() -> Void)?
    private var buttonHandler: (() -> Void)?
    public private(set) var content: HUDContent
    /// The daemon went away, or stopped answering: no more requests.
    public private(set) var lost = false
    /// Whether the daemon's HUD was on screen when we connected.
    public let wasVisible: Bool
    /// Called once when the daemon is given up, with why ("no reply within 2 s").
    public var onLost: ((String) -> Void)?
    /// Log lines (a refused request, the daemon given up).
    public var log: (String) -> Void = { _ in }

    /// Connects to the daemon at `path` (twice) and reads what its HUD shows now; throws
    /// `DaemonClient.Failure.noDaemon` when nobody answers there within `replyTimeout` seconds.
    public init(path: String, loop: EventLoop, replyTimeout: Double = DaemonTaskHUD.defaultReplyTimeout) throws(DaemonClient.Failure) {
        requests = try DaemonClient(path: path)
        events = try DaemonClient(path: path)
        self.loop = loop
        machine = DaemonLinkMachine(replyTimeout: replyTimeout)
        let status: JSONObject
        do throws(DaemonClient.Failure) {
            // Before the loop runs (nothing to keep moving yet), but bounded all the same.
            try events.request(.subscribe, [("events", .array([.string("button")]))], timeout: replyTimeout)
            status = try requests.request(.status, [], timeout: replyTimeout)
        } catch {
            if case .timedOut = error { throw .noDaemon("the kiosk-hud daemon at \(path) did not answer within \(replyTimeout) s") }
            throw error
        }
        var c = HUDContent()
        if let o = status["content"] {
            c.mode = o["mode"]?.string.flatMap(HUDMode.init(rawValue:)) ?? .indeterminate
            c.progress = o["progress"]?.double ?? 0
            c.label = o["label"]?.string ?? ""
            c.details = o["details"]?.string ?? ""
            c.buttonTitle = o["button"]?.string ?? ""
            c.buttonHasAction = !c.buttonTitle.isEmpty
        }
        content = c
        wasVisible = status["visible"]?.bool ?? false
        token = loop.watch(events.fileDescriptor, .readable) { [weak self] _ in self?.readEvents() }
        requestToken = loop.watch(requests.fileDescriptor, .readable) { [weak self] ready in self?.requestsReady(ready) }
    }

    deinit {
        for t in [token, requestToken, deadline] { if let t { loop.cancel(t) } }
    }

    /// Asks the daemon's HUD to show `c` (queued behind a request in flight, merged with the
    /// updates already waiting). Does not throw: a daemon that is gone just sees nothing more.
    public func update(_ c: HUDContent, animatedProgress: Bool) throws {
        var u = DaemonLinkMachine.Update(animated: animatedProgress)
        if c.mode != content.mode { u.mode = c.mode.rawValue }
        if c.progress != content.progress { u.progress = c.progress }
        if c.label != content.label { u.label = c.label }
        if c.details != content.details { u.details = c.details }
        let title = c.showsButton ? c.buttonTitle : ""
        if title != (content.showsButton ? content.buttonTitle : "") { u.button = title }
        content = c
        handle(.request(.update(u)))
    }

    public func onButton(_ handler: @escaping () -> Void) { buttonHandler = handler }

    /// False once the daemon is gone: an end notice is then not waited for.
    public var isOnScreen: Bool { !lost }

    /// Shows the daemon's HUD for the task (an activity of its own: `endActivity` hides it again
    /// unless something else keeps it up; a HUD that was already up stays up).
    public func beginActivity() throws {
        if !wasVisible { handle(.request(.push)) }
    }

    public func endActivity() throws {
        if !wasVisible { handle(.request(.pop)) }
    }

    /// Calls `done` on the loop once every request asked so far has been answered, or the
    /// daemon is gone (what it never got is then written if the socket takes it, unanswered).
    public func settle(then done: @escaping () -> Void) {
        whenSettled = done
        handle(.finish)
    }

    // MARK: Carrying out the machine's actions (the one place)

    private func handle(_ event: DaemonLinkMachine.Event) {
        pendingEvents.append(event)
        guard !handling else { return }   // an event raised while acting waits its turn
        handling = true
        defer { handling = false }
        while !pendingEvents.isEmpty {
            let e = pendingEvents.removeFirst()
            for a in machine.handle(e, at: loop.now) { perform(a) }
        }
    }

    private func perform(_ action: DaemonLinkMachine.Action) {
        switch action {
        case let .send(r):
            outgoing += Self.line(r)
            flush()
        case let .armDeadline(t):
            if let deadline { loop.cancel(deadline) }
            deadline = loop.schedule(at: t) { [weak self] in self?.deadline = nil; self?.handle(.tick) }
        case .disarmDeadline:
            if let deadline { loop.cancel(deadline) }
            deadline = nil
        case let .refused(why):
            log("the daemon refused a request: \(why)")
        case let .gone(why):
            lost = true
            if let requestToken { loop.cancel(requestToken) }   // nothing more is read or written there
            requestToken = nil
            log("the daemon stopped answering (\(why)); given up")
            onLost?(why)
        case let .finished(unsent):
            if lost {
                // Left for a daemon that comes back: its HUD as it was, its activity count back.
                for r in unsent { outgoing += Self.line(r) }
                _ = try? requests.writeWithoutWaiting(outgoing[...])
                outgoing = []
            }
            let done = whenSettled
            whenSettled = nil
            done?()
        }
    }

    private func flush() {
        guard !lost else { return }
        do { try requests.writeWithoutWaiting(from: &outgoing) } catch {
            handle(.broken("\(error)"))
            return
        }
        if let requestToken { loop.setEvents(requestToken, outgoing.isEmpty ? .readable : [.readable, .writable]) }
    }

    private func requestsReady(_ ready: LoopEvents) {
        if ready.contains(.writable) { flush() }
        guard ready.contains(.readable) || ready.contains(.hangup) || ready.contains(.error) else { return }
        do {
            for o in try requests.availableObjects() where o["event"] == nil {
                var refusal: String?
                do { try DaemonClient.check(o) } catch { refusal = "\(error)" }
                handle(.reply(error: refusal))
            }
        } catch {
            handle(.broken("\(error)"))
        }
    }

    /// The line sent for `r` (its keys are content settings' keys: DaemonLinkMachineTests checks).
    static func line(_ r: DaemonLinkMachine.Request) -> [UInt8] {
        switch r {
        case .push: return DaemonClient.requestLine(.push)
        case .pop: return DaemonClient.requestLine(.pop)
        case let .update(u):
            var fields: [(String, JSONValue)] = []
            if let v = u.mode { fields.append(("mode", .string(v))) }
            if let v = u.progress { fields.append(("progress", .number(v))) }
            if let v = u.label { fields.append(("label", .string(v))) }
            if let v = u.details { fields.append(("details", .string(v))) }
            if let v = u.button { fields.append(("button", .string(v))) }
            return DaemonClient.requestLine(.update, fields + [("animated", .bool(u.animated))])
        }
    }

    private func readEvents() {
        guard let list = try? events.availableEvents() else {
            if let token { loop.cancel(token) }   // the daemon went away: no more button
            token = nil
            return
        }
        for e in list where e["event"]?.string == "button" { buttonHandler?() }
    }
}
