// The daemon's wait for a display when none is there (this host: no /dev/dri, no /dev/fb0), as
// the shipped unit starts it (no --wait-display of its own): the board profile's [display] wait,
// else 8 s, and --wait-display over both; `show` does not wait unless told to. What it waits
// for is what it tells systemd first (STATUS=), read from a notify socket as PID 1's.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite struct DaemonWaitDefaultTests {
    /// The daemon's first STATUS= with a profile whose [display] is `display` and `arguments`
    /// after it; the daemon is then stopped.
    static func firstStatus(profile display: String, _ arguments: [String] = []) -> String? {
        let dir = Proc.makeTempDir("kiosk-wait-default")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try? replaceFile(dir + "/board.toml", with: Array("name = \"kiosk\"\n[display]\n\(display)".utf8))
        let name = "kiosk-wait-default-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let sock = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(sock) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in name.utf8.enumerated() { b[i + 1] = c } }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(3 + name.utf8.count)) } }
        guard bound == 0 else { return nil }
        // A bound on a daemon that never says anything (not a measured time).
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--board", dir + "/board.toml", "--no-input", "--socket", dir + "/c.sock"] + arguments,
                                   env: ["NOTIFY_SOCKET": "@" + name], stderr: dir + "/d.err") else { return nil }
        var b = [UInt8](repeating: 0, count: 1024)
        let n = recv(sock, &b, b.count, 0)
        kill(pid, SIGTERM)
        _ = Proc.wait(pid)
        return n < 0 ? nil : String(decoding: b[..<n], as: UTF8.self)
    }

    static var noDisplay: Bool { !Proc.exists("/dev/dri") && !Proc.exists("/dev/fb0") }

    @Test func theProfilesWait() {
        guard Self.noDisplay else { return }
        #expect(Self.firstStatus(profile: "wait = 2\n") == "STATUS=Waiting up to 2.0 s for a display\n")
    }

    @Test func eightSecondsWhenNothingGivesOne() {
        guard Self.noDisplay else { return }
        #expect(Self.firstStatus(profile: "") == "STATUS=Waiting up to 8.0 s for a display\n")
    }

    @Test func theCommandLineOverBoth() {
        guard Self.noDisplay else { return }
        #expect(Self.firstStatus(profile: "wait = 2\n", ["--wait-display", "3"]) == "STATUS=Waiting up to 3.0 s for a display\n")
    }

    @Test func showDoesNotWaitUnlessTold() {
        guard Self.noDisplay else { return }
        let dir = Proc.makeTempDir("kiosk-wait-show")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try? replaceFile(dir + "/board.toml", with: Array("name = \"kiosk\"\n".utf8))
        let r = Proc.run([Proc.kioskHUD, "show", "--board", dir + "/board.toml", "--no-input", "--duration", "1"])
        #expect(r.status == 1)
        #expect(!r.err.contains("waiting up to"), "\(r.err)")
        #expect(r.err.hasSuffix("Error: cannot open the display: no DRM device (/dev/dri/card*)\n"), "\(r.err)")
    }
}
