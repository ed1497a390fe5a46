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
        guard let notify = NotifyListener("kiosk-wait-default", bound: 20) else { return nil }
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--board", dir + "/board.toml", "--no-input", "--socket", dir + "/c.sock"] + arguments,
                                   env: ["NOTIFY_SOCKET": notify.environmentValue], stderr: dir + "/d.err") else { return nil }
        let status = notify.next()
        kill(pid, SIGTERM)
        _ = Proc.wait(pid)
        return status.isEmpty ? nil : status
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
