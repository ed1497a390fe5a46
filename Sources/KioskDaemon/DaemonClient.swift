import Glibc
import KioskProtocol
import KioskSys

/// A connection to a running daemon (what `kiosk-hud ctl` uses; Swift programs can too):
/// requests out, replies and events in, one JSON object a line.
///
///     let c = try DaemonClient(path: ControlSocket.defaultPath)
///     let reply = try c.request(.update, [("progress", .number(0.4)), ("label", .string("Step 2"))])
public final class DaemonClient {
    let fd: Int32
    /// The seam every call on the connection goes through.
    let kernel: Kernel
    private var buffer: [UInt8] = []

    /// Why a conversation with the daemon failed.
    public enum Failure: Error, CustomStringConvertible {
        /// No daemon answers at the path (not running, or the socket is missing).
        case noDaemon(String)
        /// The daemon (or the socket's permissions) refused this user.
        case permissionDenied(String)
        /// The daemon answered with an error.
        case refused(String)
        /// Something that is not the protocol came back.
        case protocolError(String)
        /// The connection closed or broke: the daemon has gone (it ended, or was stopped).
        case connectionLost(String)
        /// No event before the time was up.
        case timedOut

        public var description: String {
            switch self {
            case let .noDaemon(s), let .permissionDenied(s), let .refused(s), let .protocolError(s), let .connectionLost(s): s
            case .timedOut: "timed out"
            }
        }
    }

    /// Connects to the daemon at `path` (through `kernel`: the real one unless a test plays it).
    public init(path: String, kernel: Kernel = LinuxKernel()) throws(Failure) {
        self.kernel = kernel
        do { fd = try kernel.connectUnix(path) } catch {
            switch error.errno {
            case EACCES, EPERM: throw .permissionDenied("\(path): permission denied (the socket is for root and the daemon's group)")
            case ENOENT, ECONNREFUSED: throw .noDaemon("no kiosk-hud daemon at \(path) (\(error.reason))")
            default: throw .noDaemon("cannot reach a kiosk-hud daemon at \(path): \(error)")
            }
        }
    }

    deinit { kernel.close(fd) }

    /// The connection's descriptor (to watch it on an event loop for events).
    public var fileDescriptor: Int32 { fd }

    /// The events that have arrived, without waiting.
    public func availableEvents() throws(Failure) -> [JSONObject] {
        var out: [JSONObject] = []
        while true {
            do { out.append(try nextEvent(timeout: 0)) } catch {
                if case .timedOut = error { return out }
                throw error
            }
        }
    }

    /// Sends one request and returns its reply (an error reply throws `.refused`).
    @discardableResult
    public func request(_ op: DaemonOp, _ fields: [(String, JSONValue)] = []) throws(Failure) -> JSONObject {
        try request(op, fields, timeout: nil)
    }

    /// Sends one request and returns its reply, waiting at most `timeout` seconds for it (nil:
    /// for ever); `.timedOut` when the daemon did not answer in time (stopped, or stuck).
    @discardableResult
    public func request(_ op: DaemonOp, _ fields: [(String, JSONValue)], timeout: Double?) throws(Failure) -> JSONObject {
        let o = try reply(op.rawValue, fields, timeout: timeout)
        try Self.check(o)
        return o
    }

    /// Sends one request by the op's name (any text, an op this daemon may not know too).
    @available(*, deprecated, message: "name the op as a DaemonOp: request(.status)")
    @discardableResult
    public func request(_ op: String, _ fields: [(String, JSONValue)] = []) throws(Failure) -> JSONObject {
        let o = try reply(op, fields, timeout: nil)
        try Self.check(o)
        return o
    }

    /// As `request(_:_:)` by the op's name, waiting at most `timeout` seconds.
    @available(*, deprecated, message: "name the op as a DaemonOp: request(.status, fields, timeout: t)")
    @discardableResult
    public func request(_ op: String, _ fields: [(String, JSONValue)], timeout: Double?) throws(Failure) -> JSONObject {
        let o = try reply(op, fields, timeout: timeout)
        try Self.check(o)
        return o
    }

    /// Sends one request and returns its reply as it came, an error reply too.
    public func reply(_ op: DaemonOp, _ fields: [(String, JSONValue)], timeout: Double?) throws(Failure) -> JSONObject {
        try reply(op.rawValue, fields, timeout: timeout)
    }

    /// One request line (with its newline).
    public static func requestLine(_ op: DaemonOp, _ fields: [(String, JSONValue)] = []) -> [UInt8] {
        requestLine(op.rawValue, fields)
    }

