// The initramfs's daemon carried over (docs/initramfs.md), offscreen, on this machine: started with
// --initramfs, told a new root (here "/", root only: chroot), taken over by a second `kiosk-hud
// daemon` — the same process is carried over as the program file, its state kept. The DRM side (the
// buffer on screen carried over, no modeset) is VMBootTests.bootFromTheInitramfs's.
import Glibc
import KioskBoards
import KioskDaemon
import KioskPNG
import KioskProtocol
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct InitramfsDaemonTests {
    func ctl(_ dir: String, _ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl"] + [args[0], "--socket", dir + "/run/c.sock"] + args.dropFirst())
    }

    func start(_ dir: String, program: String = Proc.kioskHUD, extra: [String] = ["--mode", "bar"]) -> pid_t? {
        guard let pid = Proc.spawn([program, "daemon", "--initramfs", "--offscreen", dir + "/out", "--no-input",
                                    "--socket", dir + "/run/c.sock", "--label", "Unlocking"] + extra,
                                   stderr: dir + "/d.err") else { return nil }
        let up = waitForDaemon(socket: dir + "/run/c.sock")
        if !up { kill(pid, SIGKILL); _ = Proc.wait(pid) }
        return up ? pid : nil
    }

    /// The real root's daemon start (kiosk-hud.service's), which takes the running one over.
    func takeOver(_ dir: String) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "daemon", "--offscreen", dir + "/out2", "--no-input", "--socket", dir + "/run/c.sock"])
    }

    /// As root (chroot): a daemon started with --initramfs in a fresh directory (removed after;
    /// `prepare` runs before the start), run through `body` with the directory and its pid, and
    /// killed after unless `body` says it ended it.
    func withDaemon(_ name: String, program: ((String) -> String)? = nil, extra: [String] = ["--mode", "bar"],
                    prepare: (String) throws -> Void = { _ in }, _ body: (String, pid_t) throws -> Bool) throws {
        guard getuid() == 0 else { print("InitramfsDaemonTests: not root (chroot), skipped"); return }
        let dir = Proc.makeTempDir("kiosk-initramfs-\(name)")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        _ = Proc.run(["mkdir", "-p", dir + "/out"])
        try prepare(dir)
        guard let pid = start(dir, program: program?(dir) ?? Proc.kioskHUD, extra: extra) else {
            Issue.record("the daemon did not start: \(Proc.readFile(dir + "/d.err") ?? "")"); return
        }
        var ended = false
        defer { if !ended { kill(pid, SIGKILL); _ = Proc.wait(pid) } }
        ended = try body(dir, pid)
    }

    @Test func theSameProcessCarriesOnWithItsState() throws { try withDaemon("state") { dir, pid in
        #expect(Proc.readFile(dir + "/run/initramfs.pid") == "\(pid)\n", "the marker beside the socket")
        #expect(ctl(dir, ["status"]).out.contains("\"initramfs\":\"started\""))
        #expect(ctl(dir, ["update", "--progress", "0.4", "--details", "Step 2 of 5"]).status == 0)

        // Taken over before the new root: refused, nothing changes; a second daemon start says so.
        let early = Proc.run([Proc.kioskHUD, "daemon", "--offscreen", dir + "/out2", "--no-input", "--socket", dir + "/run/c.sock"])
        #expect(early.err.contains("cannot carry on as this system's program (adopt: no new root yet"), "\(early.err)")
        let bad = ctl(dir, ["new-root", dir + "/nowhere"])
        #expect(bad.status == 2 && bad.err.contains("is not a directory"), "\(bad.err)")

        #expect(ctl(dir, ["new-root", "/"]).status == 0)
        #expect(ctl(dir, ["status"]).out.contains("\"initramfs\":\"new-root\""))
        let again = ctl(dir, ["new-root", "/"])
        #expect(again.status == 2 && again.err.contains("the root was changed already"), "\(again.err)")

        // The real root's daemon start: it takes the running one over and ends.
        let takeover = takeOver(dir)
        #expect(takeover.status == 0, "\(takeover.err)")
        #expect(takeover.err.contains("initramfs: its daemon carries on as \(Proc.kioskHUD) (pid \(pid))"), "\(takeover.err)")
        let status = ctl(dir, ["status"]).out
        #expect(status.contains("\"initramfs\":\"carried-over\""), "\(status)")
        #expect(status.contains("\"progress\":0.4") && status.contains("\"details\":\"Step 2 of 5\"") && status.contains("\"label\":\"Unlocking\""),
                "the state carried over: \(status)")
        #expect(kill(pid, 0) == 0, "the same process runs")
        #expect(!Proc.exists(dir + "/run/initramfs.pid"), "the marker is gone once taken over")
        let carried = ctl(dir, ["new-root", "/"])
        #expect(carried.status == 2, "new_root after being carried on: \(carried.err)")
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        let log = Proc.readFile(dir + "/d.err") ?? ""
        #expect(log.contains("initramfs: carrying on as \(Proc.kioskHUD) (same process, the screen and the socket kept)"), "\(log)")
        return true
    } }

    @Test func withoutTheOptionNewRootAndAdoptAreRefused() throws {
        let dir = Proc.makeTempDir("kiosk-initramfs-no")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--no-input", "--socket", dir + "/run/c.sock"], stderr: dir + "/d.err") else {
            Issue.record("cannot start the daemon"); return
        }
        let up = waitForDaemon(socket: dir + "/run/c.sock")
        #expect(up)
        let r = ctl(dir, ["new-root", "/"])
        #expect(r.status == 2 && r.err.contains("did not start in the initramfs"), "\(r.err)")
        #expect(!ctl(dir, ["status"]).out.contains("\"initramfs\""))
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
    }

    /// The largest state the protocol allows — every text setting a client can set at its limit,
    /// of control characters (each six bytes in JSON) — carries over intact: the state goes in a
    /// memory file, not the environment (whose 128 KiB a string it once passed: E2BIG after
    /// `adopt` had answered ok).
    @Test func theLargestStateCarriesOverIntact() throws { try withDaemon("large") { dir, pid in
        // Control characters (not NUL, not the line's end), cycled to each text's byte limit.
        let controls = (1...31).filter { $0 != 10 && $0 != 13 }.map { Character(Unicode.Scalar(UInt8($0))) }
        func text(_ bytes: Int) -> String { String((0..<bytes).map { controls[$0 % controls.count] }) }
        // One request a field: together they pass a request line's 64 KiB.
        var lines: [String] = []
        for s in HUDSettings.table.settings where s.live && DaemonRequest.contentKeys.contains(s.key) {
            guard case let .text(maxBytes, _) = s.rule.kind else { continue }
            lines.append(JSON.encode(.object(JSONObject([("v", .number(1)), ("op", .string("update")), (s.key, .string(text(maxBytes)))]))))
        }
        #expect(lines.count >= 3, "label, details and button at least: \(lines.count)")
        #expect(lines.reduce(0) { $0 + $1.utf8.count } > 48 << 10, "a state of tens of KiB")
        let script = "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\nf=s.makefile()\nfor l in sys.stdin.buffer:\n  s.sendall(l)\n  print(f.readline(),end='')\n"
        let request = dir + "/request.json"
        try replaceFile(request, with: Array(lines.map { $0 + "\n" }.joined().utf8))
        let sent = Proc.run(["sh", "-c", "/usr/bin/python3 -c \"$0\" \"$1\" < \"$2\"", script, dir + "/run/c.sock", request])
        #expect(sent.out.split(separator: "\n").count == lines.count && !sent.out.contains(#""ok":false"#), "\(sent)")
        let before = ctl(dir, ["status"]).out
        #expect(ctl(dir, ["new-root", "/"]).status == 0)
        let takeover = takeOver(dir)
        #expect(takeover.status == 0 && takeover.err.contains("carries on as"), "\(takeover.err)")
        let after = ctl(dir, ["status"]).out
        func content(_ status: String) -> JSONValue? { (try? JSON.parse(Array(status.utf8), limits: JSONLimits(maxBytes: 1 << 20)))?.object?["content"] }
        #expect(content(after) != nil && content(after) == content(before), "the content carried over intact")
        #expect(after.contains(#""initramfs":"carried-over""#))
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        return true
    } }

    /// A program that cannot be executed after `adopt` answered ok (here: the new root's file is
    /// not a program any more): the daemon goes on serving as before, says why in `status`, and
    /// the starter stops waiting at once instead of after 75 s.
    @Test func aFailedExecLeavesTheDaemonServing() throws {
        // The daemon runs a copy of the program, replaced below.
        try withDaemon("exec", program: { $0 + "/kiosk-hud" }, extra: [], prepare: { dir in
            #expect(Proc.run(["cp", Proc.kioskHUD, dir + "/kiosk-hud"]).status == 0)
        }) { dir, pid in
        let program = dir + "/kiosk-hud"
        #expect(ctl(dir, ["new-root", "/"]).status == 0)
        // The file is replaced (not written: it runs) by one the kernel cannot execute.
        #expect(Proc.run(["sh", "-c", "rm -f \"$0\" && printf 'not a program' > \"$0\" && chmod 755 \"$0\"", program]).status == 0)
        let started = monotonicSeconds()
        let takeover = takeOver(dir)
        #expect(monotonicSeconds() - started < 30, "the starter did not wait out its 75 s")
        #expect(takeover.status == 0 && takeover.err.contains("could not carry on as this system's program (cannot carry on as \(program)"),
                "\(takeover.err)")
        let status = ctl(dir, ["status"]).out
        #expect(status.contains(#""initramfs":"new-root""#) && status.contains("adopt_error"), "\(status)")
        #expect(status.contains(#""label":"Unlocking""#), "the state as it was: \(status)")
        #expect(kill(pid, 0) == 0)
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        return true
    } }

    /// An initramfs's daemon that cannot start (its logo is not in the initramfs) ends with an
    /// error that names the picture and leaves no marker: the next daemon on the socket (the real
    /// root's, which kiosk-hud.socket's `ConditionPathExists=!` would otherwise keep off) serves.
    @Test func aDaemonThatCannotStartLeavesNoMarker() throws {
        guard getuid() == 0 else { print("InitramfsDaemonTests: not root (chroot), skipped"); return }
        let dir = Proc.makeTempDir("kiosk-initramfs-fail")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let failed = Proc.run([Proc.kioskHUD, "daemon", "--initramfs", "--offscreen", dir + "/out", "--no-input",
                               "--socket", dir + "/run/c.sock", "--logo", dir + "/missing-logo.png"])
        #expect(failed.status == 1, "status \(failed.status): \(failed.err)")
        #expect(failed.err.contains(dir + "/missing-logo.png"), "the error names the picture: \(failed.err)")
        #expect(!Proc.exists(dir + "/run/initramfs.pid"), "a marker was left behind")
        #expect(!Proc.exists(dir + "/run/c.sock"), "the socket file was left behind")
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir + "/out2", "--no-input", "--socket", dir + "/run/c.sock"],
                                   stderr: dir + "/d.err") else { Issue.record("cannot start the next daemon"); return }
        let up = waitForDaemon(socket: dir + "/run/c.sock")
        #expect(up, "the next daemon does not answer: \(Proc.readFile(dir + "/d.err") ?? "")")
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        #expect(!(Proc.readFile(dir + "/d.err") ?? "").contains("initramfs:"), "the next daemon met a marker: \(Proc.readFile(dir + "/d.err") ?? "")")
    }

    /// A marker whose daemon is gone (killed before it could remove it) is not believed by the
    /// real root's start, which says why, serves the socket itself and removes the marker (so
    /// that kiosk-hud.socket can listen once more after it).
    @Test func aStaleMarkerIsRemovedByTheNextDaemon() throws {
        guard getuid() == 0 else { print("InitramfsDaemonTests: not root (chroot), skipped"); return }
        let dir = Proc.makeTempDir("kiosk-initramfs-stale")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        // The pid of a process that has ended; the marker root's alone, as the daemon writes it.
        let dead = String(Proc.run(["sh", "-c", "sh -c 'echo $$'"]).out.split(separator: "\n").first ?? "")
        #expect(Proc.run(["sh", "-c", "mkdir -p -m 755 \"$0\" && echo \"$1\" > \"$0/initramfs.pid\" && chmod 644 \"$0/initramfs.pid\"",
                          dir + "/run", dead]).status == 0)
        guard let pid = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", dir + "/out", "--no-input", "--socket", dir + "/run/c.sock"],
                                   stderr: dir + "/d.err") else { Issue.record("cannot start the daemon"); return }
        let up = waitForDaemon(socket: dir + "/run/c.sock")
        #expect(up, "the daemon does not answer: \(Proc.readFile(dir + "/d.err") ?? "")")
        #expect(!Proc.exists(dir + "/run/initramfs.pid"), "the stale marker is still there")
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        let log = Proc.readFile(dir + "/d.err") ?? ""
        #expect(log.contains("initramfs: \(dir)/run/initramfs.pid is not believed (pid \(dead) does not run)"), "\(log)")
        #expect(log.contains("initramfs: removed \(dir)/run/initramfs.pid: its daemon is gone"), "\(log)")
    }

    /// A picture a client named is read again by the next image with that client's rights (the
    /// state hands them over): pointed since at a root-only file, it is refused, not shown, and
    /// the rest of the state is kept.
    @Test func aClientsPictureIsReadAgainWithItsRights() throws {
        guard Proc.executable("setpriv") else { print("InitramfsDaemonTests: no setpriv, skipped"); return }
        let copy = try StrangerCopy([Proc.kioskHUD])
        // Reachable by the member: the socket is its group's.
        try withDaemon("rights", extra: ["--group", "users"], prepare: { dir in
            try setMode(dir, 0o755)
            _ = Proc.run(["mkdir", "-p", dir + "/member"])
        }) { dir, pid in
        try PNG.write(PNGImage(width: 8, height: 8, fill: (0, 200, 0, 255)), path: dir + "/member/pic.png")
        try PNG.write(PNGImage(width: 8, height: 8, fill: (200, 0, 0, 255)), path: dir + "/secret.png")
        try setMode(dir + "/secret.png", 0o600)
        _ = Proc.run(["chown", "-R", "\(Stranger.uid):\(Stranger.gid)", dir + "/member"])
        let member = Stranger.command(groups: [getgrnam("users")?.pointee.gr_gid ?? 100])
        let set = Proc.run(member + [copy.path(Proc.kioskHUD), "ctl", "update", "--socket", dir + "/run/c.sock",
                                               "--mode", "custom", "--image", dir + "/member/pic.png"])
        #expect(set.status == 0, "\(set)")
        #expect(Proc.run(Stranger.command + ["ln", "-sfn", dir + "/secret.png", dir + "/member/pic.png"]).status == 0)
        #expect(ctl(dir, ["new-root", "/"]).status == 0)
        let takeover = takeOver(dir)
        #expect(takeover.status == 0, "\(takeover.err)")
        let status = ctl(dir, ["status"]).out
        #expect(status.contains(#""initramfs":"carried-over""#) && !status.contains(#""mode":"custom""#), "\(status)")
        #expect(status.contains(#""label":"Unlocking""#), "the rest of the state without the picture: \(status)")
        let log = Proc.readFile(dir + "/d.err") ?? ""
        #expect(log.contains("initramfs: the state handed over: image") && log.contains("Permission denied"), "\(log)")
        #expect(ctl(dir, ["quit"]).status == 0)
        #expect(Proc.wait(pid) == 0)
        return true
    } }
}
