import Glibc
import KioskSeams
import KioskSettings
import KioskSys

/// Plymouth's socket on the event loop: each connection's requests read as they come
/// (pipelined or one a connection, as PID 1 writes them and closes), answered in order.
///
/// Bounded like the control socket (`ControlServer`), and nothing a client sends ends or stalls
/// the daemon: a request is at most 258 bytes and a connection keeps at most one that is not
/// complete; at most `maxClients` connections, of which `maxStrangers` from users other than
/// root; a client that does not read its replies is dropped once `maxQueued` bytes wait; a few
/// chunks a turn per client. Framing that cannot be followed gets a NAK and the connection is
/// closed; a request that is framed right but refused (unknown, bad argument) gets a NAK and
/// the connection goes on. Only root may talk to Plymouth: any other peer (SO_PEERCRED at
/// connect) gets a NAK for each request, as plymouthd answers it. A new connection is read at
/// once, so a client that connects, writes and closes is served in the turn it is accepted.
///
/// Order across connections: PID 1 writes each status on a connection of its own, so one
/// accepted before its bytes came may be read after newer ones. Each request comes with an
/// order: a connection's first request has its place in the accept queue (the order clients
/// connected in), a later one the place of the newest connection accepted when it was read.
/// A front end that keeps the last of something (the status line) keeps the highest order.
public final class PlymouthServer {
    /// What the handler says to a request.
    public enum Answer: Equatable, Sendable {
        /// Reply now.
        case reply(PlymouthReply)
        /// Reply later: `close(answeringHeld:)` does (Plymouth's quit is acknowledged once the
        /// splash has let the display go). The connection's later requests wait.
        case hold
    }

    /// The listening socket's accept queue (plymouthd's SOMAXCONN): PID 1 connects without
    /// blocking and drops a status when the queue is full, and a boot starts units in bursts.
    public static let backlog: Int32 = 4096
    /// At most this many connections at once; the next gets a NAK and is closed.
    public static let maxClients = 64
    /// At most this many of them from users other than root.
    public static let maxStrangers = 8
    /// A client whose unread replies reach this many bytes is dropped.
    public static let maxQueued = 4096
    /// Bytes read a turn per client, in chunks; connections accepted a turn (a burst of PID 1's
    /// leaves room for frames and other clients between every 32).
    static let chunk = 4096, chunksPerTurn = 4, acceptsPerTurn = 32

    let kernel: Kernel
    let loop: EventLoop
    let listener: Int32
    let log: (String) -> Void
    let handle: (PlymouthRequest, _ order: UInt64) -> Answer
    /// Connections accepted so far (the order of the next one).
    private var accepted: UInt64 = 0
    private var listenToken: LoopToken?
    private var clients: [Int32: Client] = [:]
    private var buffer = [UInt8](repeating: 0, count: PlymouthServer.chunk)
    private let troubles: RepeatLog<Trouble>
    /// Counters: requests answered, refused (not root, unknown, bad argument), connections cut
    /// for bad framing, dropped for not reading, turned away (too many).
    public private(set) var served = 0, refused = 0, malformed = 0, dropped = 0, turnedAway = 0
    /// Hears each request (nil: refused before it was read as one) and its reply (nil: held).
    public var onRequest: ((PlymouthRequest?, PlymouthReply?) -> Void)?

    final class Client {
        let fd: Int32
        let credentials: PeerCredentials
        var token: LoopToken?
        var decoder = PlymouthRequestDecoder()
        var output: [UInt8] = []
        var sent = 0
        /// Close once the output is written (after bad framing, or the peer's end).
        var closing = false
        /// A reply is held (quit): nothing more is read or answered until it is sent.
        var holding = false
        /// Something about this client was logged (one line a connection).
        var logged = false
        /// Its place in the accept queue, and whether a request of it was handled yet.
        let serial: UInt64
        var handledOne = false
        init(fd: Int32, credentials: PeerCredentials, serial: UInt64) { self.fd = fd; self.credentials = credentials; self.serial = serial }
        var pending: Int { output.count - sent }
        var trusted: Bool { credentials.uid == 0 }
    }

