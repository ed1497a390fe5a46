import Glibc

/// systemd's side of sd_notify for a test: an abstract datagram socket, as PID 1's is, whose
/// name goes into the child's NOTIFY_SOCKET (`environmentValue`). `next()` waits for one
/// datagram at most `bound` seconds (a bound on a child that never says anything, not a
/// measured time) and is "" when none came.
public final class NotifyListener {
    public let name: String
    private let fd: Int32

    public init?(_ prefix: String, bound seconds: Int = 10) {
        name = "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let name = name
        withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in name.utf8.enumerated() { b[i + 1] = c } }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(3 + name.utf8.count)) }
        }
        guard bound == 0 else { close(fd); return nil }
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// NOTIFY_SOCKET's value for the child.
    public var environmentValue: String { "@" + name }

    /// The next datagram, "" when none came within the bound.
    public func next() -> String {
        var b = [UInt8](repeating: 0, count: 1024)
        let n = recv(fd, &b, b.count, 0)
        return n < 0 ? "" : String(decoding: b[..<n], as: UTF8.self)
    }
}
