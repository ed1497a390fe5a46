// run on a daemon that stops answering (SIGSTOP): the command's output keeps passing through
// and run ends with its command, not when the daemon comes back. Then the daemon, continued,
// reads what run left for it: its HUD as it was.
import Glibc
import KioskTestSupport
import Testing

@Suite(.serialized) struct RunStalledDaemonTests {
    @Test func aStoppedDaemonFreezesNeitherTheOutputNorRunsEnd() {
        let dir = Proc.makeTempDir("kiosk-run-stopped")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let sock = dir + "/c.sock"
        func ctl(_ verb: String) -> (status: Int32, out: String, err: String) {
            Proc.run([Proc.kioskHUD, "ctl", verb, "--socket", sock])
        }
        guard let daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", sock, "--hidden",
                                       "--label", "Booting"], stderr: dir + "/d.err") else { Issue.record("cannot start the daemon"); return }
        defer { kill(daemon, SIGCONT); kill(daemon, SIGKILL); _ = Proc.wait(daemon) }
        var up = false
        for _ in 0..<200 where !up { up = ctl("ping").status == 0; if !up { usleep(50_000) } }
        guard up else { Issue.record("the daemon never answered"); return }

        // 20 lines with progress over about 2 s; the command marks its end in a file.
        let script = "i=1; while [ $i -le 20 ]; do echo \"line $i $((i * 5))%\"; i=$((i + 1)); sleep 0.1; done; : > \(dir)/ended"
        guard let run = Proc.spawn([Proc.kioskHUD, "run", "--hud", "daemon", "--socket", sock, "--label", "Flashing",
                                    "--", "sh", "-c", script], stdout: dir + "/run.out", stderr: dir + "/run.err")
        else { Issue.record("cannot start run"); return }
        // The command is running on the daemon's HUD: stop the daemon half a second in.
        var started = false
        for _ in 0..<400 where !started { started = (Proc.readFile(dir + "/run.out") ?? "").contains("line 1 "); if !started { usleep(10_000) } }
        #expect(started, "the command's first line never came: \(Proc.readFile(dir + "/run.err") ?? "")")
        usleep(400_000)
        kill(daemon, SIGSTOP)

        // Until run ends (30 s at most: only a hang takes that long): when the command ended, when run did.
        var commandEnded: Double?, runEnded: Double?, status: Int32 = -1
        let deadline = seconds() + 30
        while runEnded == nil && seconds() < deadline {
            if commandEnded == nil && Proc.exists(dir + "/ended") { commandEnded = seconds() }
            var raw: Int32 = 0
            if waitpid(run, &raw, WNOHANG) == run {
                runEnded = seconds()
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            } else {
                usleep(20_000)
            }
        }
        if runEnded == nil { kill(run, SIGKILL); _ = Proc.wait(run) }
        let out = Proc.readFile(dir + "/run.out") ?? ""
        let err = Proc.readFile(dir + "/run.err") ?? ""
        let lines = out.split(separator: "\n").filter { $0.hasPrefix("line ") }
        #expect(lines.count == 20, "every line passes through while the daemon is stopped: \(lines.count)\n\(err)")
        #expect(runEnded != nil && status == 0, "run ended (\(status)) with its command: \(err)")
        if let c = commandEnded, let r = runEnded {
            #expect(r - c < 3, "run ended \(r - c) s after its command")
        } else {
            Issue.record("the command's end was not seen")
        }
        #expect(err.contains("the daemon stopped answering"), "\(err)")

        // Continued, the daemon reads what run left: its HUD as it was, hidden again.
        kill(daemon, SIGCONT)
        var last = ""
        for _ in 0..<200 {
            last = ctl("status").out
            if last.contains("\"visible\":false") && last.contains("\"label\":\"Booting\"") { break }
            usleep(50_000)
        }
        #expect(last.contains("\"visible\":false") && last.contains("\"label\":\"Booting\""), "\(last)")
        #expect(ctl("quit").status == 0)
    }
}