    /// Serves `listener` (a listening socket, owned by the caller) on `loop`; `handle` answers
    /// each request of a root peer, with its order (see above).
    public init(kernel: Kernel, loop: EventLoop, listener: Int32, log: @escaping (String) -> Void,
                handle: @escaping (PlymouthRequest, _ order: UInt64) -> Answer) {
        self.kernel = kernel; self.loop = loop; self.listener = listener; self.log = log; self.handle = handle
        troubles = RepeatLog(loop: loop, window: ControlServer.logWindow, log: log) { kind in
            switch kind {
            case .badFraming: "plymouth: bad framing"
            case .notRoot: "plymouth: not root"
            case .refused: "plymouth: refused"
            case .turnedAway: "plymouth: turned away: too many connections"
            }
        }
        listenToken = loop.watch(listener, .readable) { [unowned self] _ in self.acceptAll() }
    }

    /// Connections open now.
    public var clientCount: Int { clients.count }

    /// Stops listening and closes every connection but those holding a reply (the owner's
    /// `close(answeringHeld:)` answers them later).
    public func stopListening() {
        if let t = listenToken { loop.cancel(t) }
        listenToken = nil
        for c in clients.values where !c.holding { drop(c, why: nil) }
        troubles.close()
    }

    /// Stops listening and closes every connection; those holding a reply get `reply` first
    /// (best effort: written if the socket takes it now).
    public func close(answeringHeld reply: PlymouthReply? = nil) {
        if let t = listenToken { loop.cancel(t) }
        listenToken = nil
        for c in clients.values {
            if c.holding, let reply {
                c.output += reply.bytes
                _ = try? kernel.send(c.fd, c.output[c.sent...])
            }
            drop(c, why: nil)
        }
        troubles.close()
    }

    // MARK: Accepting

    private func acceptAll() {
        for _ in 0..<PlymouthServer.acceptsPerTurn {
            let next: (fd: Int32, credentials: PeerCredentials)?
            do { next = try kernel.acceptWithCredentials(listener) } catch {
                log("plymouth: \(error)")
                return
            }
            guard let (fd, cred) = next else { return }
            accepted += 1
            let c = Client(fd: fd, credentials: cred, serial: accepted)
            let strangers = clients.values.count { !$0.trusted }
            if clients.count >= PlymouthServer.maxClients || (!c.trusted && strangers >= PlymouthServer.maxStrangers) {
                turnedAway += 1
                troubles.write(.turnedAway, "plymouth: turned away pid \(cred.pid) uid \(cred.uid): too many connections (\(turnedAway) so far)")
                _ = try? kernel.send(fd, PlymouthReply.nak.bytes[...])
                kernel.close(fd)
                continue
            }
            clients[fd] = c
            c.token = loop.watch(fd, .readable) { [unowned self, unowned c] events in self.ready(c, events) }
            read(c)
        }
    }

    // MARK: Reading and answering

