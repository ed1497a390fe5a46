// `kiosk-hud daemon --plymouth` driven by Debian 12's own plymouth client (Tests/Plymouth/
// fetch-client.sh: `apt-get download` once, unpacked outside the checkout): each verb, and the
// picture after it equals `kiosk-hud render` of the same state. The client has its socket's
// name built in, so each daemon runs in a network namespace of its own (`unshare -n`; abstract
// socket names are per namespace) and the client joins it (`nsenter --net`). Then
// `kiosk-hud plymouth` (also through a link named plymouth) against the real client's exit codes.
// The client run as nobody is a copy in a directory of its own under /tmp (StrangerCopy): the
// fetched one is in the checkout, which may be under a home nobody cannot enter.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

/// Debian's plymouth client, unpacked.
struct RealPlymouth {
    let binary: String
    let libraries: String

    /// Fetched (once) by Tests/Plymouth/fetch-client.sh; nil (and an issue recorded) when it
    /// cannot be had.
    static func fetch() -> RealPlymouth? {
        let r = Proc.run([Proc.root + "/Tests/Plymouth/fetch-client.sh"])
        let dir = r.out.split(separator: "\n").last.map(String.init) ?? ""
        guard r.status == 0, Proc.exists(dir + "/root/usr/bin/plymouth"),
              let lib = listDirectory(dir + "/root/usr/lib")?.first(where: { Proc.exists(dir + "/root/usr/lib/\($0)/libply.so.5") }) else {
            Issue.record("cannot get Debian's plymouth client (Tests/Plymouth/fetch-client.sh): \(r.err)")
            return nil
        }
        return RealPlymouth(binary: dir + "/root/usr/bin/plymouth", libraries: dir + "/root/usr/lib/" + lib)
    }

    /// The client copied where `Stranger` can run it (the cache may be in a checkout under a
    /// home only its owner can enter), with the copy that must outlive its use.
    func forStranger() throws -> (RealPlymouth, StrangerCopy) {
        let copy = try StrangerCopy([binary, libraries])
        return (RealPlymouth(binary: copy.path(binary), libraries: copy.path(libraries)), copy)
    }
}

/// A `kiosk-hud daemon --plymouth` on the offscreen display in a network namespace of its own
/// — or in the one of process `joining` (a squatter that bound Plymouth's name there first).
final class NamespacedDaemon: @unchecked Sendable {
    let dir: String
    let pid: pid_t
    var exitStatus: Int32?

    init?(_ options: [String], joining: pid_t? = nil) {
        dir = Proc.makeTempDir("kiosk-plymouth")
        let namespace = joining.map { ["nsenter", "--net=/proc/\($0)/ns/net", "--"] } ?? ["unshare", "-n", "--"]
        guard let pid = Proc.spawn(namespace + [Proc.kioskHUD, "daemon", "--offscreen", dir, "--no-input", "--socket", dir + "/c.sock",
                                    "--plymouth", "--plymouth-boot-duration", "none", "--animation-duration", "0"] + options,
                                   stderr: dir + "/d.err") else { return nil }
        self.pid = pid
        guard waitForDaemon(socket: dir + "/c.sock") else {
            Issue.record("the daemon did not come up: \(Proc.readFile(dir + "/d.err") ?? "")")
            kill(pid, SIGKILL)
            _ = Proc.wait(pid)
            return nil
        }
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGTERM); _ = Proc.wait(pid) }
        _ = Proc.run(["rm", "-rf", dir])
    }

    /// Runs `args` in the daemon's network namespace (as nobody when `stranger`: then the
    /// program must be where nobody can reach it, a `StrangerCopy`).
    func run(_ args: [String], env: [String: String] = [:], stranger: Bool = false) -> (status: Int32, out: String, err: String) {
        let user = stranger ? Stranger.command : []
        return Proc.run(["nsenter", "--net=/proc/\(pid)/ns/net", "--"] + user + args, env: env)
    }

    func plymouth(_ real: RealPlymouth, _ args: [String], stranger: Bool = false) -> (status: Int32, out: String, err: String) {
        run([real.binary] + args, env: ["LD_LIBRARY_PATH": real.libraries], stranger: stranger)
    }

    func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
        Proc.run([Proc.kioskHUD, "ctl"] + [args[0], "--socket", dir + "/c.sock"] + args.dropFirst())
    }

    /// Waits for the daemon's end (after a quit).
    func wait() -> Int32 {
        let s = Proc.wait(pid)
        exitStatus = s
        return s
    }

    var log: String { Proc.readFile(dir + "/d.err") ?? "" }
}

