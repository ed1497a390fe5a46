// psplash's FIFO in a shared PSPLASH_FIFO_DIR: nobody makes `psplash_fifo` there before the
// daemon starts. It used to be read as found, so its owner could send MSG and QUIT (end the
// splash). Now the real daemon refuses it with one log line that says why and what to do, goes
// on serving its control socket, and nobody's QUIT written to their FIFO ends nothing. In a
// directory that is the daemon's alone, a FIFO that is not trusted is replaced by its own.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// `kiosk-hud daemon --psplash-fifo` on the offscreen display, with `env` (PSPLASH_FIFO_DIR).
final class PsplashDaemon: @unchecked Sendable {
    let dir = Proc.makeTempDir("kiosk-psplash")
    let pid: pid_t
    var exitStatus: Int32?

    init?(_ options: [String], env: [String: String] = [:]) {
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", dir + "/c.sock",
                                    "--animation-duration", "0"] + options, env: env, stderr: dir + "/d.err") else { return nil }
        self.pid = pid
        guard waitForDaemon(socket: dir + "/c.sock") else {
            Issue.record("the daemon did not come up: \(log)")
            kill(pid, SIGKILL)
            _ = Proc.wait(pid)
            exitStatus = -1
            return nil
        }
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGTERM); _ = Proc.wait(pid) }
        _ = Proc.run(["rm", "-rf", dir])
    }

    func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl", args[0], "--socket", dir + "/c.sock"] + args.dropFirst())
    }

    /// Whether the process is still there (not exited, not a zombie waiting).
    var running: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    func wait() -> Int32 {
        let s = Proc.wait(pid)
        exitStatus = s
        return s
    }

    var log: String { Proc.readFile(dir + "/d.err") ?? "" }
}

@Suite(.serialized) struct PsplashStrangerFIFOTests {
    /// Writes each command and its NUL into `fifo` as `user` would with psplash-write — but
    /// opened for reading and writing, so that it does not fail for want of a reader (the
    /// daemon is not one of a FIFO it refused).
    static func send(_ commands: [String], to fifo: String, stranger: Bool) -> (status: Int32, out: String, err: String) {
        let script = "exec 3<>\"$0\" && for c in \"$@\"; do printf '%s\\0' \"$c\" >&3; done"
        return Proc.run((stranger ? Stranger.command : []) + ["/bin/sh", "-c", script, fifo] + commands)
    }

    @Test func aStrangersFIFOInASharedDirectoryIsRefused() throws {
        let reachable = try StrangerCopy([])   // a directory nobody can reach (the checkout may not be)
        let shared = reachable.dir + "/shared"
        #expect(mkdir(shared, 0o755) == 0 && chmod(shared, 0o1777) == 0)   // as /tmp: anyone makes names there
        let fifo = shared + "/psplash_fifo"
        let made = Proc.run(Stranger.command + ["/usr/bin/mkfifo", "-m", "0600", fifo])
        #expect(made.status == 0, "\(made.err)")
        guard let d = PsplashDaemon(["--psplash-fifo", "--label", "Booting"], env: ["PSPLASH_FIFO_DIR": shared]) else { return }
        // One clear line, and the daemon runs on.
        let line = d.log.split(separator: "\n").filter { $0.contains("psplash:") }
        #expect(line.count == 1 && line.first?.contains("psplash: not reading the FIFO: \(fifo) refused: owned by uid 65534, not root or the daemon's user") == true
                && line.first?.contains("give the daemon a directory of its own") == true, "\(d.log)")
        let st = try linkStatus(fifo)
        #expect(st.ownerID == Stranger.uid && st.kind == .fifo, "left as found")
        // Nobody's commands go nowhere: the daemon neither quits nor shows their text.
        let sent = Self.send(["MSG Owned", "QUIT"], to: fifo, stranger: true)
        #expect(sent.status == 0, "\(sent.err)")
        usleep(300_000)
        #expect(d.running && d.ctl(["ping"]).status == 0, "\(d.log)")
        #expect(!d.ctl(["status"]).out.contains("Owned"))
        // The control socket drives the HUD as ever, and ends it.
        #expect(d.ctl(["update", "--label", "Still here"]).status == 0)
        #expect(d.ctl(["status"]).out.contains("\"label\":\"Still here\""))
        #expect(d.ctl(["quit"]).status == 0)
        #expect(d.wait() == 0, "\(d.log)")
        withExtendedLifetime(reachable) {}
    }

    /// In a directory only root writes, a FIFO that is not trusted (a stranger's, left there
    /// by a run as another user) is replaced by the daemon's own, which psplash-write drives.
    @Test func anUntrustedFIFOInTheDaemonsDirectoryIsReplaced() throws {
        let own = Proc.makeTempDir("kiosk-psplash-own")
        defer { _ = Proc.run(["rm", "-rf", own]) }
        #expect(chmod(own, 0o755) == 0)
        let fifo = own + "/psplash_fifo"
        #expect(mkfifo(fifo, 0o600) == 0 && chmod(fifo, 0o666) == 0 && chown(fifo, Stranger.uid, Stranger.gid) == 0)
        guard let d = PsplashDaemon(["--psplash-fifo", fifo, "--label", "Booting"]) else { return }
        #expect(d.log.contains("psplash: replaced \(fifo): it was owned by uid 65534"), "\(d.log)")
        #expect(d.log.contains("psplash: reading \(fifo)"), "\(d.log)")
        let st = try linkStatus(fifo)
        #expect(st.kind == .fifo && st.ownerID == 0 && st.permissions == 0o600)
        #expect(Self.send(["PROGRESS 40"], to: fifo, stranger: false).status == 0)
        var moved = false
        for _ in 0..<100 where !moved {
            moved = d.ctl(["status"]).out.contains("\"progress\":0.4")
            if !moved { usleep(20_000) }
        }
        #expect(moved, "\(d.ctl(["status"]).out)")
        #expect(Self.send(["QUIT"], to: fifo, stranger: false).status == 0)
        #expect(d.wait() == 0, "\(d.log)")
    }
}
