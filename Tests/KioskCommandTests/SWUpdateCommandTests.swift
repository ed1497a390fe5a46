// `kiosk-hud daemon --swupdate` following Debian 12's own swupdate (the package, installed here
// with apt-get when missing: CI is a fresh Debian 12 run as root) installing small signed test
// images (a key and certificate made here with openssl; Debian's swupdate is built for signed
// images and checks hardware compatibility): raw files into a temporary directory, no
// bootloader. Each run is in a mount namespace of its own (`unshare -m`) whose /tmp is the
// test's directory, so SWUpdate's sockets are where it puts them by default (/tmp/swupdateprog,
// /tmp/sockinstctrl) and the daemon finds them by its default rule. A script in the image waits
// on a FIFO at its postinst, so the test holds an update mid-way (step 2 of 3 done) for as long
// as it likes. Pictures are the daemon's last frame (`ctl quit`) against `kiosk-hud render`.
import Glibc
import KioskPNG
import KioskTestSupport
import Testing

/// Debian 12's swupdate and the test images, made for a test (and removed after it).
final class SWUpdateRig: @unchecked Sendable {
    /// The test's directory: its `tmp` is the namespace's /tmp.
    let root: String
    /// Inside the namespace: /tmp/work (outside: root/tmp/work).
    static let work = "/tmp/work"
    var outside: String { root + "/tmp/work" }

    /// Why the tests cannot run here (nil: they can).
    static let unavailable: String? = {
        if geteuid() != 0 { return "needs root (a mount namespace, and apt-get for Debian's swupdate)" }
        if !Proc.executable("unshare") || !Proc.executable("nsenter") { return "needs util-linux's unshare and nsenter" }
        return nil
    }()

    init?() {
        guard SWUpdateRig.unavailable == nil else { return nil }
        if !Proc.executable("swupdate") || !Proc.executable("swupdate-client") || !Proc.executable("openssl") || !Proc.executable("cpio") {
            let r = Proc.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=600", "swupdate", "openssl", "cpio"],
                             env: ["DEBIAN_FRONTEND": "noninteractive"])
            guard r.status == 0 else { Issue.record("cannot install Debian's swupdate: \(r.err)"); return nil }
        }
        root = Proc.makeTempDir("kiosk-swupdate")
        let w = root + "/tmp/work"
        let script = """
            set -e
            mkdir -p "$W/hud" "$W/img"
            cd "$W"
            cp "$K" kiosk-hud
            openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj "/CN=kiosk-hud test" \
                -addext extendedKeyUsage=emailProtection -addext keyUsage=digitalSignature 2>/dev/null
            head -c 200000 /dev/urandom > img/a.bin
            head -c 300000 /dev/urandom > img/b.bin
            printf '#!/bin/sh\\nif [ "$1" = postinst ] && [ -p /tmp/work/gate ]; then echo > /tmp/work/at-gate; cat /tmp/work/gate > /dev/null; fi\\nexit 0\\n' > img/wait.sh
            sum() { sha256sum "$1" | cut -d' ' -f1; }
            # good: two files and the waiting script; bad: a hash that is not set.
            mk() {  # name, hash of b.bin
                cat > img/sw-description <<EOF
            software = {
                version = "1.0.0";
                hardware-compatibility: [ "1.0" ];
                files: (
                    { filename = "a.bin"; path = "/tmp/work/out-a.bin"; sha256 = "$(sum img/a.bin)"; },
                    { filename = "b.bin"; path = "/tmp/work/out-b.bin"; sha256 = "$2"; }
                );
                scripts: ( { filename = "wait.sh"; type = "shellscript"; sha256 = "$(sum img/wait.sh)"; } );
            }
            EOF
                openssl cms -sign -in img/sw-description -out img/sw-description.sig -signer cert.pem -inkey key.pem -outform DER -nosmimecap -binary
                (cd img && printf 'sw-description\\nsw-description.sig\\na.bin\\nb.bin\\nwait.sh\\n' | cpio -o -H crc > "../$1.swu" 2>/dev/null)
            }
            mk good "$(sum img/b.bin)"
            mk bad 0000000000000000000000000000000000000000000000000000000000000000
            """
        // The program is run from a copy in the rig: the namespace's /tmp hides a checkout under /tmp.
        let r = Proc.run(["sh", "-c", script], env: ["W": w, "K": Proc.kioskHUD])
        guard r.status == 0 else { Issue.record("cannot make the test images: \(r.err)"); _ = Proc.run(["rm", "-rf", root]); return nil }
    }

    deinit { _ = Proc.run(["rm", "-rf", root]) }
}

