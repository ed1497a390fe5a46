// A daemon socket-activated after the boot's handover starts hidden: the first start on
// systemd's socket shows the splash as at boot; its quit (the handover) is remembered beside the
// socket; the next start on the socket — a `ctl status` from a monitoring script — shows
// nothing until asked to. systemd-socket-activate plays systemd: it listens, and starts the
// daemon with the socket (LISTEN_FDS, LISTEN_PID) at the first connection.
import Glibc
import KioskTestSupport
import Testing

@Suite(.serialized) struct DaemonActivationTests {
    @Test func afterTheHandoverStatusAndPingShowNothing() {
        guard Proc.executable("systemd-socket-activate") else { Issue.record("systemd-socket-activate is missing (the systemd package)"); return }
        let dir = Proc.makeTempDir("kiosk-activation")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let sock = dir + "/c.sock"
        func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
            Proc.run([Proc.kioskHUD, "ctl", args[0], "--socket", sock] + args.dropFirst())
        }
        /// The daemon on systemd's socket, started by the first connection; its stderr's file.
        func activated(_ n: Int) -> (pid_t, String)? {
            _ = Proc.run(["rm", "-f", sock])
            let err = dir + "/d\(n).err"
            guard let pid = Proc.spawn(["systemd-socket-activate", "-l", sock, Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input",
                                        "--socket", sock, "--label", "Booting"], stderr: err) else { return nil }
            for _ in 0..<200 where !Proc.exists(sock) { usleep(20_000) }
            return (pid, err)
        }

        // At boot (no handover yet): the first connection starts it, on screen.
        guard let (boot, _) = activated(1) else { Issue.record("cannot start systemd-socket-activate"); return }
        #expect(!Proc.exists(sock + ".handed-over"))
        let first = ctl(["status"])
        #expect(first.status == 0 && first.out.contains("\"visible\":true"), "\(first)")
        #expect(ctl(["quit", "--retain"]).status == 0)
        #expect(Proc.wait(boot) == 0)
        #expect(Proc.exists(sock + ".handed-over"), "the quit is remembered beside the socket")

        // After it: a monitoring script's status starts it again — hidden, and it stays so.
        guard let (later, err) = activated(2) else { Issue.record("cannot start systemd-socket-activate"); return }
        let status = ctl(["status"])
        #expect(status.status == 0 && status.out.contains("\"visible\":false"), "\(status)")
        #expect(ctl(["ping"]).status == 0)
        usleep(300_000)
        #expect(ctl(["status"]).out.contains("\"visible\":false"))
        #expect((Proc.readFile(err) ?? "").contains("socket-activated after the boot's handover: starting hidden"), "\(Proc.readFile(err) ?? "")")
        // An app that wants a HUD asks for it.
        #expect(ctl(["show"]).status == 0)
        var shown = false
        for _ in 0..<100 where !shown { shown = ctl(["status"]).out.contains("\"visible\":true"); if !shown { usleep(20_000) } }
        #expect(shown)
        #expect(ctl(["quit"]).status == 0)
        #expect(Proc.wait(later) == 0)

        // Started by hand (not on systemd's socket), the mark changes nothing.
        guard let own = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", sock, "--label", "Booting"],
                                   stderr: dir + "/d3.err") else { Issue.record("cannot start the daemon"); return }
        var up = ""
        for _ in 0..<200 where !up.contains("\"visible\"") { up = ctl(["status"]).out; if up.isEmpty { usleep(25_000) } }
        #expect(up.contains("\"visible\":true"), "\(up)")
        #expect(ctl(["quit"]).status == 0)
        #expect(Proc.wait(own) == 0)
    }
}
