// sd_notify without libsystemd: the datagram $NOTIFY_SOCKET receives, for a path and for an
// abstract name (systemd uses both), and the cases where nothing is sent or an error says why.
import Glibc
import KioskSys
import Testing

/// A datagram socket bound at `name` ("@name": abstract), as systemd's notify socket is.
private final class NotifyListener {
    let fd: Int32
    init(_ name: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in bytes.enumerated() { b[i] = c } }
        let length = socklen_t(2 + bytes.count + (abstract ? 0 : 1))
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        if r != 0 { throw SysError(call: "bind", errno: errno, target: name) }
    }
    deinit { close(fd) }

    /// The one datagram waiting, nil if none.
    func received() -> String? {
        var b = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &b, b.count, 0)
        return n < 0 ? nil : String(decoding: b[..<n], as: UTF8.self)
    }
}

@Suite struct SystemdNotifyTests {
    @Test func readyReachesAnAbstractSocket() throws {
        let name = "@kiosk-notify-test-\(getpid())"
        let l = try NotifyListener(name)
        #expect(try notifyServiceManager("READY=1\nSTATUS=On screen\n", socket: name))
        #expect(l.received() == "READY=1\nSTATUS=On screen\n")
        #expect(l.received() == nil, "one datagram, not more")
    }

    @Test func readyReachesAPathSocket() throws {
        let path = "/tmp/kiosk-notify-\(getpid())"
        unlink(path)
        let l = try NotifyListener(path)
        defer { unlink(path) }
        #expect(try notifyServiceManager("READY=1\n", socket: path))
        #expect(l.received() == "READY=1\n")
    }

    @Test func nothingIsSentWithoutASocket() throws {
        #expect(try notifyServiceManager("READY=1\n", socket: nil) == false)
        #expect(try notifyServiceManager("READY=1\n", socket: "") == false)
    }

    @Test func aBadSocketIsAnErrorNamingIt() {
        #expect(throws: SysError.self) { try notifyServiceManager("READY=1\n", socket: "vsock:2:1234") }
        do { try notifyServiceManager("READY=1\n", socket: "vsock:2:1234") } catch {
            #expect("\(error)" == "NOTIFY_SOCKET=vsock:2:1234: not a path or an @abstract name")
        }
        // Nobody listens there: connection refused / no such file, with the call's name.
        do { try notifyServiceManager("READY=1\n", socket: "/nonexistent/kiosk-notify"); Issue.record("no error") } catch {
            #expect("\(error)".contains("sendto") && "\(error)".contains("/nonexistent/kiosk-notify"), "\(error)")
        }
    }
}