/// A daemon following SWUpdate in a mount namespace whose /tmp is the rig's; SWUpdate started
/// and stopped in it.
final class SWUpdateRun: @unchecked Sendable {
    let rig: SWUpdateRig
    let daemon: pid_t
    var swupdate: pid_t?
    var quit = false
    let env = ["TMPDIR": "/tmp"]

    init?(_ rig: SWUpdateRig, options: [String] = []) {
        self.rig = rig
        for f in ["hud/last.png", "at-gate", "gate", "out-a.bin", "out-b.bin", "c.sock", "d.err"] { unlink(rig.outside + "/" + f) }
        let w = SWUpdateRig.work
        guard let pid = Proc.spawn(["unshare", "-m", "--propagation", "private", "--", "sh", "-c", "mount --bind \"$0/tmp\" /tmp && exec \"$@\"", rig.root,
                                    w + "/kiosk-hud", "daemon", "--offscreen", w + "/hud", "--no-input", "--socket", w + "/c.sock",
                                    "--animation-duration", "0", "--swupdate"] + options,
                                   env: env, stderr: rig.outside + "/d.err") else { return nil }
        daemon = pid
        guard wait("the daemon to answer", { daemonAnswers(socket: rig.outside + "/c.sock") }) else { return nil }
    }

    deinit {
        stopSWUpdate()
        if !quit { kill(daemon, SIGTERM); _ = Proc.wait(daemon) }
    }

    var log: String { Proc.readFile(rig.outside + "/d.err") ?? "" }

