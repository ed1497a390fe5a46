// Plymouth's name squatted: an abstract socket name has no owner, so any user can bind
// @/org/freedesktop/plymouthd before the daemon. It used to make `daemon --plymouth` exit at
// start, so neither the boot splash nor the shutdown screens came. Here nobody (python3's
// socket, through setpriv) binds it in a network namespace of its own (abstract names are per
// namespace), the real daemon starts in that namespace, runs on without Plymouth's socket and
// says so in `ctl status`, and takes the name once the squatter has gone.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// A process of nobody's that binds an abstract name and listens (never accepting) until it
/// is ended, in a new network namespace: what any user can do to Plymouth's name.
final class AbstractNameSquatter: @unchecked Sendable {
    static let python = "/usr/bin/python3"
    /// Binds argv[1] as an abstract name, says so, and waits. -I: nothing from the environment
    /// or the working directory (which nobody may not be able to read).
    static let script = """
        import socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind("\\0" + sys.argv[1])
        s.listen(1)
        print("bound", flush=True)
        time.sleep(600)
        """

    let pid: pid_t
    let dir: String
    private var ended = false

    /// nil (and an issue recorded) when nobody cannot run python3 or the name was not bound.
    init?(name: String = "/org/freedesktop/plymouthd") {
        guard Stranger.canReach(AbstractNameSquatter.python, need: X_OK) == true else {
            Issue.record("\(AbstractNameSquatter.python) is not there for uid \(Stranger.uid)")
            return nil
        }
        dir = Proc.makeTempDir("kiosk-squatter")
        guard let pid = Proc.spawn(["unshare", "-n", "--"] + Stranger.command + [AbstractNameSquatter.python, "-I", "-c", AbstractNameSquatter.script, name],
                                   stdout: dir + "/out", stderr: dir + "/err") else {
            Issue.record("cannot start the squatter")
            _ = Proc.run(["rm", "-rf", dir])
            return nil
        }
        self.pid = pid
        for _ in 0..<200 where Proc.readFile(dir + "/out")?.contains("bound") != true { usleep(25_000) }
        guard Proc.readFile(dir + "/out")?.contains("bound") == true else {
            Issue.record("the squatter did not bind @\(name): \(Proc.readFile(dir + "/err") ?? "")")
            leave()
            return nil
        }
    }

    /// Ends the squatter: the name is free (the namespace lives on in the daemon that joined it).
    func leave() {
        guard !ended else { return }
        ended = true
        kill(pid, SIGKILL)
        _ = Proc.wait(pid)
    }

    deinit {
        leave()
        _ = Proc.run(["rm", "-rf", dir])
    }
}

@Suite(.serialized) struct PlymouthSquatTests {
    /// The shutdown screen's daemon (`daemon --plymouth --plymouth-mode shutdown`, as the
    /// shutdown units run it) starts while nobody holds Plymouth's name: it shows the mode's
    /// look, answers its control socket, and `ctl status` says why Plymouth's socket is not
    /// there. Once the squatter goes, Plymouth's clients reach the daemon: a message, and quit.
    @Test func aSquatterDoesNotKeepTheSplashAway() throws {
        guard let squatter = AbstractNameSquatter(),
              let d = NamespacedDaemon(["--plymouth-mode", "shutdown", "--plymouth-shutdown-mode", "text", "--plymouth-shutdown-label", "Bye"],
                                       joining: squatter.pid) else { return }
        let status = d.ctl(["status"])
        #expect(status.status == 0, "\(d.log)")
        #expect(status.out.contains("\"socket\":\"unavailable: @/org/freedesktop/plymouthd is taken by another process"), "\(status.out)")
        #expect(status.out.contains("\"label\":\"Bye\"") && status.out.contains("\"mode\":\"shutdown\""), "\(status.out)")
        #expect(d.log.ranges(of: "running without Plymouth's socket").count == 1, "one line: \(d.log)")
        // Its other sources are served: the control socket drives the HUD.
        #expect(d.ctl(["update", "--progress", "0.3"]).status == 0)
        #expect(d.ctl(["status"]).out.contains("\"progress\":0.3"))

        squatter.leave()
        var listening = false
        for _ in 0..<120 where !listening {   // asked for again every 2 s
            listening = d.ctl(["status"]).out.contains("\"socket\":\"listening\"")
            if !listening { usleep(50_000) }
        }
        #expect(listening, "\(d.log)")
        #expect(d.log.contains("plymouth: Plymouth's socket @/org/freedesktop/plymouthd is free again"), "\(d.log)")
        #expect(d.log.ranges(of: "running without Plymouth's socket").count == 1, "still one line: \(d.log)")
        let shown = d.run([Proc.kioskHUD, "plymouth", "display-message", "--text=Back soon"])
        #expect(shown.status == 0, "\(shown.err)")
        #expect(d.ctl(["status"]).out.contains("\"label\":\"Back soon\""))
        #expect(d.run([Proc.kioskHUD, "plymouth", "quit"]).status == 0)
        #expect(d.wait() == 0, "\(d.log)")
    }
}
