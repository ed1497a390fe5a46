// kiosk-hud daemon and ctl as a user runs them: the picture after a sequence of requests is the
// one render draws with the same options; ctl's exit codes.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DaemonCommandTests {
    func ctl(_ dir: String, _ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl"] + [args[0], "--socket", dir + "/c.sock"] + args.dropFirst())
    }

    @Test func thePictureAfterRequestsIsRenders() throws {
        let dir = Proc.makeTempDir("kiosk-daemon-cmd")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", dir + "/c.sock",
                                    "--mode", "annular", "--label", "Booting"], stderr: dir + "/d.err") else {
            Issue.record("cannot start the daemon"); return
        }
        var up = false
        for _ in 0..<100 where !up { up = ctl(dir, ["ping"]).status == 0; if !up { usleep(50_000) } }
        #expect(up)
        #expect(ctl(dir, ["update", "--progress", "0.6", "--label", "Installing", "--details", "Step 3 of 7"]).status == 0)
        #expect(ctl(dir, ["style", "--theme", "dark", "--background", "dim", "--margin", "14"]).status == 0)
        let status = ctl(dir, ["status"])
        #expect(status.status == 0 && status.out.contains("\"label\":\"Installing\"") && status.out.contains("\"active\":true"), "\(status.out)")
        let bad = ctl(dir, ["update", "--mode", "custom"])
        #expect(bad.status == 2 && bad.err.contains("mode custom needs an image"), "\(bad.err)")
        let wait = ctl(dir, ["wait-button", "--timeout", "0.2"])
        #expect(wait.status == 1)
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        let r = Proc.run([Proc.kioskHUD, "render", "--mode", "annular", "--progress", "0.6", "--label", "Installing",
                          "--details", "Step 3 of 7", "--theme", "dark", "--background", "dim", "--margin", "14", "--out", dir + "/ref.png"])
        #expect(r.status == 0, "\(r.err)")
        let last = try PNG.read(path: dir + "/last.png"), ref = try PNG.read(path: dir + "/ref.png")
        #expect(last.width == ref.width && last.rgba == ref.rgba, "the daemon's last frame differs from render's")
    }

    @Test func ctlSaysWhenThereIsNoDaemon() {
        let r = Proc.run([Proc.kioskHUD, "ctl", "ping", "--socket", "/nonexistent/c.sock"])
        #expect(r.status == 69)
        #expect(r.err.hasPrefix("Error: no kiosk-hud daemon at /nonexistent/c.sock"), "\(r.err)")
    }
}

/// 32 clients sending updates as fast as their replies come (kiosk-hud-bench --daemon-load, a
/// short run here; the figures for a long one are in the closing notes): every request is
/// answered, the frame rate is capped at the display's, memory stays flat.
@Suite struct DaemonLoadTests {
    @Test func thirtyTwoClientsAreAllAnswered() throws {
        let bench = Proc.kioskHUD.replacing("kiosk-hud", with: "kiosk-hud-bench")
        guard Proc.exists(bench) else { Issue.record("no \(bench)"); return }
        let r = Proc.run([bench, "--daemon-load", "2", "--clients", "32"])
        print(r.out)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("every request answered: yes; the HUD shows a client's last update: yes"))
        let frames = r.out.split(separator: "\n").first { $0.contains("frames:") }.flatMap { line in
            line.split(separator: "(").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        }
        #expect((frames ?? 999) <= 62, "frames per second above the display's rate: \(r.out)")
    }
}