    /// Sends one request by the op's name (a test's unknown op too) and returns its reply as it
    /// came, an error reply too (its `"code"` is a `ReplyCode`); throws only when no reply came.
    public func reply(_ op: String, _ fields: [(String, JSONValue)], timeout: Double?) throws(Failure) -> JSONObject {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        var bytes = Self.requestLine(op, fields)[...]
        while !bytes.isEmpty {
            let n: Int
            do { n = try kernel.send(fd, bytes) } catch {
                // A daemon that refuses a peer says why and closes at once; the reason may be
                // waiting to be read though the send failed.
                if let o = try? nextObject(timeout: 1), o["ok"]?.bool == false { try Self.check(o) }
                throw .connectionLost("sending to the daemon: \(error)")
            }
            bytes = bytes.dropFirst(n)
        }
        while true {
            let o = try nextObject(timeout: deadline.map { max(0, $0 - monotonicSeconds()) })
            if o["event"] != nil { continue }   // an event for an earlier subscription
            return o
        }
    }

    /// Throws the failure an error reply stands for (`.permissionDenied` or `.refused`).
    public static func check(_ reply: JSONObject) throws(Failure) {
        guard reply["ok"]?.bool != true else { return }
        let why = reply["error"]?.string ?? "an error reply without a reason"
        // The code says what it is; a daemon from before the codes is read by its message.
        let code = reply["code"]?.string.flatMap(ReplyCode.init(rawValue:))
        let denied = code.map { $0 == .permissionDenied } ?? why.hasPrefix("permission denied")
        throw denied ? .permissionDenied(why) : .refused(why)
    }

    /// One request as its line on the wire (with the newline).
    public static func requestLine(_ op: String, _ fields: [(String, JSONValue)] = []) -> [UInt8] {
        Array((JSON.encode(.object(JSONObject([("v", .number(Double(protocolVersion))), ("op", .string(op))] + fields))) + "\n").utf8)
    }

    // MARK: On an event loop (nothing waits)

    /// Writes what the socket takes now of `bytes` (request lines) and returns how many bytes
    /// that was (0 when its buffer is full: watch `fileDescriptor` for writable and try again).
    public func writeWithoutWaiting(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int {
        let (kernel, fd) = (kernel, fd)
        let r: Result<Int, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try kernel.sendWithoutWaiting(fd, b) } }
        do throws(SysError) { return try r.get() } catch {
            throw .connectionLost("sending to the daemon: \(error)")
        }
    }

    /// Writes what the socket takes now of `queue` (request lines) and removes it from there;
    /// what is left waits for the socket to be writable.
    public func writeWithoutWaiting(from queue: inout [UInt8]) throws(Failure) {
        while !queue.isEmpty {
            let n = try writeWithoutWaiting(queue[...])
            if n == 0 { return }
            queue.removeFirst(n)
        }
    }

    /// The replies and events that have arrived, in order, without waiting (`.connectionLost`
    /// once the connection is closed or broken).
    public func availableObjects() throws(Failure) -> [JSONObject] {
        var out: [JSONObject] = []
        while true {
            do { out.append(try nextObject(timeout: 0)) } catch {
                if case .timedOut = error { return out }
                if out.isEmpty { throw error }
                return out   // the failure shows again at the next call, after what came before it
            }
        }
    }

    /// The next event pushed to this connection (after a `subscribe`), waiting at most
    /// `timeout` seconds (nil: for ever).
    public func nextEvent(timeout: Double?) throws(Failure) -> JSONObject {
        while true {
            let o = try nextObject(timeout: timeout.map { $0 })
            if o["event"] != nil { return o }
        }
    }

    /// What a reply may be: larger than a request (a `status` carries every text a client set,
    /// each control character six bytes in JSON: over 64 KiB at the limits), nested as a request.
    public static let replyLimits = JSONLimits(maxBytes: 1 << 20)

    private func nextObject(timeout: Double?) throws(Failure) -> JSONObject {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<nl]
                defer { buffer.removeSubrange(...nl) }
                guard case let .object(o)? = try? JSON.parse(line, limits: DaemonClient.replyLimits) else {
                    throw .protocolError("the daemon sent something that is not the protocol: \(String(decoding: line.prefix(80), as: UTF8.self))")
                }
                return o
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            // A timeout of 0 still looks once (what has arrived is read).
            let left = deadline.map { max(0, $0 - monotonicSeconds()) }
            let ready = (try? kernel.poll(&fds, timeoutMs: left.map { Int32(min($0 * 1000, 3_600_000).rounded(.up)) } ?? -1)) ?? 0
            if ready == 0 {
                if let deadline, monotonicSeconds() >= deadline { throw .timedOut }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n: Int
            do { n = try kernel.read(fd, into: &chunk) } catch {
                throw .connectionLost("reading from the daemon: \(error)")
            }
            if n == 0 { throw .connectionLost("the daemon closed the connection") }
            buffer += chunk[..<n]
            if buffer.count > 1 << 20 { throw .protocolError("the daemon sent a line over 1 MiB") }
        }
    }
}
