// run on a daemon that stops answering (SIGSTOP): the command's output keeps passing through
// and run ends with its command, not when the daemon comes back — without a HUD (--hud daemon)
// or on its own display (--hud auto). Then the daemon, continued, reads what run left for it:
// its HUD as it was.
import Glibc
import KioskTestSupport
import Testing

@Suite(.serialized) struct RunStalledDaemonTests {
    struct Outcome {
        var lines = 0
        var err = ""
        var status: Int32 = -1
        /// Seconds from the command's end to run's; nil when either was not seen.
        var runAfterCommand: Double?
        /// What `ctl status` said once the daemon was continued.
        var daemonAfter = ""
    }

    /// A daemon, run on it with `runArgs` over a command printing 20 lines in about 2 s, the
    /// daemon SIGSTOPped once it shows the command's progress (early in the command: most lines
    /// are still to come), and continued once run has ended.
    func stalled(_ dir: String, _ runArgs: [String]) -> Outcome? {
        let sock = dir + "/c.sock"
        func ctl(_ verb: String) -> (status: Int32, out: String, err: String) {
            Proc.run([Proc.kioskHUD, "ctl", verb, "--socket", sock])
        }
        guard let daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", sock, "--hidden",
                                       "--label", "Booting"], stderr: dir + "/d.err") else { Issue.record("cannot start the daemon"); return nil }
        defer { kill(daemon, SIGCONT); kill(daemon, SIGKILL); _ = Proc.wait(daemon) }
        guard waitForDaemon(socket: sock) else { Issue.record("the daemon never answered"); return nil }

        // 20 lines with progress over about 2 s; the command marks its end in a file.
        let script = "i=1; while [ $i -le 20 ]; do echo \"line $i $((i * 5))%\"; i=$((i + 1)); sleep 0.1; done; : > \(dir)/ended"
        guard let run = Proc.spawn([Proc.kioskHUD, "run", "--socket", sock, "--label", "Flashing"] + runArgs + ["--", "sh", "-c", script],
                                   stdout: dir + "/run.out", stderr: dir + "/run.err")
        else { Issue.record("cannot start run"); return nil }
        // The command is running on the daemon's HUD: stop the daemon once its status shows run's
        // label and the command's progress (a bar, run's update for a line's "5%"), that is once
        // it has answered run's first requests, while the command still prints. (Not waited for
        // past the command's end: the stop would then come after everything it is about.)
        let started = waitUntil { (Proc.readFile(dir + "/run.out") ?? "").contains("line 1 ") }
        #expect(started, "the command's first line never came: \(Proc.readFile(dir + "/run.err") ?? "")")
        _ = waitUntil {
            let s = ctl("status").out
            let shown = s.contains("\"visible\":true") && s.contains("\"label\":\"Flashing\"") && s.contains("\"mode\":\"bar\"")
            return shown || Proc.exists(dir + "/ended")
        }
        kill(daemon, SIGSTOP)

        // Until run ends (30 s at most: only a hang takes that long): when the command ended, when run did.
        var o = Outcome()
        var commandEnded: Double?, runEnded: Double?
        let deadline = seconds() + 30
        while runEnded == nil && seconds() < deadline {
            if commandEnded == nil && Proc.exists(dir + "/ended") { commandEnded = seconds() }
            var raw: Int32 = 0
            if waitpid(run, &raw, WNOHANG) == run {
                runEnded = seconds()
                o.status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            } else {
                usleep(20_000)
            }
        }
        if runEnded == nil { kill(run, SIGKILL); _ = Proc.wait(run) }
        if let c = commandEnded, let r = runEnded { o.runAfterCommand = r - c }
        o.err = Proc.readFile(dir + "/run.err") ?? ""
        o.lines = (Proc.readFile(dir + "/run.out") ?? "").split(separator: "\n").filter { $0.hasPrefix("line ") }.count

        // Continued, the daemon reads what run left: its HUD as it was, hidden again.
        kill(daemon, SIGCONT)
        _ = waitUntil {
            o.daemonAfter = ctl("status").out
            return o.daemonAfter.contains("\"visible\":false") && o.daemonAfter.contains("\"label\":\"Booting\"")
        }
        #expect(ctl("quit").status == 0)
        return o
    }

    func check(_ o: Outcome) {
        #expect(o.lines == 20, "every line passes through while the daemon is stopped: \(o.lines)\n\(o.err)")
        #expect(o.status == 0, "run ended (\(o.status)) with its command: \(o.err)")
        if let t = o.runAfterCommand { #expect(t < 3, "run ended \(t) s after its command") } else { Issue.record("the ends were not seen: \(o.err)") }
        #expect(o.err.contains("the daemon stopped answering"), "\(o.err)")
        #expect(o.daemonAfter.contains("\"visible\":false") && o.daemonAfter.contains("\"label\":\"Booting\""), "\(o.daemonAfter)")
    }

    @Test func withoutAHUDWhenTheDaemonWasAskedFor() {
        let dir = Proc.makeTempDir("kiosk-run-stopped")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let o = stalled(dir, ["--hud", "daemon"]) else { return }
        check(o)
    }

    @Test func onItsOwnDisplayOtherwise() {
        let dir = Proc.makeTempDir("kiosk-run-stopped-own")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let own = dir + "/own"
        #expect(mkdir(own, 0o755) == 0)
        // Given up half a second after the stop, while the command still runs.
        guard let o = stalled(dir, ["--offscreen", own, "--no-input", "--notice-duration", "0.3", "--daemon-timeout", "0.5"]) else { return }
        check(o)
        #expect(o.err.contains("run: going on on its own display"), "\(o.err)")
        #expect(Proc.exists(own + "/last.png"), "run's own display was drawn on")
    }
}
