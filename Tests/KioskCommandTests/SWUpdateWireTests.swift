// The daemon against a stand-in for a newer SWUpdate on its progress socket (a listening socket
// of the test's, at --swupdate=PATH): API 2's acknowledgement and a packed message (2025.12 on)
// reach the HUD; an API version the daemon does not read is one log line and nothing on screen,
// also when it comes again at each reconnect.
import Glibc
import KioskTestSupport
import Testing

/// A listening Unix socket at `path` (blocking accepts).
final class StandInServer {
    let fd: Int32
    init?(_ path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in path.utf8.enumerated() { b[i] = c } }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else { return nil }
    }
    deinit { close(fd) }

    /// The next connection (waits for the daemon to connect).
    func accept() -> Int32 { Glibc.accept(fd, nil, nil) }

    static func send(_ c: Int32, _ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
}

@Suite(.serialized) struct SWUpdateWireTests {
    func daemon(_ dir: String) -> pid_t? {
        let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--no-input", "--socket", dir + "/c.sock", "--animation-duration", "0",
                              "--mode", "text", "--label", "Idle", "--swupdate=" + dir + "/swupdateprog"], stderr: dir + "/d.err")
        guard let pid else { return nil }
        _ = waitForDaemon(socket: dir + "/c.sock")
        return pid
    }

    func status(_ dir: String) -> String { Proc.run([Proc.kioskHUD, "ctl", "status", "--socket", dir + "/c.sock"]).out }

    /// A packed message of API 2: the image, step 1 of 2 at 50 %, local.
    func packed() -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 2408)
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) } }
        put(0x0002_0000, 0); put(8, 4); put(2, 20); put(1, 24); put(50, 28)
        for (i, c) in "rootfs.img".utf8.enumerated() { b[32 + i] = c }
        put(4, 352)
        return b
    }

    @Test func api2PackedReachesTheHUD() {
        let dir = Proc.makeTempDir("kiosk-swu-wire")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let server = StandInServer(dir + "/swupdateprog"), let pid = daemon(dir) else { Issue.record("no server or daemon"); return }
        defer { kill(pid, SIGTERM); _ = Proc.wait(pid) }
        let c = server.accept()
        defer { close(c) }
        StandInServer.send(c, [0, 0, 2, 0, 0x41, 0x43, 0x4B, 0] + packed())
        var s = ""
        _ = waitUntil { s = status(dir); return s.contains("\"label\":\"rootfs.img\"") }
        #expect(s.contains("\"mode\":\"bar\"") && s.contains("\"progress\":0.25") && s.contains("\"details\":\"Step 1 of 2 · local\""), "\(s)")
        #expect(s.contains("\"state\":\"updating\""), "\(s)")
    }

    @Test func anUnknownVersionIsOneLogLine() {
        let dir = Proc.makeTempDir("kiosk-swu-wire")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let server = StandInServer(dir + "/swupdateprog"), let pid = daemon(dir) else { Issue.record("no server or daemon"); return }
        defer { kill(pid, SIGTERM); _ = Proc.wait(pid) }
        // Three connections in a row (the daemon reconnects), each with a version 3 acknowledgement.
        for _ in 0..<3 {
            let c = server.accept()
            StandInServer.send(c, [0, 1, 3, 0, 0x41, 0x43, 0x4B, 0] + [UInt8](repeating: 0x5A, count: 3000))
            close(c)
        }
        _ = server.accept()   // a fourth attempt: the third was handled
        let s = status(dir)
        #expect(s.contains("\"label\":\"Idle\"") && s.contains("\"state\":\"unsupported\""), "\(s)")
        let log = Proc.readFile(dir + "/d.err") ?? ""
        #expect(log.split(separator: "progress API version 3.1.0", omittingEmptySubsequences: false).count == 2, "\(log)")
        #expect(log.split(separator: "swupdate: following", omittingEmptySubsequences: false).count == 2, "\(log)")
    }
}
