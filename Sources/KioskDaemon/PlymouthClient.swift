import Glibc
import KioskSys

/// A connection to a Plymouth daemon — plymouthd, or `kiosk-hud daemon --plymouth` — as the
/// `plymouth` command makes it (what `kiosk-hud plymouth` uses).
///
///     let c = try PlymouthClient()
///     let reply = try c.send(.status("Starting the kiosk"))   // .ack
public final class PlymouthClient {
    let fd: Int32
    /// The seam every call on the connection goes through.
    let kernel: Kernel
    private var decoder = PlymouthReplyDecoder()
    /// The socket's abstract name.
    public let name: String

    /// Why a conversation failed.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing listens on the socket.
        case noDaemon(String)
        /// The daemon closed the connection before replying.
        case disconnected
        /// Something that is not the protocol came back, or the connection broke.
        case protocolError(String)

        public var description: String {
            switch self {
            case let .noDaemon(s), let .protocolError(s): s
            case .disconnected: "unexpectedly disconnected from boot status daemon"
            }
        }
    }

    /// Connects to the daemon at the abstract socket `name` (through `kernel`: the real one
    /// unless a test plays it).
    public init(name: String = PlymouthWire.defaultSocketName, kernel: Kernel = LinuxKernel()) throws(Failure) {
        self.name = name
        self.kernel = kernel
        do { fd = try kernel.connectUnixAbstract(name) } catch {
            throw .noDaemon("could not connect to \(name): \(error.reason)")
        }
    }

    deinit { kernel.close(fd) }

    /// Sends `requests` at once (pipelined, as plymouth does for ask-for-password's pause
    /// first) and returns their replies in order; fewer when the daemon closes before
    /// answering them all (then `.disconnected` if none came).
    public func send(_ requests: [PlymouthRequest]) throws(Failure) -> [PlymouthReply] {
        var bytes: [UInt8] = []
        for r in requests {
            do { bytes += try r.frame().bytes } catch { throw .protocolError("\(error)") }
        }
        var rest = bytes[...]
        while !rest.isEmpty {
            let n: Int
            do throws(SysError) { n = try kernel.send(fd, rest) } catch {
                if error.errno == EPIPE || error.errno == ECONNRESET { break }   // the replies may still be there to read
                throw .protocolError("sending to the daemon: \(error)")
            }
            rest = rest.dropFirst(n)
        }
        var replies: [PlymouthReply] = []
        while replies.count < requests.count {
            guard let r = try nextReply(timeout: nil) else {
                if replies.isEmpty { throw .disconnected }
                return replies
            }
            replies.append(r)
        }
        return replies
    }

    /// Sends one request and returns its reply.
    public func send(_ request: PlymouthRequest) throws(Failure) -> PlymouthReply {
        try send([request])[0]
    }

    /// Waits until the daemon closes the connection (it quits): `plymouth --wait`.
    public func waitForEnd() throws(Failure) {
        while true {
            if try nextReply(timeout: nil) == nil { return }
        }
    }

    /// The next reply, nil when the daemon closed the connection; waits at most `timeout`
    /// seconds (nil: for ever; then `.protocolError("timed out")`).
    func nextReply(timeout: Double?) throws(Failure) -> PlymouthReply? {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while true {
            do throws(PlymouthReplyError) {
                if let r = try decoder.next() { return r }
            } catch {
                throw .protocolError("the daemon sent something that is not Plymouth's protocol: \(error)")
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let left = deadline.map { max(0, $0 - monotonicSeconds()) }
            let ready = (try? kernel.poll(&fds, timeoutMs: left.map { Int32(min($0 * 1000, 3_600_000).rounded(.up)) } ?? -1)) ?? 0
            if ready == 0 {
                if let deadline, monotonicSeconds() >= deadline { throw .protocolError("timed out") }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n: Int
            do throws(SysError) { n = try kernel.read(fd, into: &chunk) } catch {
                if error.errno == ECONNRESET { return nil }
                throw .protocolError("reading from the daemon: \(error)")
            }
            if n == 0 {
                if decoder.pending > 0 { throw .protocolError("the daemon closed the connection in the middle of a reply") }
                return nil
            }
            decoder.append(chunk[..<n])
        }
    }
}
