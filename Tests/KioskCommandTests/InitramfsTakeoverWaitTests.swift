// The real root's daemon start taking over an initramfs's daemon that still waits for its display
// (the root found before a display driver that probes late, as on a Raspberry Pi): the start
// stays the unit's main process, not ready, until that daemon shows (docs/initramfs.md), as a
// daemon it started itself would. On this machine the display is a card path that never appears
// (`--card`, so a real display is never touched): the carried-over daemon's wait runs out and it
// ends, and the start fails as that daemon's own start would. A daemon started hidden opens no
// display: its takeover does not wait. VMBootTests.bootFromTheInitramfsWithTheDriverLate has the
// display that comes.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct InitramfsTakeoverWaitTests {
    /// As root (chroot): a daemon started with --initramfs waiting for the card `dir`/nocard, told
    /// the new root "/"; `body` gets the directory and its pid (killed after if still running).
    func withWaitingDaemon(_ name: String, extra: [String] = [], _ body: (String, pid_t) throws -> Void) throws {
        guard getuid() == 0 else { print("InitramfsTakeoverWaitTests: not root (chroot), skipped"); return }
        let dir = Proc.makeTempDir("kiosk-takeover-\(name)")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--initramfs", "--card", dir + "/nocard", "--wait-display", "4", "--no-input",
                                    "--socket", dir + "/run/c.sock", "--mode", "bar"] + extra, stderr: dir + "/d.err") else {
            Issue.record("cannot start the daemon"); return
        }
        defer { kill(pid, SIGKILL); _ = Proc.wait(pid) }
        guard waitForDaemon(socket: dir + "/run/c.sock"), ctl(dir, ["new-root", "/"]).status == 0 else {
            Issue.record("the daemon did not start or take the new root: \(Proc.readFile(dir + "/d.err") ?? "")"); return
        }
        try body(dir, pid)
    }

    func ctl(_ dir: String, _ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl"] + [args[0], "--socket", dir + "/run/c.sock"] + args.dropFirst())
    }

    /// The real root's start (kiosk-hud.service's `kiosk-hud daemon`).
    func takeOver(_ dir: String) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "daemon", "--card", dir + "/nocard", "--no-input", "--socket", dir + "/run/c.sock"])
    }

    @Test func theStartWaitsWhileTheDaemonWaitsForItsDisplay() throws { try withWaitingDaemon("waiting") { dir, pid in
        #expect(ctl(dir, ["status"]).out.contains("\"displays\":[]"))
        let t0 = monotonicSeconds()
        let takeover = takeOver(dir)
        let took = monotonicSeconds() - t0
        #expect(takeover.err.contains("initramfs: its daemon carries on as \(Proc.kioskHUD) (pid \(pid))"), "\(takeover.err)")
        #expect(takeover.err.contains("initramfs: its daemon waits for its display: ready once it shows"), "\(takeover.err)")
        // Its wait (4 s, counted again by the new image) ran out with no display: it ended, and the
        // start fails with it, as a daemon of its own that found no display.
        #expect(takeover.status == 1 && takeover.err.contains("initramfs: its daemon (pid \(pid)) ended while it waited for its display"),
                "exit \(takeover.status): \(takeover.err)")
        #expect(took >= 3, "the start did not wait for the daemon's display (\(took) s)")
        #expect(Proc.wait(pid) == 1)
        let log = Proc.readFile(dir + "/d.err") ?? ""
        #expect(log.contains("display: none appeared within 4.0 s"), "\(log)")
    } }

    @Test func aHiddenDaemonIsNotWaitedFor() throws { try withWaitingDaemon("hidden", extra: ["--hidden"]) { dir, pid in
        let takeover = takeOver(dir)
        #expect(takeover.status == 0, "\(takeover.err)")
        #expect(takeover.err.contains("initramfs: its daemon carries on as \(Proc.kioskHUD) (pid \(pid))"), "\(takeover.err)")
        #expect(!takeover.err.contains("waits for its display"), "\(takeover.err)")
        #expect(ctl(dir, ["status"]).out.contains("\"initramfs\":\"carried-over\""))
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
    } }
}
