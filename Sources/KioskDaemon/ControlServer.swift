import Glibc
import KioskSeams
import KioskProtocol
import KioskSys

/// Who may talk to the daemon: root, its own user, members of `group`, and `allowedUIDs`.
public struct AccessRule: Sendable {
    public var group: UInt32?
    public var allowedUIDs: Set<UInt32>
    public init(group: UInt32?, allowedUIDs: Set<UInt32> = []) { self.group = group; self.allowedUIDs = allowedUIDs }
}

/// The control socket's clients on the event loop: reading lines, answering each request in
/// order, pushing events to subscribers, and dropping whoever breaks the limits.
public final class ControlServer {
    /// A request line (its newline excluded) may be this long.
    public static let maxLine = 65536
    /// At most this many clients at once; the next gets one refusal line.
    public static let maxClients = 32
    /// A client whose unread replies and events reach this is dropped.
    public static let maxQueued = 256 * 1024
    /// The listening socket's accept queue (`ControlSocket.open`'s; systemd's socket keeps its
    /// own Backlog=): room for a full set of clients and as many again. The loop accepts every
    /// waiting connection each turn, so the queue only holds what comes while one turn runs (a
    /// frame drawn, a picture read); a client past it waits in connect (`ctl` connects
    /// blocking) rather than being turned away.
    public static let backlog = Int32(2 * maxClients)
    /// Seconds a repeated log line (a refusal) is counted instead of written.
    public static let logWindow = 10.0

    let kernel: Kernel
    let loop: EventLoop
    let listener: Int32
    let daemon: Daemon
    let access: AccessRule
    let log: (String) -> Void
    private var listenToken: LoopToken?
    private var clients: [Int32: Client] = [:]
    private let refusals: RepeatLog<Refusal>
    /// The deprecation notes already logged (each is written once).
    private var deprecationsLogged: Set<String> = []
    /// Counters for the log and `status`.
    public private(set) var served = 0, refused = 0, dropped = 0
    /// Hears each request object once it is answered (measurements: request → frame latency).
    public var onAnswered: ((JSONObject) -> Void)?

    final class Client {
        let fd: Int32
        let credentials: PeerCredentials
        var token: LoopToken?
        var input: [UInt8] = []
        var output: [UInt8] = []
        var sent = 0
        /// nil: not subscribed; an empty set never happens (nil events = all).
        var subscription: Set<DaemonEvent>?
        /// The screen this client draws the HUD on, when it is an overlay (`overlay`).
        var overlay: OverlayScreen?
        /// Close once the output is written (after a refusal or a line too long).
        var closing = false
        /// The peer closed before reading its replies: the requests it wrote are still carried
        /// out (a client's last words: `kiosk-hud run` putting the HUD back as it was), unanswered.
        var unheard = false
        init(fd: Int32, credentials: PeerCredentials) { self.fd = fd; self.credentials = credentials }
        var pending: Int { output.count - sent }
    }

    public init(kernel: Kernel, loop: EventLoop, listener: Int32, daemon: Daemon, access: AccessRule, log: @escaping (String) -> Void) {
        self.kernel = kernel; self.loop = loop; self.listener = listener; self.daemon = daemon; self.access = access; self.log = log
        refusals = RepeatLog(loop: loop, window: ControlServer.logWindow, log: log) { kind in
            switch kind {
            case .tooManyClients: "control socket: refused: too many clients (\(ControlServer.maxClients))"
            case .permissionDenied: "control socket: refused: permission denied"
            case .notRoot: "control socket: refused: an op only root may ask for"
            }
        }
        listenToken = loop.watch(listener, .readable) { [unowned self] _ in self.acceptAll() }
        daemon.onChange = { [unowned self] r in
            // Written out only for someone who listens (an overlay, or a subscriber of `changed`).
            guard self.clients.values.contains(where: { $0.subscription?.contains(.changed) == true }), let request = r.mirrored else { return }
            self.publish(.changed, [("request", .object(request))])
        }
        daemon.overlays = { [unowned self] in self.overlays.map(\.screen) }
    }

    /// The overlays following the HUD: who, and on what screen (oldest first).
    public var overlays: [(pid: Int32, uid: UInt32, screen: OverlayScreen)] {
        clients.values.compactMap { c in c.overlay.map { (c.credentials.pid, c.credentials.uid, $0) } }.sorted { $0.pid < $1.pid }
    }

    /// Stops listening and closes every client (the listening descriptor stays the owner's);
    /// refusals still being counted are logged.
    public func close() {
        if let t = listenToken { loop.cancel(t) }
        listenToken = nil
        for c in clients.values { drop(c, why: nil) }
        refusals.close()
    }

    public var clientCount: Int { clients.count }

    // MARK: Accepting