@Suite(.serialized) struct PlymouthCommandTests {
    static let start = ["--mode", "text", "--label", "Booting"]

    /// Requests with the real client (its arguments and exit code), and the `render` options
    /// of the picture after them (nil: the HUD hidden, only the underlay).
    static let cases: [(name: String, daemon: [String], steps: [([String], Int32)], render: [String]?)] = [
        ("ping", [], [(["--ping"], 0)], start),
        ("a unit's status", [], [(["update", "--status=NetworkManager.service"], 0)], start + ["--details", "Starting NetworkManager.service…"]),
        ("a script's status", [], [(["update", "--status", "Checking the disks"], 0)], start + ["--details", "Checking the disks"]),
        ("the old --update form", [], [(["--update=kiosk.service"], 0)], start + ["--details", "Starting kiosk.service…"]),
        ("no status line", ["--plymouth-status", "none"], [(["update", "--status=NetworkManager.service"], 0)], start),
        ("a message", [], [(["display-message", "--text=Please wait"], 0)], ["--mode", "text", "--label", "Please wait"]),
        ("a message hidden", [], [(["display-message", "--text=Please wait"], 0), (["hide-message", "--text=Please wait"], 0)], start),
        ("system-update", [], [(["system-update", "--progress=42"], 0)], ["--mode", "bar", "--progress", "0.42", "--label", "Booting"]),
        ("change-mode --updates", [], [(["change-mode", "--updates"], 0), (["system-update", "--progress=10"], 0)],
         ["--mode", "bar", "--progress", "0.1", "--label", "Installing updates…"]),
        ("change-mode --shutdown", ["--plymouth-shutdown-mode", "text", "--plymouth-shutdown-label", "Bye"], [(["change-mode", "--shutdown"], 0)],
         ["--mode", "text", "--label", "Bye"]),
        ("change-mode --reboot: no unit statuses on the details line", ["--plymouth-reboot-mode", "text"],
         [(["update", "--status=a.service"], 0), (["change-mode", "--reboot"], 0), (["update", "--status=systemd-reboot.service"], 0)],
         ["--mode", "text", "--label", "Restarting…"]),
        // The shutdown units' daemon: it starts in the mode (--label and --mode are the mode's),
        // and plymouth drives it as any.
        ("daemon --plymouth-mode shutdown", ["--plymouth-mode", "shutdown", "--plymouth-shutdown-mode", "text", "--plymouth-shutdown-label", "Bye"],
         [(["--ping"], 0)], ["--mode", "text", "--label", "Bye"]),
        ("daemon --plymouth-mode reboot, then change-mode --shutdown", ["--plymouth-mode", "reboot", "--plymouth-shutdown-mode", "text"],
         [(["display-message", "--text=Back soon"], 0), (["change-mode", "--shutdown"], 0)], ["--mode", "text", "--label", "Shutting down…"]),
        ("daemon --plymouth-mode updates, system-update", ["--plymouth-mode", "updates"], [(["system-update", "--progress=30"], 0)],
         ["--mode", "bar", "--progress", "0.3", "--label", "Installing updates…"]),
        ("change-mode without a mode", [], [(["change-mode"], 1)], start),
        ("hide-splash", [], [(["hide-splash"], 0)], nil),
        ("hide-splash, show-splash", [], [(["hide-splash"], 0), (["show-splash"], 0)], start),
        ("deactivate: the state changes, nothing is drawn", [], [(["deactivate"], 0), (["update", "--status=late.service"], 0)], start),
        ("reactivate draws it", [], [(["deactivate"], 0), (["update", "--status=late.service"], 0), (["reactivate"], 0)],
         start + ["--details", "Starting late.service…"]),
        ("a password is refused; the next status brings the HUD back", [],
         [(["ask-for-password", "--prompt=Passphrase"], 1), (["update", "--status=after.service"], 0)], start + ["--details", "Starting after.service…"]),
        ("a question and a keystroke are refused", [], [(["ask-question", "--prompt=Continue?"], 1), (["watch-keystroke", "--keys=c"], 1),
                                                          (["reactivate"], 0)], start),
        ("no VT offscreen; the rest acknowledged", [],
         [(["--has-active-vt"], 1), (["--sysinit"], 0), (["--newroot=/sysroot"], 0), (["update-root-fs", "--read-write"], 0),
          (["report-error"], 0), (["pause-progress"], 0), (["unpause-progress"], 0), (["ignore-keystroke", "--keys=c"], 0)], start),
    ]

