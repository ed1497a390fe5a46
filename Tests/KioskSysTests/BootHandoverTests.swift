// The boot handover's mark: where it is for a command line, and that a daemon started by hand
// does not heed it (the same C rule as the early frame's).
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct BootHandoverTests {
    @Test func theMarkIsBesideTheSocket() {
        #expect(BootHandover.markPath(["kiosk-hud", "daemon"]) == "/run/kiosk-hud/control.sock.handed-over")
        #expect(BootHandover.markPath(["kiosk-hud", "daemon", "--socket", "/tmp/x/c.sock"]) == "/tmp/x/c.sock.handed-over")
        #expect(BootHandover.markPath(["kiosk-hud", "daemon", "--socket=/tmp/y.sock", "--hidden"]) == "/tmp/y.sock.handed-over")
        #expect(BootHandover.markPath(["kiosk-hud", "run", "--", "x", "--socket", "/tmp/z"]) == "/run/kiosk-hud/control.sock.handed-over")
    }

    /// The positive case (LISTEN_PID is this process) is DaemonActivationTests', through the
    /// binary: setting LISTEN_PID here would hand fd 3 to an in-process daemon of another test.
    @Test func aMarkAloneIsNotEnough() throws {
        let dir = Proc.makeTempDir("kiosk-handover")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let daemon = ["kiosk-hud", "daemon", "--socket", dir + "/c.sock"]
        try BootHandover.mark(daemon)
        #expect(Proc.exists(dir + "/c.sock.handed-over"))
        #expect(!BootHandover.isDaemonAfterHandover(daemon), "started by hand, not on systemd's socket")
        #expect(!BootHandover.isDaemonAfterHandover(["kiosk-hud", "show", "--socket", dir + "/c.sock"]))
    }
}
