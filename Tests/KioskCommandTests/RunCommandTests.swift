// kiosk-hud run -- CMD as a user runs it: output passed through byte for byte, exit statuses,
// signals passed on, what the command started ended with it (run is the subreaper), stdin and
// descriptors; on a running daemon's HUD (Cancel pressed with `ctl press`) and on its own
// offscreen display. After each test no process of it is left (/proc).
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

/// The processes whose command line contains `marker`.
func leftovers(_ marker: String) -> [Int32] {
    (listDirectory("/proc") ?? []).compactMap { name -> Int32? in
        guard let pid = Int32(name), let b = Proc.readBytes("/proc/\(name)/cmdline"), !b.isEmpty else { return nil }
        return String(decoding: b.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(marker) ? pid : nil
    }
}

func uniqueMarker() -> String { "kiosk-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

func seconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

@Suite struct RunCommandTests {
    let run = [Proc.kioskHUD, "run", "--hud", "none"]

    /// 50 MB of random bytes on stdout and 1 MB on stderr, as fast as the command can write.
    @Test func outputIsPassedThroughByteForByte() throws {
        let dir = Proc.makeTempDir("kiosk-run-pass")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        #expect(Proc.run(["sh", "-c", "head -c 50000000 /dev/urandom > \(dir)/in; head -c 1000000 /dev/urandom > \(dir)/err"]).status == 0)
        for hud in [["--hud", "none"], ["--hud", "display", "--offscreen", "-", "--no-input", "--notice-duration", "0"]] {
            guard let pid = Proc.spawn([Proc.kioskHUD, "run"] + hud + ["--", "sh", "-c", "cat \(dir)/in; cat \(dir)/err >&2"],
                                       stdout: dir + "/out", stderr: dir + "/errout") else { Issue.record("cannot start"); return }
            #expect(Proc.wait(pid) == 0)
            #expect(Proc.run(["cmp", dir + "/in", dir + "/out"]).status == 0, "stdout differs (\(hud))")
            // run's own log lines go to stderr too; the command's bytes are there, whole and in order.
            let err = Proc.readBytes(dir + "/errout") ?? [], want = Proc.readBytes(dir + "/err") ?? [1]
            #expect(err.count >= want.count && contains(err, want), "stderr lost bytes (\(hud))")
        }
    }

    func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= hay.count else { return false }
        for start in 0...(hay.count - needle.count) where hay[start] == needle[0] && Array(hay[start..<(start + needle.count)]) == needle { return true }
        return false
    }

    @Test func exitStatusesAreTheCommands() {
        #expect(Proc.run(run + ["--", "true"]).status == 0)
        let three = Proc.run(run + ["sh", "-c", "exit 3"])          // no "--": the program's arguments are its own
        #expect(three.status == 3 && three.err.contains("run: sh ended: exit status 3"), "\(three.err)")
        #expect(Proc.run(run + ["--", "sh", "-c", "kill -TERM $$"]).status == 143)
        let missing = Proc.run(run + ["--", "/nonexistent/kiosk-command"])
        #expect(missing.status == 127 && missing.err.contains("cannot run /nonexistent/kiosk-command: No such file or directory"), "\(missing.err)")
        #expect(Proc.run(run + ["--", "/etc/hostname"]).status == 126)
    }

    @Test func badOptions() {
        let none = Proc.run([Proc.kioskHUD, "run", "--hud", "none"])
        #expect(none.status == 64 && none.err.hasPrefix("Error: missing command"), "\(none.err)")
        let button = Proc.run([Proc.kioskHUD, "run", "--button", "Stop", "--", "true"])
        #expect(button.status == 64 && button.err.hasPrefix("Error: --button does not go with run (--cancel-title names the button)"), "\(button.err)")
        let re = Proc.run(run + ["--progress-regex", "([0-9]+", "--", "true"])
        #expect(re.status == 64 && re.err.hasPrefix("Error: --progress-regex ([0-9]+: Unmatched ( or \\(\n"), "\(re.err)")
        let kill = Proc.run(run + ["--kill-after", "-1", "--", "true"])
        #expect(kill.status == 64, "\(kill.err)")
        let daemon = Proc.run([Proc.kioskHUD, "run", "--hud", "daemon", "--socket", "/nonexistent/c.sock", "--", "true"])
        #expect(daemon.status == 1 && daemon.err.hasPrefix("Error: no daemon on /nonexistent/c.sock"), "\(daemon.err)")
    }

    /// No display: the command runs all the same (one log line says so).
    @Test func noDisplayStillRunsTheCommand() {
        let r = Proc.run([Proc.kioskHUD, "run", "--socket", "/nonexistent/c.sock", "--fbdev", "/nonexistent/fb0", "--", "sh", "-c", "echo ran"])
        #expect(r.status == 0 && r.out == "ran\n", "\(r.err)")
        #expect(r.err.contains("running the command without a HUD"), "\(r.err)")
    }

    /// No display with --wait-display: the command starts at once, while run waits for the
    /// display; when the wait gives up the command goes on to its end, without a HUD.
    @Test func noDisplayAfterTheWaitStillRunsTheCommand() {
        guard !Proc.exists("/dev/dri"), !Proc.exists("/dev/fb0") else { return }   // a machine with a display
        let t0 = seconds()
        let r = Proc.run([Proc.kioskHUD, "run", "--hud", "display", "--wait-display", "0.3", "--no-input", "--",
                          "sh", "-c", "echo started; sleep 1; echo ended"])
        #expect(r.status == 0 && r.out == "started\nended\n", "\(r.err)")
        #expect(r.err.contains("display: none appeared within 0.3 s (") && r.err.contains("the command goes on without a HUD"), "\(r.err)")
        // The wait, the command's second, and the end notice's time (shown on no display: run's
        // rule, SVProgressHUD's 5 s at least).
        #expect(seconds() - t0 < 12)
    }

    @Test func stdinIsDevNullUnlessAsked() {
        let closed = Proc.run(["sh", "-c", "echo typed | \(Proc.kioskHUD) run --hud none -- cat"])
        #expect(closed.status == 0 && closed.out == "")
        let given = Proc.run(["sh", "-c", "echo typed | \(Proc.kioskHUD) run --hud none --stdin -- cat"])
        #expect(given.status == 0 && given.out == "typed\n")
    }

    /// The command inherits stdin, stdout and stderr, nothing else (every other descriptor of
    /// run's is close-on-exec: the display, the pipes' other ends, the loop's).
    @Test func noOtherDescriptorIsInherited() {
        for hud in [["--hud", "none"], ["--hud", "display", "--offscreen", "-", "--no-input", "--notice-duration", "0"]] {
            // stat(2) only: the shell opens nothing of its own while it looks.
            let r = Proc.run([Proc.kioskHUD, "run"] + hud + ["--", "sh", "-c",
                              "n=0; while [ $n -le 1024 ]; do [ -e /proc/$$/fd/$n ] && printf '%s ' $n; n=$((n+1)); done; echo"])
            #expect(r.status == 0 && r.out == "0 1 2 \n", "\(hud): \(r.out)")
        }
    }

    /// A signal to run reaches the command's group; the command's status is run's.
    @Test func signalsArePassedToTheCommand() {
        let dir = Proc.makeTempDir("kiosk-run-signal")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let pid = Proc.spawn(run + ["--", "sh", "-c", "trap 'echo got TERM; exit 7' TERM; echo ready; while :; do sleep 0.05; done"],
                                   stdout: dir + "/out", stderr: dir + "/err") else { Issue.record("cannot start"); return }
        for _ in 0..<100 where Proc.readFile(dir + "/out") != "ready\n" { usleep(20_000) }
        kill(pid, SIGTERM)
        #expect(Proc.wait(pid) == 7)
        #expect(Proc.readFile(dir + "/out") == "ready\ngot TERM\n")
    }

    /// A process that was run's child before the command (a shell's process substitution reading
    /// run's stderr) is not the command's: not ended with it, not waited for. With its reader
    /// gone, run still ends as the command says (no SIGPIPE).
    @Test func whatWasOursBeforeIsNotTheCommands() {
        let start = seconds()
        let r = Proc.run(["bash", "-c", "\(Proc.kioskHUD) run --hud none -- true 2> >(cat > /dev/null)"])
        #expect(r.status == 0 && seconds() - start < 3, "\(seconds() - start) s")
        let gone = Proc.run(["bash", "-c", "\(Proc.kioskHUD) run --hud none -- sh -c 'sleep 0.3; echo late >&2; exit 4' 2> >(head -c 1 > /dev/null)"])
        #expect(gone.status == 4)
    }

    /// What the command left running when it ended — a child that ignores SIGTERM, a daemon
    /// that double-forked into a session of its own — is ended (SIGKILL after --kill-after).
    @Test func whatTheCommandLeftIsEnded() {
        let m = uniqueMarker()
        let start = seconds()
        let r = Proc.run(run + ["--kill-after", "0.5", "--", "sh", "-c",
                                "(trap '' TERM; exec sh -c 'sleep 600; : \(m)') & (setsid sh -c 'sleep 600; : \(m)' &); sleep 0.2; exit 0"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("run: ending what the command left running"), "\(r.err)")
        #expect(seconds() - start < 3)
        #expect(leftovers(m).isEmpty)
    }
}

/// run on a running daemon's HUD: the progress there, ctl press as the Cancel, the daemon's HUD
/// put back as it was.
@Suite(.serialized) struct RunOnDaemonTests {
    func ctl(_ dir: String, _ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl", args[0], "--socket", dir + "/c.sock"] + args.dropFirst())
    }

    func withDaemon(_ body: (String) -> Void) {
        let dir = Proc.makeTempDir("kiosk-run-daemon")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", dir + "/c.sock", "--hidden",
                                    "--label", "Booting"], stderr: dir + "/d.err") else { Issue.record("cannot start the daemon"); return }
        let up = waitForDaemon(socket: dir + "/c.sock")
        #expect(up)
        body(dir)
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
    }

    func waitFor(_ dir: String, _ text: String) -> String {
        var last = ""
        for _ in 0..<200 {
            last = ctl(dir, ["status"]).out
            if last.contains(text) { return last }
            usleep(25_000)
        }
        Issue.record("the daemon never showed \(text): \(last)")
        return last
    }

    @Test func progressOnTheDaemonAndCancelByPress() {
        withDaemon { dir in
            let m = uniqueMarker()
            guard let pid = Proc.spawn([Proc.kioskHUD, "run", "--socket", dir + "/c.sock", "--kill-after", "0.5", "--notice-duration", "0",
                                        "--label", "Flashing", "--", "sh", "-c",
                                        "echo 25%; sleep 0.2; echo 'MSG Writing'; echo 50%; (setsid sh -c \"trap '' TERM; sleep 600; : \(m)\" &); trap '' TERM; sleep 600; : \(m)"],
                                       stderr: dir + "/run.err") else { Issue.record("cannot start run"); return }
            let status = waitFor(dir, "\"progress\":0.5")
            #expect(status.contains("\"visible\":true") && status.contains("\"label\":\"Flashing\"") && status.contains("\"details\":\"Writing\"")
                    && status.contains("\"mode\":\"bar\"") && status.contains("\"button\":\"Cancel\""), "\(status)")
            let pressed = seconds()
            #expect(ctl(dir, ["press"]).status == 0)
            _ = waitFor(dir, "\"label\":\"Cancelling…\"")
            #expect(Proc.wait(pid) == 130)
            let took = seconds() - pressed
            #expect(took >= 1 && took < 2.5, "\(took) s from the press to run's end")
            let after = waitFor(dir, "\"visible\":false")   // after the hide animation
            #expect(after.contains("\"label\":\"Booting\"") && after.contains("\"button\":\"\""), "\(after)")
            #expect(leftovers(m).isEmpty)
            let noButton = ctl(dir, ["press"])
            #expect(noButton.status == 2 && noButton.err.contains("press: no button on screen"), "\(noButton.err)")
        }
    }

    @Test func aConfirmedCancelIgnoresASingleTap() {
        withDaemon { dir in
            let m = uniqueMarker()
            guard let pid = Proc.spawn([Proc.kioskHUD, "run", "--socket", dir + "/c.sock", "--confirm-cancel", "--notice-duration", "0",
                                        "--", "sh", "-c", "echo 10%; sleep 600; : \(m)"], stderr: dir + "/run.err") else { Issue.record("cannot start run"); return }
            _ = waitFor(dir, "\"progress\":0.1")
            #expect(ctl(dir, ["press"]).status == 0)
            _ = waitFor(dir, "\"label\":\"Tap again to cancel\"")
            // The question goes away by itself after 3 s: waited for, not slept through.
            let asked = seconds()
            let status = waitFor(dir, "\"label\":\"Booting\"")
            let stayed = seconds() - asked
            #expect(stayed >= 2.5, "the question stays 3 s; it went after \(stayed) s")
            #expect(status.contains("\"button\":\"Cancel\""), "\(status)")
            #expect(!leftovers(m).isEmpty)
            #expect(ctl(dir, ["press"]).status == 0)
            _ = waitFor(dir, "\"label\":\"Tap again to cancel\"")
            #expect(ctl(dir, ["press"]).status == 0)
            #expect(Proc.wait(pid) == 130)
            #expect(leftovers(m).isEmpty)
        }
    }
}