    private func ready(_ c: Client, _ events: LoopEvents) {
        if events.contains(.writable) { flush(c) }
        guard clients[c.fd] === c, !c.holding else { return }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) { read(c) }
    }

    /// Reads what is there (a few chunks a turn), answers every complete request, then writes
    /// the replies — in that order, so that a client that wrote several requests and closed
    /// has each of them handled though its replies cannot be delivered.
    private func read(_ c: Client) {
        var chunks = 0
        var ended = false
        while !c.closing, !c.holding, chunks < PlymouthServer.chunksPerTurn {
            chunks += 1
            let n: Int
            do throws(SysError) {
                n = try kernel.read(c.fd, into: &buffer)
            } catch where error.errno == EAGAIN {
                break
            } catch {
                ended = true
                break
            }
            if n == 0 { ended = true; break }
            c.decoder.append(buffer[..<n])
            answer(c)
        }
        guard clients[c.fd] === c else { return }
        if ended { c.closing = true }
        flush(c)
    }

    private func answer(_ c: Client) {
        while !c.closing, !c.holding {
            let frame: PlymouthFrame
            do throws(PlymouthFramingError) {
                guard let f = try c.decoder.next() else { return }
                frame = f
            } catch {
                malformed += 1
                note(c, .badFraming, "bad framing (\(error)); closing the connection")
                reply(c, .nak, nil)
                c.closing = true
                return
            }
            guard c.trusted else {
                refused += 1
                note(c, .notRoot, "not root: every request gets NAK (Plymouth's rule)")
                reply(c, .nak, nil)
                continue
            }
            let request: PlymouthRequest
            do throws(PlymouthRequestError) { request = try PlymouthRequest(frame) } catch {
                refused += 1
                note(c, .refused, "refused: \(error)")
                reply(c, .nak, nil)
                continue
            }
            served += 1
            let order = c.handledOne ? accepted : c.serial
            c.handledOne = true
            switch handle(request, order) {
            case let .reply(r): reply(c, r, request)
            case .hold:
                c.holding = true
                onRequest?(request, nil)
            }
        }
    }

    /// What the log counts.
    enum Trouble: Hashable, Sendable { case badFraming, notRoot, refused, turnedAway }

    /// One log line a connection (a flood of bad requests on one is one line), and across
    /// connections one line of a kind, then a count (PID 1 writes each status on a connection
    /// of its own).
    private func note(_ c: Client, _ kind: Trouble, _ what: String) {
        guard !c.logged else { return }
        c.logged = true
        troubles.write(kind, "plymouth: pid \(c.credentials.pid) uid \(c.credentials.uid): \(what)")
    }

    private func reply(_ c: Client, _ r: PlymouthReply, _ request: PlymouthRequest?) {
        c.output += r.bytes
        onRequest?(request, r)
    }

    private func flush(_ c: Client) {
        guard clients[c.fd] === c else { return }
        while c.pending > 0 {
            let n: Int
            do throws(SysError) {
                n = try kernel.send(c.fd, c.output[c.sent...])
            } catch where error.errno == EAGAIN {
                if c.pending > PlymouthServer.maxQueued {
                    dropped += 1
                    drop(c, why: "does not read its replies (\(c.pending) bytes waiting)")
                    return
                }
                if let t = c.token { loop.setEvents(t, c.holding ? .writable : [.readable, .writable]) }
                return
            } catch {
                drop(c, why: nil)   // gone: PID 1 writes and closes without reading
                return
            }
            c.sent += n
        }
        c.output.removeAll(keepingCapacity: c.output.capacity <= 1024)
        c.sent = 0
        if c.closing { drop(c, why: nil); return }
        if let t = c.token {
            if c.holding { loop.cancel(t); c.token = nil } else { loop.setEvents(t, .readable) }
        }
    }

    private func drop(_ c: Client, why: String?) {
        guard clients.removeValue(forKey: c.fd) === c else { return }
        if let why { log("plymouth: dropped pid \(c.credentials.pid): \(why)") }
        if let t = c.token { loop.cancel(t) }
        c.token = nil
        kernel.close(c.fd)
    }
}

// MARK: - The name

/// Why Plymouth's abstract socket could not be had.
public enum PlymouthSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another socket is bound to the name: plymouthd, another daemon with `--plymouth` — or any
    /// user's, as an abstract name has no owner and no permissions (bind(2)'s EADDRINUSE).
    case taken(name: String)
    /// Any other failure of socket(2), bind(2) or listen(2) (too many descriptors …).
    case failed(name: String, SysError)

    public var description: String {
        switch self {
        case let .taken(name): "@\(name) is taken by another process (plymouthd, another daemon with --plymouth, or any user: an abstract name has no owner)"
        case let .failed(name, error): "@\(name): \(error)"
        }
    }
}