    private func acceptAll() {
        while true {
            let next: (fd: Int32, credentials: PeerCredentials)?
            do { next = try kernel.acceptWithCredentials(listener) } catch {
                log("control socket: \(error)")
                return
            }
            guard let (fd, cred) = next else { return }
            let c = Client(fd: fd, credentials: cred)
            // Only connections still there count: those that closed since poll last looked go
            // first (a script's `ctl` connects, asks and closes — often within one turn).
            if clients.count >= ControlServer.maxClients { reapHungUp() }
            if let (kind, why) = refusal(cred) {
                refused += 1
                refusals.write(kind, "control socket: refused pid \(cred.pid) uid \(cred.uid): \(why)")
                refuse(c, why, code: kind.code)
                continue
            }
            clients[fd] = c
            c.token = loop.watch(fd, .readable) { [unowned self, unowned c] events in self.ready(c, events) }
            // Read at once: a client that connected, wrote and closed is served and gone in
            // this turn, not counted until the next poll sees its hang-up.
            read(c)
        }
    }

    /// Why a peer is refused, as the log counts refusals.
    enum Refusal: Hashable, Sendable {
        case tooManyClients, permissionDenied
        /// A client let in asked for an op only root may ask for (`DaemonOp.authority`).
        case notRoot
        /// The reply's code.
        var code: ReplyCode { self == .tooManyClients ? .tooManyClients : .permissionDenied }
    }

    /// Why this peer may not talk to the daemon, or nil.
    func refusal(_ cred: PeerCredentials) -> (Refusal, String)? {
        if clients.count >= ControlServer.maxClients { return (.tooManyClients, "too many clients (\(ControlServer.maxClients))") }
        if cred.uid == 0 || cred.uid == kernel.effectiveUserID() || access.allowedUIDs.contains(cred.uid) { return nil }
        // The groups the kernel recorded when the peer connected (SO_PEERGROUPS), not
        // /proc/PID/status read now: that pid may already be another process's.
        if let g = access.group, cred.isMember(of: g) { return nil }
        return (.permissionDenied, "permission denied: uid \(cred.uid) is not root, in the daemon's group, or allowed (--allow-uid)")
    }

    /// Reads every client that poll (zero timeout: never waits) says is readable or hung up:
    /// what it sent is answered, and one that has gone is dropped (one closing after an error
    /// line too: its peer will not read it).
    private func reapHungUp() {
        var fds = clients.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard let n = try? kernel.poll(&fds, timeoutMs: 0), n > 0 else { return }
        for p in fds where p.revents != 0 {
            guard let c = clients[p.fd] else { continue }
            if !c.closing { read(c) } else if p.revents & Int16(POLLHUP | POLLERR) != 0 { drop(c, why: nil) }
        }
    }

    /// One refusal line, written now (best effort: the socket is new and empty), then closed.
    private func refuse(_ c: Client, _ why: String, code: ReplyCode) {
        let line = Array((JSON.encode(.object(JSONObject(Self.errorReply(id: nil, why, code)))) + "\n").utf8)
        _ = line.withUnsafeBytes { try? kernel.send(c.fd, $0) }
        kernel.close(c.fd)
    }

    // MARK: Reading and answering

