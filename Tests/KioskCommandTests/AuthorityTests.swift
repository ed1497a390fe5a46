// A root daemon does for a client only what that client could do itself (docs/security.md),
// tried as the attacker would: `nobody`, a member of the socket's group by a supplementary
// group, against the real daemon (offscreen), which refuses and serves on.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct AuthorityTests {
    /// The group the tests' daemons let in: Debian's `users` (gid 100).
    static let group: (name: String, gid: gid_t) = ("users", getgrnam("users")?.pointee.gr_gid ?? 100)

    /// A daemon started in the initramfs's way (root), its socket owned by `users`, in a
    /// directory every user can reach; `member` runs a command as nobody in that group alone
    /// (a supplementary group: the one /proc's Groups: line parsing lost).
    final class Rig {
        let dir: String
        let copy: StrangerCopy
        var pid: pid_t = 0
        var socket: String { dir + "/run/c.sock" }
        var log: String { Proc.readFile(dir + "/d.err") ?? "" }

        init(_ name: String, extra: [String] = []) throws {
            dir = Proc.makeTempDir("kiosk-authority-\(name)")
            try setMode(dir, 0o755)
            copy = try StrangerCopy([Proc.kioskHUD])
            guard let p = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir + "/out", "--no-input", "--socket", dir + "/run/c.sock",
                                      "--group", AuthorityTests.group.name, "--mode", "bar", "--label", "Unlocking"] + extra,
                                     stderr: dir + "/d.err") else { throw SysError(call: "spawn", errno: ENOENT) }
            pid = p
            _ = Proc.run(["mkdir", "-p", dir + "/out"])
            guard waitForDaemon(socket: socket) else { kill(p, SIGKILL); _ = Proc.wait(p); throw SysError(call: "start", errno: ETIMEDOUT, detail: log) }
        }

        /// `kiosk-hud ctl` as root.
        func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
            Proc.run([Proc.kioskHUD, "ctl", args[0], "--socket", socket] + args.dropFirst())
        }

        /// `kiosk-hud ctl` as nobody, a member of the socket's group (or of none).
        func member(_ args: [String], inGroup: Bool = true) -> (status: Int32, out: String, err: String) {
            let who = inGroup ? Stranger.command(groups: [AuthorityTests.group.gid]) : Stranger.command
            return Proc.run(who + [copy.path(Proc.kioskHUD), "ctl", args[0], "--socket", socket] + args.dropFirst())
        }

        /// One request line sent as nobody in the group, raw (an op `ctl` has no verb for); the reply line.
        func memberRaw(_ line: String) -> String {
            let script = "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\ns.sendall(sys.argv[2].encode()+b'\\n')\nprint(s.makefile().readline(),end='')\n"
            return Proc.run(Stranger.command(groups: [AuthorityTests.group.gid]) + ["/usr/bin/python3", "-c", script, socket, line]).out
        }

        /// Quits the daemon; its exit status.
        func quit() -> Int32 {
            guard pid != 0 else { return -1 }
            _ = ctl(["quit"])
            defer { pid = 0 }
            return Proc.wait(pid)
        }

        deinit {
            if pid != 0 { kill(pid, SIGKILL); _ = Proc.wait(pid) }
            _ = Proc.run(["rm", "-rf", dir])
        }
    }

    static var ready: Bool {
        getuid() == 0 && Proc.executable("setpriv") && Proc.executable("/usr/bin/python3")
    }

    /// Item 7: a member by a supplementary group is let in (SO_PEERGROUPS); a stranger in no
    /// group is not. Item 1: that member's `new_root` to a directory of its own and `adopt` are
    /// refused (root's only), nothing changes, one log line says so, and the daemon serves on.
    @Test func aMemberIsLetInButMayNotChangeTheRoot() throws {
        guard Self.ready else { print("AuthorityTests: needs root, setpriv and python3; skipped"); return }
        let rig = try Rig("root", extra: ["--initramfs"])
        #expect(rig.member(["ping"]).status == 0, "a member by its only supplementary group: \(rig.member(["ping"]).err)")
        let stranger = rig.member(["ping"], inGroup: false)
        #expect(stranger.status != 0 && stranger.err.contains("permission denied"), "\(stranger)")

        let own = rig.dir + "/member-root"
        _ = Proc.run(["mkdir", "-p", own + "/usr/bin"])
        _ = Proc.run(["chown", "-R", "\(Stranger.uid):\(Stranger.gid)", own])
        let newRoot = rig.member(["new-root", own])
        #expect(newRoot.status == 77 && newRoot.err.contains("new_root: only root may ask for it"), "\(newRoot)")
        let adopt = rig.memberRaw(#"{"v":1,"op":"adopt"}"#)
        #expect(adopt.contains(#""code":"permission_denied""#) && adopt.contains("adopt: only root may ask for it"), "\(adopt)")
        let status = rig.ctl(["status"])
        #expect(status.status == 0 && status.out.contains(#""initramfs":"started""#), "the root is unchanged: \(status.out)")
        #expect(rig.member(["update", "--label", "Still here"]).status == 0, "the member's own ops still work")
        #expect(rig.quit() == 0)
        #expect(rig.log.contains("refused pid") && rig.log.contains("new_root is root's only"), "\(rig.log)")
    }

    /// Item 6: a picture a member names is opened with the member's rights, without a path race:
    /// a root-only picture is "Permission denied" (no size, no dimensions), a FIFO behind a link
    /// in the member's own directory is refused unopened (a writer waiting on it stays blocked),
    /// and a picture the member can read is shown.
    @Test func aMemberShowsOnlyThePicturesItCouldRead() throws {
        guard Self.ready else { print("AuthorityTests: needs root, setpriv and python3; skipped"); return }
        let rig = try Rig("pictures")
        let secret = rig.dir + "/secret.png", open = rig.dir + "/open.png"
        for p in [secret, open] {
            try PNG.write(PNGImage(width: 37, height: 23, fill: (200, 40, 40, 255)), path: p)
        }
        try setMode(secret, 0o600)
        try setMode(open, 0o644)
        let refused = rig.member(["update", "--mode", "custom", "--image", secret])
        #expect(refused.status == 2 && refused.err.contains("Permission denied"), "\(refused)")
        #expect(!refused.err.contains("37") && !refused.err.contains("bytes"), "nothing of the file's size told: \(refused.err)")
        let missing = rig.member(["update", "--mode", "custom", "--image", rig.dir + "/absent.png"])
        #expect(missing.status == 2 && missing.err.contains("No such file"), "\(missing)")
        #expect(rig.ctl(["update", "--mode", "custom", "--image", secret]).status == 0, "root reads it")
        #expect(rig.member(["update", "--mode", "custom", "--image", open]).status == 0, "a picture the member can read")

        // A FIFO behind a link in the member's own directory: never opened.
        let own = rig.dir + "/member", fifo = rig.dir + "/fifo"
        _ = Proc.run(["mkdir", "-p", own])
        #expect(mkfifo(fifo, 0o666) == 0)
        _ = Proc.run(Stranger.command + ["ln", "-sf", open, own + "/pic.png"])
        _ = Proc.run(["chown", "-R", "\(Stranger.uid):\(Stranger.gid)", own])
        guard let writer = Proc.spawn(["sh", "-c", "echo x > \(fifo)"]) else { Issue.record("no writer"); return }
        defer { kill(writer, SIGKILL); _ = Proc.wait(writer) }
        #expect(Proc.run(Stranger.command + ["ln", "-sfn", fifo, own + "/pic.png"]).status == 0)
        let viaLink = rig.member(["update", "--mode", "custom", "--image", own + "/pic.png"])
        #expect(viaLink.status == 2 && viaLink.err.contains("not a regular file (a FIFO)"), "\(viaLink)")
        var st: Int32 = 0
        #expect(waitpid(writer, &st, WNOHANG) == 0, "the FIFO was opened: its writer is no longer blocked")
        let device = rig.member(["update", "--mode", "custom", "--image", "/dev/null"])
        #expect(device.status == 2 && device.err.contains("not a regular file (a character device)"), "\(device)")
        #expect(rig.ctl(["status"]).status == 0, "the daemon serves on")
        #expect(rig.quit() == 0)
    }

    /// Item 3: a marker beside the socket is believed only when root's alone and its pid is the
    /// kiosk-hud listening there. Planted ones — nobody's in a directory anyone may write, root's
    /// naming a process that is not kiosk-hud, root's naming a kiosk-hud that does not listen on
    /// this socket — start a daemon of this system's own, and nothing is taken over.
    @Test func aPlantedMarkerIsNotBelieved() throws {
        guard Self.ready else { print("AuthorityTests: needs root, setpriv and python3; skipped"); return }
        let dir = Proc.makeTempDir("kiosk-authority-marker")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        try setMode(dir, 0o755)
        guard let sleeper = Proc.spawn(["sleep", "60"]) else { Issue.record("no sleeper"); return }
        defer { kill(sleeper, SIGKILL); _ = Proc.wait(sleeper) }
        let other = try Rig("marker-other")

        func starts(socketDir: String, marker: String, expecting why: String) {
            let socket = socketDir + "/c.sock"
            guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--no-input", "--socket", socket], stderr: dir + "/d.err") else {
                Issue.record("cannot start"); return
            }
            let up = waitForDaemon(socket: socket)
            #expect(up, "a daemon of its own serves: \(Proc.readFile(dir + "/d.err") ?? "")")
            _ = Proc.run([Proc.kioskHUD, "ctl", "quit", "--socket", socket])
            #expect(Proc.wait(pid) == 0)
            let log = Proc.readFile(dir + "/d.err") ?? ""
            #expect(log.contains("initramfs: \(marker) is not believed (\(why)"), "\(log)")
            #expect(!log.contains("taking it over"), "\(log)")
        }

        // Nobody's marker in a directory anyone may write (a socket moved under /tmp).
        let open = dir + "/open"
        _ = Proc.run(["mkdir", "-m", "1777", open])
        _ = Proc.run(Stranger.command + ["sh", "-c", "echo \(sleeper) > \(open)/initramfs.pid"])
        starts(socketDir: open, marker: open + "/initramfs.pid", expecting: "owned by uid \(Stranger.uid)")

        // Root's, in root's directory, naming a process that is not kiosk-hud.
        let closed = dir + "/closed"
        _ = Proc.run(["mkdir", "-m", "755", closed])
        try replaceFile(closed + "/initramfs.pid", with: Array("\(sleeper)\n".utf8))
        starts(socketDir: closed, marker: closed + "/initramfs.pid", expecting: "pid \(sleeper) is not a kiosk-hud program")

        // Root's, naming a kiosk-hud daemon that serves another socket.
        try replaceFile(closed + "/initramfs.pid", with: Array("\(other.pid)\n".utf8))
        starts(socketDir: closed, marker: closed + "/initramfs.pid", expecting: "nobody answers on")
        #expect(other.ctl(["ping"]).status == 0, "the other daemon is untouched")
        #expect(other.quit() == 0)
    }
}
