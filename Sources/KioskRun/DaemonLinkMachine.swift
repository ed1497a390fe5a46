/// The conversation of a task with a daemon's HUD, as a pure value: requests the task wants
/// sent, replies, time. Nothing here waits — the caller (`DaemonTaskHUD`, on an event loop)
/// carries out the actions it returns, in order.
///
/// ## Rules
/// * One request is in flight at a time; what the task asks meanwhile waits in a queue, where
///   updates coalesce: an update that follows an update (no `push` or `pop` between) is merged
///   into it, each field keeping its latest value — a slow daemon gets the latest progress and
///   label, not every step.
/// * A request sent arms a deadline `replyTimeout` later; its reply (ok or refused) disarms it
///   and sends the next queued request, if any.
/// * No reply by the deadline, or a broken connection: the daemon is **gone** (`.gone`, once).
///   Nothing more is sent; what the task asks still coalesces in the queue.
/// * `finish`: once every queued request has been answered, `.finished`; when the daemon is
///   gone, at once, with the requests it never got (`.finished(unsent:)`) — the caller may
///   leave them in the socket for a daemon that comes back (the HUD's content put back, its
///   activity count too).
///
/// Times are the caller's clock in seconds; a time earlier than one already seen counts as that one.
public struct DaemonLinkMachine: Sendable, Equatable {
    /// Fields of an `update` request (nil: unchanged).
    public struct Update: Sendable, Equatable {
        public var mode: String?
        public var progress: Double?
        public var label: String?
        public var details: String?
        public var button: String?
        /// The progress eases to its value (the `animated` field).
        public var animated: Bool

        public init(mode: String? = nil, progress: Double? = nil, label: String? = nil, details: String? = nil,
                    button: String? = nil, animated: Bool = false) {
            self.mode = mode; self.progress = progress; self.label = label; self.details = details
            self.button = button; self.animated = animated
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { mode == nil && progress == nil && label == nil && details == nil && button == nil }

        /// `newer` applied over this one: each field its latest value; `animated` goes with the
        /// progress it was asked with.
        public func merged(with newer: Update) -> Update {
            var u = self
            if let v = newer.mode { u.mode = v }
            if let v = newer.progress { u.progress = v; u.animated = newer.animated }
            if let v = newer.label { u.label = v }
            if let v = newer.details { u.details = v }
            if let v = newer.button { u.button = v }
            return u
        }
    }

    /// A request of the task to the daemon.
    public enum Request: Sendable, Equatable {
        case update(Update)
        /// An activity of the task's own (the HUD shows).
        case push
        /// Its end (the HUD hides unless something else keeps it up).
        case pop
    }

    public enum Event: Sendable, Equatable {
        /// The task wants `Request` sent.
        case request(Request)
        /// The reply to the request in flight: `error` nil when ok, else the daemon's reason.
        case reply(error: String?)
        /// The connection broke (closed, or something that is not the protocol came).
        case broken(String)
        /// Time passed (the deadline's timer).
        case tick
        /// The task is over: settle what is queued, then `.finished`.
        case finish
    }

    public enum Action: Sendable, Equatable {
        /// Write this request (without waiting).
        case send(Request)
        /// Call `handle(.tick, at:)` at this time (replaces any earlier deadline).
        case armDeadline(Double)
        /// No deadline any more.
        case disarmDeadline
        /// The daemon refused a request (for the log); the link goes on.
        case refused(String)
        /// The daemon is considered gone: why. Said once.
        case gone(String)
        /// `finish` is done: everything was answered, or the daemon is gone and these were never sent.
        case finished(unsent: [Request])
    }

    /// Seconds a reply may take before the daemon is considered gone.
    public let replyTimeout: Double
    /// The request sent and not yet answered, and when it went.
    public private(set) var inFlight: (request: Request, sentAt: Double)?
    /// Requests waiting for the one in flight (updates coalesced).
    public private(set) var queue: [Request] = []
    /// The daemon stopped answering, or the connection broke.
    public private(set) var isGone = false
    private var finishing = false
    private var finishedOnce = false
    private var lastTime = -Double.infinity

    public init(replyTimeout: Double) { self.replyTimeout = replyTimeout }

    public static func == (a: DaemonLinkMachine, b: DaemonLinkMachine) -> Bool {
        a.replyTimeout == b.replyTimeout && a.inFlight?.request == b.inFlight?.request && a.inFlight?.sentAt == b.inFlight?.sentAt
            && a.queue == b.queue && a.isGone == b.isGone && a.finishing == b.finishing && a.finishedOnce == b.finishedOnce
            && a.lastTime == b.lastTime
    }

    /// Handles `event` at `now`; the actions to carry out, in order.
    public mutating func handle(_ event: Event, at now: Double) -> [Action] {
        let now = now.isFinite ? max(now, lastTime) : lastTime
        lastTime = now
        var actions: [Action] = []
        switch event {
        case let .request(r):
            if case let .update(u) = r, u.isEmpty { break }
            enqueue(r)
            if !isGone && inFlight == nil { sendNext(at: now, &actions) }
        case let .reply(error):
            guard inFlight != nil, !isGone else { break }
            inFlight = nil
            if let error { actions.append(.refused(error)) }
            if queue.isEmpty { actions.append(.disarmDeadline) } else { sendNext(at: now, &actions) }
        case let .broken(why):
            goGone(why, &actions)
        case .tick:
            if let f = inFlight, !isGone, now >= f.sentAt + replyTimeout {
                goGone("no reply within \(seconds(replyTimeout)) s", &actions)
            }
        case .finish:
            finishing = true
        }
        if finishing && !finishedOnce && (isGone || (inFlight == nil && queue.isEmpty)) {
            finishedOnce = true
            // The one in flight was written: a daemon that comes back reads it anyway.
            actions.append(.finished(unsent: isGone ? queue : []))
        }
        return actions
    }

    private mutating func enqueue(_ r: Request) {
        if case let .update(newer) = r, case let .update(older)? = queue.last {
            queue[queue.count - 1] = .update(older.merged(with: newer))
        } else {
            queue.append(r)
        }
    }

    private mutating func sendNext(at now: Double, _ actions: inout [Action]) {
        let r = queue.removeFirst()
        inFlight = (r, now)
        actions.append(.send(r))
        actions.append(.armDeadline(now + replyTimeout))
    }

    private mutating func goGone(_ why: String, _ actions: inout [Action]) {
        guard !isGone else { return }
        isGone = true
        actions.append(.disarmDeadline)
        actions.append(.gone(why))
    }
}

private func seconds(_ v: Double) -> String {
    v == v.rounded() ? String(Int(v)) : String(v)
}