/// Plymouth's abstract socket name, held while it can be.
///
/// Any user can bind an abstract name before the daemon does (a squatter), and plymouthd or
/// another daemon may hold it. None of them stops the daemon: it runs on without Plymouth's
/// socket — its other sources, the control socket first, are no less needed — with one log
/// line and `state` saying why (`ctl status`), and asks for the name again every
/// `retryInterval` seconds on its loop, so that Plymouth's clients reach it once the name is
/// free. An attempt that fails as the one before did is not logged again.
public final class PlymouthListener {
    /// Whether the name is held.
    public enum State: Equatable, Sendable {
        case listening
        case unavailable(PlymouthSocketError)
    }

    /// Seconds between attempts while the name is not held: a bind(2) that fails costs
    /// microseconds, and PID 1 drops each unit's status that it cannot deliver, so a short wait
    /// loses few of them once the name is free.
    public static let retryInterval: Seconds = 2

    public let name: String
    let kernel: Kernel
    let backlog: Int32
    /// Seconds between attempts (`retryInterval`; shorter in tests).
    let interval: Seconds
    /// The listening socket (a descriptor of `kernel`, owned here), once the name is held.
    public private(set) var fd: Int32?
    public private(set) var state: State
    /// Attempts made (the first one included).
    public private(set) var attempts = 0
    private var loop: EventLoop?
    private var timer: LoopToken?
    private var log: (String) -> Void = { _ in }
    private var onListening: (Int32) -> Void = { _ in }
    /// The failure last logged (the same one again is not).
    private var logged: PlymouthSocketError?
    private var closed = false

    /// Asks for `name` at once: before the display is touched, as plymouthd binds it first.
    public init(name: String, kernel: Kernel, backlog: Int32 = PlymouthServer.backlog, retryInterval: Seconds = PlymouthListener.retryInterval) {
        self.name = name; self.kernel = kernel; self.backlog = backlog; interval = retryInterval
        state = .unavailable(.taken(name: name))
        attempt()
    }

    /// `ctl status`'s words: "listening", or "unavailable: why".
    public var statusText: String {
        switch state {
        case .listening: "listening"
        case let .unavailable(why): "unavailable: \(why)"
        }
    }

    /// Goes on with `loop`: `onListening` gets the socket now if the name is held, else at the
    /// attempt that takes it (tried every `retryInterval` seconds until `close`).
    public func start(loop: EventLoop, log: @escaping (String) -> Void, onListening: @escaping (Int32) -> Void) {
        self.loop = loop; self.log = log; self.onListening = onListening
        if let fd { onListening(fd); return }
        note()
        scheduleRetry()
    }

    /// Stops asking and closes the socket, if held (safe to call twice).
    public func close() {
        closed = true
        if let t = timer { loop?.cancel(t) }
        timer = nil
        if let fd { kernel.close(fd) }
        fd = nil
    }

    /// One bind of the name.
    static func listen(_ name: String, kernel: Kernel, backlog: Int32) throws(PlymouthSocketError) -> Int32 {
        do throws(SysError) { return try kernel.listenUnixAbstract(name, backlog: backlog) } catch {
            throw error.errno == EADDRINUSE ? .taken(name: name) : .failed(name: name, error)
        }
    }

    private func attempt() {
        attempts += 1
        do throws(PlymouthSocketError) {
            fd = try PlymouthListener.listen(name, kernel: kernel, backlog: backlog)
            state = .listening
        } catch {
            state = .unavailable(error)
        }
    }

    /// Logs a failure unless it is the one logged last.
    private func note() {
        guard case let .unavailable(why) = state, why != logged else { return }
        log("plymouth: running without Plymouth's socket: \(why); trying again every \(formatNumber(interval)) s")
        logged = why
    }

    private func scheduleRetry() {
        guard !closed, fd == nil, timer == nil, let loop else { return }
        timer = loop.schedule(after: interval) { [weak self] in self?.retry() }
    }

    private func retry() {
        timer = nil
        guard !closed else { return }
        attempt()
        if let fd {
            log("plymouth: Plymouth's socket @\(name) is free again (after \(attempts) attempts)")
            onListening(fd)
        } else {
            note()
            scheduleRetry()
        }
    }
}