    private func ready(_ c: Client, _ events: LoopEvents) {
        if events.contains(.writable) { flush(c) }
        guard clients[c.fd] === c else { return }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) { read(c) }
    }

    /// Reads what is there (a few chunks at most per turn, so one busy client cannot starve
    /// the others: poll reports it again next turn).
    private func read(_ c: Client) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        var chunks = 0
        while clients[c.fd] === c, !c.closing, chunks < 4 {
            chunks += 1
            let n: Int
            do throws(SysError) {
                n = try kernel.read(c.fd, into: &buffer)
            } catch where error.errno == EAGAIN {
                return
            } catch {
                drop(c, why: nil)
                return
            }
            if n == 0 { drop(c, why: nil); return }   // gone (half a line, if any, is forgotten)
            c.input += buffer[..<n]
            lines(c)
        }
    }

    /// Answers every whole line in `c`'s input; a line over the limit ends the connection.
    private func lines(_ c: Client) {
        while let nl = c.input.firstIndex(of: 0x0A) {
            let line = Array(c.input[..<nl])
            c.input.removeSubrange(...nl)
            guard line.count <= ControlServer.maxLine else { tooLong(c); return }
            answer(c, line)
            if c.closing || clients[c.fd] !== c { return }
        }
        if c.input.count > ControlServer.maxLine { tooLong(c) }
    }

    private func tooLong(_ c: Client) {
        c.input = []
        reply(c, id: nil, error: .bad("request longer than \(ControlServer.maxLine) bytes; closing the connection"))
        c.closing = true
        if c.pending == 0 { drop(c, why: nil) }
    }

    private func answer(_ c: Client, _ line: [UInt8]) {
        served += 1
        let value: JSONValue
        do { value = try JSON.parse(line.last == 0x0D ? line.dropLast() : line[...]) } catch {
            reply(c, id: nil, error: RequestError.bad("not JSON: \(error)"))
            return
        }
        guard case let .object(object) = value else { reply(c, id: nil, error: .bad("a request is a JSON object")); return }
        let id = object["id"]
        // Once per field and daemon: a client that keeps using a deprecated name is told once.
        for note in DaemonRequest.deprecations(in: object) where deprecationsLogged.insert(note).inserted {
            log("control socket: pid \(c.credentials.pid): \(note)")
        }
        var op: DaemonOp?
        do {
            let request = try DaemonRequest(object)
            op = request.op
            if case let .subscribe(events) = request {
                c.subscription = events ?? Set(DaemonEvent.allCases)
            }
            let fields = try daemon.handle(request, from: .client(c.credentials))
            if case let .overlay(screen) = request, c.overlay == nil {
                // From the state in this reply on, every change (nothing comes between: the
                // loop's one thread answers this line and the next).
                c.overlay = screen
                c.subscription = (c.subscription ?? []).union([.changed])
                log("control socket: pid \(c.credentials.pid) uid \(c.credentials.uid) draws the HUD on \(screen.rawValue) (an overlay)")
            }
            send(c, [("v", .number(Double(protocolVersion))), ("ok", .bool(true))] + (id.map { [("id", $0)] } ?? []) + fields)
        } catch {
            // The daemon decides who may ask for what (`DaemonOp.authority`); the server counts
            // and logs its refusals as it does the peers it turns away.
            if error.code == .permissionDenied, let op {
                refused += 1
                refusals.write(.notRoot, "control socket: refused pid \(c.credentials.pid) uid \(c.credentials.uid): \(op.rawValue) is root's only")
            }
            reply(c, id: id, error: error)
        }
        onAnswered?(object)
    }

    private func reply(_ c: Client, id: JSONValue?, error: RequestError) {
        send(c, Self.errorReply(id: id, error.description, error.code))
    }

    /// An error reply's fields: the refusal of a peer and the answer to a request alike.
    private static func errorReply(id: JSONValue?, _ why: String, _ code: ReplyCode) -> [(String, JSONValue)] {
        [("v", .number(Double(protocolVersion))), ("ok", .bool(false))] + (id.map { [("id", $0)] } ?? [])
            + [("error", .string(why)), ("code", .string(code.rawValue))]
    }

    /// Queues one line for `c` and writes what the socket takes now.
    private func send(_ c: Client, _ fields: [(String, JSONValue)]) {
        if c.unheard { return }
        c.output += Array((JSON.encode(.object(JSONObject(fields))) + "\n").utf8)
        if c.pending > ControlServer.maxQueued {
            dropped += 1
            drop(c, why: "does not read its replies (\(c.pending) bytes waiting)")
            return
        }
        flush(c)
    }

    private func flush(_ c: Client) {
        while c.pending > 0 {
            let n: Int
            do throws(SysError) {
                n = try kernel.send(c.fd, c.output[c.sent...])
            } catch where error.errno == EAGAIN {
                if let t = c.token { loop.setEvents(t, [.readable, .writable]) }
                return
            } catch where (error.errno == EPIPE || error.errno == ECONNRESET) && !c.closing {
                // Gone: what it wrote is read to its end (then the connection is dropped).
                c.unheard = true
                c.output = []; c.sent = 0
                if let t = c.token { loop.setEvents(t, .readable) }
                return
            } catch {
                drop(c, why: nil)
                return
            }
            c.sent += n
        }
        c.output.removeAll(keepingCapacity: c.output.capacity <= 65536)
        c.sent = 0
        if let t = c.token { loop.setEvents(t, .readable) }
        if c.closing { drop(c, why: nil) }
    }

    private func drop(_ c: Client, why: String?) {
        guard clients.removeValue(forKey: c.fd) === c else { return }
        if let why { log("control socket: dropped pid \(c.credentials.pid): \(why)") }
        if let o = c.overlay { log("control socket: the overlay on \(o.rawValue) (pid \(c.credentials.pid)) is gone") }
        if let t = c.token { loop.cancel(t) }
        kernel.close(c.fd)
    }

    // MARK: Events

    /// Pushes `event` (with `fields`) to every subscriber that asked for it.
    public func publish(_ event: DaemonEvent, _ fields: [(String, JSONValue)] = []) {
        for c in clients.values where c.subscription?.contains(event) == true && !c.closing {
            send(c, [("v", .number(Double(protocolVersion))), ("event", .string(event.rawValue))] + fields)
        }
    }
}