    func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl", args[0], "--socket", rig.outside + "/c.sock"] + args.dropFirst())
    }

    /// `args` in the namespace.
    func inside(_ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run(["nsenter", "--mount=/proc/\(daemon)/ns/mnt", "--"] + args, env: env)
    }

    /// Starts swupdate (Debian's, with the rig's certificate and a hardware revision the images
    /// accept) and waits for the daemon to follow it.
    @discardableResult func startSWUpdate() -> Bool {
        swupdate = Proc.spawn(["nsenter", "--mount=/proc/\(daemon)/ns/mnt", "--", "swupdate", "-k", SWUpdateRig.work + "/cert.pem", "-H", "kiosk:1.0"],
                              env: env, stderr: rig.outside + "/swupdate.err")
        return wait("the daemon to follow swupdate") { self.status.contains("\"connected\":true") && self.status.contains("\"subscribed\":true") }
    }

    /// Kills swupdate and everything it started (SIGKILL: as a crash).
    func stopSWUpdate() {
        guard let p = swupdate else { return }
        _ = Proc.run(["pkill", "-KILL", "-P", String(p)])
        kill(p, SIGKILL)
        _ = Proc.wait(p)
        swupdate = nil
        // A script still waiting at the gate: let it go.
        let fd = open(rig.outside + "/gate", O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    var status: String { ctl(["status"]).out }

    /// The label of the content `status` reports.
    var label: String {
        let s = status
        let parts = s.split(separator: "\"label\":\"", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "" }
        return String(parts[1].prefix { $0 != "\"" })
    }

    /// Waits (polling, `waitUntil`) for `condition`; records an issue with the daemon's log if it never holds.
    func wait(_ what: String, _ condition: () -> Bool) -> Bool {
        if waitUntil(Waiting.defaultTimeout, condition) { return true }
        Issue.record("timed out waiting for \(what): \(status)\n\(log)\n\(Proc.readFile(rig.outside + "/swupdate.err") ?? "")")
        return false
    }

    func install(_ image: String) -> (status: Int32, out: String, err: String) {
        inside(["swupdate-client", "-q", SWUpdateRig.work + "/\(image).swu"])
    }

    /// Installs the good image in the background, held at its script's gate.
    func installHeld() -> pid_t? {
        guard mkfifo(rig.outside + "/gate", 0o600) == 0 else { Issue.record("mkfifo: \(errno)"); return nil }
        let p = Proc.spawn(["nsenter", "--mount=/proc/\(daemon)/ns/mnt", "--", "swupdate-client", "-q", SWUpdateRig.work + "/good.swu"], env: env)
        guard wait("the update to reach its gate", { Proc.exists(rig.outside + "/at-gate") }) else { return nil }
        return p
    }

    /// Lets the held update go on.
    func release() {
        let fd = open(rig.outside + "/gate", O_WRONLY)
        if fd >= 0 { close(fd) }
    }

    /// Quits the daemon and compares its last frame with `render` of `args`.
    func lastFrameEqualsRender(_ args: [String]) throws -> Bool {
        #expect(ctl(["quit"]).status == 0)
        quit = true
        #expect(Proc.wait(daemon) == 0, "\(log)")
        let last = try PNG.read(path: rig.outside + "/hud/last.png")
        let r = Proc.run([Proc.kioskHUD, "render"] + args + ["--out", rig.outside + "/ref.png"])
        #expect(r.status == 0, "\(r.err)")
        let ref = try PNG.read(path: rig.outside + "/ref.png")
        return last.width == ref.width && last.rgba == ref.rgba
    }
}

@Suite(.serialized, .enabled(if: SWUpdateRig.unavailable == nil, "needs root (a mount namespace; apt-get for Debian's swupdate) and util-linux's unshare and nsenter"))
struct SWUpdateCommandTests {
    /// Held after step 2 of 3: the second image's name, its step, two thirds of the bar.
    static let heldState = ["--mode", "bar", "--progress", String(2.0 / 3.0), "--label", "b.bin", "--details", "Step 2 of 3"]

    @Test func anUpdateMidWayAndItsSuccess() throws {
        guard let rig = SWUpdateRig(), let run = SWUpdateRun(rig), run.startSWUpdate() else { return }
        guard let client = run.installHeld() else { return }
        let waited1 = run.wait("the step's end") { run.status.contains("\"progress\":0.6666") }
        #expect(waited1)
        #expect(run.label == "b.bin")
        #expect(run.status.contains("\"details\":\"Step 2 of 3\""))
        #expect(run.status.contains("\"source\":\"swupdate\"") && run.status.contains("\"state\":\"updating\""))
        run.release()
        #expect(Proc.wait(client) == 0)
        let waited2 = run.wait("the success notice") { run.status.contains("\"state\":\"succeeded\"") }
        #expect(waited2)
        #expect(Proc.readBytes(rig.outside + "/out-b.bin") == Proc.readBytes(rig.outside + "/img/b.bin"))
        let same = try run.lastFrameEqualsRender(["--mode", "success", "--label", "Done"])
        #expect(same, "the success notice differs from render")
    }

    @Test func thePictureMidWay() throws {
        guard let rig = SWUpdateRig(), let run = SWUpdateRun(rig), run.startSWUpdate() else { return }
        guard let client = run.installHeld() else { return }
        // The held client is reaped however the test ends (not left a zombie of the test process).
        defer { kill(client, SIGTERM); _ = Proc.wait(client) }
        guard run.wait("the step's end", { run.status.contains("\"progress\":0.6666") }) else { return }
        let same = try run.lastFrameEqualsRender(Self.heldState)
        #expect(same, "the held update's frame differs from render \(Self.heldState)")
    }

    @Test func aFailureNamesSWUpdatesReason() throws {
        guard let rig = SWUpdateRig(), let run = SWUpdateRun(rig), run.startSWUpdate() else { return }
        #expect(run.install("bad").status != 0)
        guard run.wait("the failure notice", { run.status.contains("\"state\":\"failed\"") }) else { return }
        let label = run.label
        // SWUpdate's own words for the bad hash (its first error).
        #expect(label.hasPrefix("Update failed: ") && label.contains("Hash") && label.contains("b.bin"), "\(label)")
        let same = try run.lastFrameEqualsRender(["--mode", "error", "--label", label])
        #expect(same, "the failure notice differs from render")
    }

    @Test func swupdateKilledMidUpdateAndBack() throws {
        guard let rig = SWUpdateRig(), let run = SWUpdateRun(rig, options: ["--show-when-updating"]), run.startSWUpdate() else { return }
        // Hidden until an update runs, and the display let go for the kiosk app.
        #expect(run.status.contains("\"visible\":false") && run.status.contains("\"active\":false"), "\(run.status)")
        guard let client = run.installHeld() else { return }
        defer { kill(client, SIGTERM); _ = Proc.wait(client) }
        guard run.wait("the step's end", { run.status.contains("\"progress\":0.6666") }) else { return }
        #expect(run.status.contains("\"visible\":true") && run.status.contains("\"active\":true"), "\(run.status)")
        run.stopSWUpdate()
        let waited3 = run.wait("the note") { run.status.contains("\"state\":\"lost\"") }
        #expect(waited3)
        #expect(run.status.contains("\"details\":\"The update service has stopped; waiting for it…\""))
        #expect(run.label == "b.bin")
        #expect(run.ctl(["ping"]).status == 0)
        // Back: followed again, and the next update runs to its end.
        unlink(rig.outside + "/at-gate"); unlink(rig.outside + "/gate")
        guard run.startSWUpdate() else { return }
        #expect(run.install("good").status == 0)
        let waited4 = run.wait("the success notice") { run.status.contains("\"state\":\"succeeded\"") }
        #expect(waited4)
        #expect(run.log.split(separator: "lost SWUpdate's progress socket", omittingEmptySubsequences: false).count == 2,
                "one log line for the outage: \(run.log)")
    }
}