/// run's own words in the system's language: LANG=de_DE.UTF-8 (LC_ALL and LC_MESSAGES unset)
/// gives the German button, "Wird abgebrochen…" and the German failure; a board file's
/// `[words]` beats it, and --language beats both.
@Suite struct RunWordsTests {
    static let german = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]

    @Test func cancellingInGermanOnTheDaemonsHUD() {
        RunOnDaemonTests().withDaemon { dir in
            let m = uniqueMarker()
            guard let pid = Proc.spawn([Proc.kioskHUD, "run", "--socket", dir + "/c.sock", "--notice-duration", "0",
                                        "--", "sh", "-c", "echo 10%; sleep 600; : \(m)"], env: Self.german, stderr: dir + "/run.err")
            else { Issue.record("cannot start run"); return }
            let status = RunOnDaemonTests().waitFor(dir, "\"progress\":0.1")
            #expect(status.contains("\"button\":\"Abbrechen\""), "\(status)")
            #expect(RunOnDaemonTests().ctl(dir, ["press"]).status == 0)
            _ = RunOnDaemonTests().waitFor(dir, "\"label\":\"Wird abgebrochen…\"")
            #expect(Proc.wait(pid) == 130)
            #expect(leftovers(m).isEmpty)
        }
    }

    @Test func theFailureInGermanAndABoardFilesOwnWords() throws {
        let dir = Proc.makeTempDir("kiosk-run-words")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let own = [Proc.kioskHUD, "run", "--hud", "display", "--offscreen", dir, "--no-input", "--notice-duration", "0.4"]
        #expect(Proc.run(own + ["--", "sh", "-c", "exit 4"], env: Self.german).status == 4)
        try expectLastFrame(dir, "Fehlgeschlagen (Exit-Status 4)")
        // [words] in the board file: its language and its own text, whatever LANG says.
        try replaceFile(dir + "/board.toml", with: Array("name = \"test\"\n[words]\nlanguage = \"fr\"\nfailed_status = \"Raté : {status}\"\n".utf8))
        #expect(Proc.run(own + ["--board", dir + "/board.toml", "--", "sh", "-c", "exit 5"], env: Self.german).status == 5)
        try expectLastFrame(dir, "Raté : 5")
        // --language over both (the board's own text stays its own).
        #expect(Proc.run(own + ["--language", "it", "--", "sh", "-c", "exit 6"], env: Self.german).status == 6)
        try expectLastFrame(dir, "Non riuscito (codice di uscita 6)")
    }

    /// run's last offscreen frame is render's error notice with `label`.
    func expectLastFrame(_ dir: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ref = Proc.run([Proc.kioskHUD, "render", "--mode", "error", "--label", label, "--out", dir + "/ref.png"])
        #expect(ref.status == 0, "\(ref.err)", sourceLocation: sourceLocation)
        let last = try PNG.read(path: dir + "/last.png"), want = try PNG.read(path: dir + "/ref.png")
        #expect(last.width == want.width && last.rgba == want.rgba, "run's last frame is not \(label)", sourceLocation: sourceLocation)
    }
}

