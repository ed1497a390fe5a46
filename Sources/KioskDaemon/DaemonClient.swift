import Glibc
import KioskProtocol
import KioskSys

/// A connection to a running daemon (what `kiosk-hud ctl` uses; Swift programs can too):
/// requests out, replies and events in, one JSON object a line.
///
///     let c = try DaemonClient(path: ControlSocket.defaultPath)
///     let reply = try c.request("update", [("progress", .number(0.4)), ("label", .string("Step 2"))])
public final class DaemonClient {
    let fd: FileDescriptor
    private var buffer: [UInt8] = []

    /// Why a conversation with the daemon failed.
    public enum Failure: Error, CustomStringConvertible {
        /// No daemon answers at the path (not running, or the socket is missing).
        case noDaemon(String)
        /// The daemon (or the socket's permissions) refused this user.
        case permissionDenied(String)
        /// The daemon answered with an error.
        case refused(String)
        /// Something that is not the protocol came back, or the connection broke.
        case protocolError(String)
        /// No event before the time was up.
        case timedOut

        public var description: String {
            switch self {
            case let .noDaemon(s), let .permissionDenied(s), let .refused(s), let .protocolError(s): s
            case .timedOut: "timed out"
            }
        }
    }

    /// Connects to the daemon at `path`.
    public init(path: String) throws(Failure) {
        do { fd = try unixConnection(path) } catch {
            switch error.errno {
            case EACCES, EPERM: throw .permissionDenied("\(path): permission denied (the socket is for root and the daemon's group)")
            case ENOENT, ECONNREFUSED: throw .noDaemon("no kiosk-hud daemon at \(path) (\(error.reason))")
            default: throw .noDaemon("cannot reach a kiosk-hud daemon at \(path): \(error)")
            }
        }
    }

    deinit { try? fd.close() }

    /// The connection's descriptor (to watch it on an event loop for events).
    public var fileDescriptor: Int32 { fd.rawValue }

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
    public func request(_ op: String, _ fields: [(String, JSONValue)] = []) throws(Failure) -> JSONObject {
        let line = JSON.encode(.object(JSONObject([("v", .number(Double(protocolVersion))), ("op", .string(op))] + fields))) + "\n"
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let n: Int
            do { n = try bytes.withUnsafeBytes { (b) throws(SysError) in try fd.sendNoSignal(b) } } catch {
                // A daemon that refuses a peer says why and closes at once; the reason may be
                // waiting to be read though the send failed.
                if let o = try? nextObject(timeout: 1), o["ok"]?.bool == false, let why = o["error"]?.string {
                    throw why.hasPrefix("permission denied") ? .permissionDenied(why) : .refused(why)
                }
                throw .protocolError("sending to the daemon: \(error)")
            }
            bytes = bytes.dropFirst(n)
        }
        while true {
            let o = try nextObject(timeout: nil)
            if o["event"] != nil { continue }   // an event for an earlier subscription
            guard o["ok"]?.bool == true else {
                let why = o["error"]?.string ?? "an error reply without a reason"
                throw why.hasPrefix("permission denied") ? .permissionDenied(why) : .refused(why)
            }
            return o
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

    private func nextObject(timeout: Double?) throws(Failure) -> JSONObject {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<nl]
                defer { buffer.removeSubrange(...nl) }
                guard case let .object(o)? = try? JSON.parse(line) else {
                    throw .protocolError("the daemon sent something that is not the protocol: \(String(decoding: line.prefix(80), as: UTF8.self))")
                }
                return o
            }
            var fds = [pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)]
            // A timeout of 0 still looks once (what has arrived is read).
            let left = deadline.map { max(0, $0 - monotonicSeconds()) }
            let ready = (try? poll(&fds, timeoutMs: left.map { Int32(min($0 * 1000, 3_600_000).rounded(.up)) } ?? -1)) ?? 0
            if ready == 0 {
                if let deadline, monotonicSeconds() >= deadline { throw .timedOut }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { (b) throws(SysError) in try fd.read(into: b) } } catch {
                throw .protocolError("reading from the daemon: \(error)")
            }
            if n == 0 { throw .protocolError("the daemon closed the connection") }
            buffer += chunk[..<n]
            if buffer.count > 1 << 20 { throw .protocolError("the daemon sent a line over 1 MiB") }
        }
    }
}