    @Test func eachVerbAndThePictureAfterIt() throws {
        guard let real = RealPlymouth.fetch() else { return }
        var failures: [String] = []
        for c in Self.cases {
            guard let d = NamespacedDaemon(Self.start + c.daemon) else { Issue.record("\(c.name): no daemon"); continue }
            for (args, expected) in c.steps {
                let r = d.plymouth(real, args)
                if r.status != expected { failures.append("\(c.name): plymouth \(args.joined(separator: " ")) exited \(r.status), not \(expected): \(r.err)") }
            }
            let quit = c.name == "ping" ? ["quit", "--retain-splash"] : ["quit"]
            let q = d.plymouth(real, quit)
            #expect(q.status == 0, "\(c.name): plymouth \(quit.joined(separator: " ")): \(q.err)")
            #expect(d.wait() == 0, "\(c.name): \(d.log)")
            let last = try PNG.read(path: d.dir + "/last.png")
            if let args = c.render {
                let r = Proc.run([Proc.kioskHUD, "render"] + args + ["--out", d.dir + "/ref.png"])
                #expect(r.status == 0, "\(r.err)")
                let ref = try PNG.read(path: d.dir + "/ref.png")
                if last.width != ref.width || last.rgba != ref.rgba { failures.append("\(c.name): the daemon's last frame differs from render \(args)") }
            } else {
                var black = true
                for i in stride(from: 0, to: last.rgba.count, by: 4) where last.rgba[i] != 0 || last.rgba[i + 1] != 0 || last.rgba[i + 2] != 0 { black = false; break }
                if !black { failures.append("\(c.name): the HUD is still on screen") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// `deactivate` is seen by the control protocol too (the display is let go), and a user who
    /// is not root gets NAK from the real client's point of view (exit 1).
    @Test func deactivateAndAStranger() throws {
        guard let real = RealPlymouth.fetch(), let d = NamespacedDaemon(Self.start) else { return }
        #expect(d.plymouth(real, ["deactivate"]).status == 0)
        #expect(d.ctl(["status"]).out.contains("\"active\":false"))
        #expect(d.ctl(["status"]).out.contains("\"deactivated\":true"))
        #expect(d.plymouth(real, ["reactivate"]).status == 0)
        #expect(d.ctl(["status"]).out.contains("\"active\":true"))
        let (theirs, copy) = try real.forStranger()
        let s = withExtendedLifetime(copy) { d.plymouth(theirs, ["--ping"], stranger: true) }
        #expect(s.status == 1, "\(s)")
        #expect(d.plymouth(real, ["quit"]).status == 0)
        #expect(d.wait() == 0)
        #expect(d.log.contains("uid 65534: not root: every request gets NAK"), "\(d.log)")
    }

    /// `kiosk-hud plymouth`, and kiosk-hud run through a link named plymouth, exit as the real
    /// client does — with a daemon and without one.
    @Test func ourClientExitsAsPlymouthDoes() throws {
        guard let real = RealPlymouth.fetch(), let d = NamespacedDaemon(Self.start) else { return }
        let link = d.dir + "/plymouth"
        #expect(symlink(Proc.kioskHUD, link) == 0)
        let forms: [[String]] = [
            ["--ping"], ["--has-active-vt"], ["update", "--status=a.service"], ["update", "--status", "text"], ["--update=b.service"],
            ["display-message", "--text=Hi"], ["hide-message", "--text=Hi"], ["system-update", "--progress=5"], ["system-update", "--progress=150"],
            ["change-mode", "--boot-up"], ["change-mode"], ["ask-for-password", "--prompt=x"], ["--ask-for-password"], ["ask-question"],
            ["watch-keystroke", "--keys=x"], ["ignore-keystroke", "--keys=x"], ["pause-progress"], ["unpause-progress"], ["--sysinit"],
            ["--newroot=/root"], ["update-root-fs", "--new-root-dir=/sysroot"], ["report-error"], ["--details"], ["show-splash"],
            ["--show-splash"], ["deactivate"], ["reactivate"], ["--bogus"], ["frobnicate"], ["--help"], [],
        ]
        var differ: [String] = []
        func compare(_ args: [String], _ when: String) {
            let theirs = d.plymouth(real, args).status
            let ours = d.run([Proc.kioskHUD, "plymouth"] + args).status
            let linked = d.run([link] + args).status
            if theirs != ours || theirs != linked { differ.append("\(when) plymouth \(args.joined(separator: " ")): plymouth \(theirs), kiosk-hud plymouth \(ours), the link \(linked)") }
        }
        for f in forms { compare(f, "with a daemon:") }
        #expect(d.run([link, "quit", "--retain-splash"]).status == 0)
        #expect(d.wait() == 0)
        for f in [["--ping"], ["--has-active-vt"], ["update", "--status=x"], ["quit"], ["--wait"], ["deactivate"]] { compare(f, "without one:") }
        #expect(differ.isEmpty, "\(differ.joined(separator: "\n"))")
    }

    /// The boot estimate's file: written at quit in Plymouth's format, read by the next boot.
    @Test func theBootEstimateIsKeptForTheNextBoot() throws {
        guard let real = RealPlymouth.fetch() else { return }
        let keep = Proc.makeTempDir("kiosk-plymouth-estimate")
        defer { _ = Proc.run(["rm", "-rf", keep]) }
        let file = keep + "/lib/plymouth/boot-duration"
        guard let first = NamespacedDaemon(Self.start + ["--plymouth-boot-duration", file]) else { return }
        for unit in ["systemd-journald.service", "NetworkManager.service", "kiosk.service"] {
            #expect(first.plymouth(real, ["update", "--status=\(unit)"]).status == 0)
        }
        #expect(first.plymouth(real, ["quit"]).status == 0)
        #expect(first.wait() == 0)
        #expect(first.log.contains("no boot estimate yet"))
        let text = Proc.readFile(file) ?? ""
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.count > 6 && $0.dropFirst(1).hasPrefix(".") && $0.dropFirst(5).hasPrefix(":") }, "\(text)")
        #expect(lines.last?.hasSuffix(":kiosk.service") == true)
        guard let second = NamespacedDaemon(Self.start + ["--plymouth-boot-duration", file]) else { return }
        #expect(second.plymouth(real, ["quit"]).status == 0)
        #expect(second.wait() == 0)
        #expect(second.log.contains("3 messages of the last boot"), "\(second.log)")
        #expect(Proc.readFile(file) == text, "a boot without statuses leaves the estimate as it was")
    }

    /// `plymouth --wait` returns once the daemon has quit.
    @Test func waitReturnsWhenTheDaemonQuits() throws {
        guard let real = RealPlymouth.fetch(), let d = NamespacedDaemon(Self.start) else { return }
        let box = ResultBox()
        try spawnDetachedThread { [d] in box.set(d.plymouth(real, ["--wait"])) }
        usleep(300_000)
        #expect(box.get() == nil, "--wait returned while the daemon runs")
        #expect(d.plymouth(real, ["quit"]).status == 0)
        for _ in 0..<200 where box.get() == nil { usleep(10_000) }
        #expect(box.get()?.status == 0)
        #expect(d.wait() == 0)
    }
}

/// A child's result handed from the thread that waits for it.
final class ResultBox: @unchecked Sendable {
    private var m = pthread_mutex_t()
    private var value: (status: Int32, out: String, err: String)?
    init() { pthread_mutex_init(&m, nil) }
    func set(_ v: (status: Int32, out: String, err: String)) { pthread_mutex_lock(&m); value = v; pthread_mutex_unlock(&m) }
    func get() -> (status: Int32, out: String, err: String)? { pthread_mutex_lock(&m); defer { pthread_mutex_unlock(&m) }; return value }
}