/// run on its own (offscreen) display: the last frame is the end notice, as render draws it.
@Suite struct RunOnOwnDisplayTests {
    @Test func theLastFrameIsTheSuccessNotice() throws {
        let dir = Proc.makeTempDir("kiosk-run-own")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = Proc.run([Proc.kioskHUD, "run", "--hud", "display", "--offscreen", dir, "--no-input", "--notice-duration", "0.4",
                          "--success-text", "Flashed", "--label", "Flashing", "--", "sh", "-c", "echo 40%; sleep 0.3; echo 100%"])
        #expect(r.status == 0 && r.out == "40%\n100%\n", "\(r.err)")
        let ref = Proc.run([Proc.kioskHUD, "render", "--mode", "success", "--label", "Flashed", "--out", dir + "/ref.png"])
        #expect(ref.status == 0, "\(ref.err)")
        let last = try PNG.read(path: dir + "/last.png"), want = try PNG.read(path: dir + "/ref.png")
        #expect(last.width == want.width && last.rgba == want.rgba, "run's last frame differs from render --mode success --label Flashed")
        let failed = Proc.run([Proc.kioskHUD, "run", "--hud", "display", "--offscreen", dir, "--no-input", "--notice-duration", "0.4",
                               "--", "sh", "-c", "exit 4"])
        #expect(failed.status == 4)
        _ = Proc.run([Proc.kioskHUD, "render", "--mode", "error", "--label", "Failed (exit status 4)", "--out", dir + "/ref.png"])
        let last2 = try PNG.read(path: dir + "/last.png"), want2 = try PNG.read(path: dir + "/ref.png")
        #expect(last2.rgba == want2.rgba, "run's last frame differs from the failure notice")
    }
}
