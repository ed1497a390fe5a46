import Glibc
import KioskSys
import KioskTestSupport
import Testing

/// The shutdown screens (dist/systemd/kiosk-hud-{reboot,poweroff}.service) on a real shutdown:
/// Debian 12 booted with systemd as PID 1 under QEMU (`run-in-vm.sh --systemd`, bochs-drm at
/// 800x480, -no-reboot: a reset ends QEMU), kiosk-hud's package installed, the boot splash masked
/// and the example kiosk app running a C stand-in that is DRM master and shows one colour
/// (Tests/VM/shutdown). Once the boot is finished the guest asks the host for a screendump every
/// 100 ms until QEMU exits (vmhost.py's shutdown-watch, which also logs QMP's SHUTDOWN event) and
/// runs `systemctl reboot`, or `systemctl poweroff`.
///
/// Three boots: reboot and poweroff with the screens after the app, and an offline update's boot
/// (below); with KIOSK_VM_SHUTDOWN_COMPARE=1 the first two also each
/// with the screens masked (the same boot without kiosk-hud's units), alternating, for the times
/// below, KIOSK_VM_SHUTDOWN_ROUNDS times (default 1) — a measurement, run by hand (dist/README.md
/// has its figures): CI's time goes to what is checked. Checked:
/// - with the screens, the label of the mode ("Restarting…", "Shutting down…": the profile's
///   reboot and shutdown looks, set to text mode by the test) appears on screen after the app's
///   colour and stays in every screendump until QEMU resets or powers off — each equal, pixel for
///   pixel, to `kiosk-hud render` of it: the daemon took the display after the app let it go,
///   and survived systemd-shutdown's last killing spree;
/// - the screen's daemon, run as its unit runs it (kiosk-vm-warm.service, before the app: warm.sh),
///   is at nice 19 in every thread once its first frame is on screen, drawn and from the frame
///   cache (`--idle-after-first-frame`: what keeps it from taking CPU from the shutdown);
/// - QEMU's SHUTDOWN event says guest-reset after a reboot and guest-shutdown after a power-off;
/// - an offline update (Tests/VM/shutdown/update.sh: /system-update there, so systemd boots
///   system-update.target; the boot splash running with --plymouth, no app): the update's
///   `plymouth change-mode --updates` and `plymouth system-update --progress=40` put the profile's
///   updates look on screen, equal to `render --mode bar --progress 0.4 --label "Installing
///   updates…"`, with the boot's progress follower not started (it would move the bar too); then
///   the update's `systemctl reboot`: the reboot screen takes the display from the splash
///   (Conflicts=) and keeps "Restarting…" on it until QEMU resets, as after the app;
/// - (KIOSK_VM_SHUTDOWN_COMPARE=1) the shutdown is not slower with the screens: from the command
///   (the host's answer to the guest's request, right before it) to QEMU's SHUTDOWN event, the
///   median time with the screens is at most 10 % (or 100 ms, whichever is more) above the
///   median without them in this same run, as issue #26 asks; every time is printed. Under TCG
///   on a shared host one boot's shutdown varies more than that margin from run to run (the
///   same boot: 3.8–9.8 s), so with fewer than 3 rounds a failed comparison is an intermittent
///   known issue, shown but not failing the run; with 3 or more it is a check.
/// The guests run a release kiosk-hud (`releaseBinary`), as a board does.
/// The frame cache of each screen is written in the boot before (the guest runs the unit's
/// command once, before the app): a board's first shutdown writes it, every later one starts from
/// it, and this is a later one. If the VM cannot run, the test FAILS, loudly, unless
/// KIOSK_VM_ALLOW_SKIP=1.
@Suite(.serialized) struct VMShutdownTests {
    static let (width, height) = (800, 480)
    /// The stand-in app's colour (kiosk-app.c's default).
    static let appColour: [UInt8] = [0x20, 0x60, 0xa0]
    /// Screendumps every this many milliseconds while the guest goes down.
    static let interval = 100

    enum How: String {
        /// After the kiosk app: `systemctl reboot`, `systemctl poweroff`.
        case reboot, poweroff
        /// An offline update's boot (system-update.target) with the boot splash on screen, then
        /// the update's `systemctl reboot` (Tests/VM/shutdown/update.sh).
        case update
        /// The label the screen shows: the profile's reboot or shutdown label (its default).
        var label: String { self == .poweroff ? "Shutting down…" : "Restarting…" }
        /// QMP's SHUTDOWN reason with -no-reboot.
        var reason: String { self == .poweroff ? "guest-shutdown" : "guest-reset" }
        /// What the screen shows right before the command (the host's screendump `NAME-before`):
        /// the app's colour, or the update's screen (`render`'s arguments).
        var before: [String]? {
            self == .update ? ["--mode", "bar", "--progress", "0.4", "--label", "Installing updates…", "--scale", "1"] : nil
        }
        /// The guest's checks before the command.
        func checks(screens: Bool) -> [String] {
            self == .update
                ? ["setup-installed", "splash-up", "no-boot-follower", "update-requests", "update-shown", "shutdown-started"]
                : ["setup-installed", "app-drawn", "boot-finished", "shutdown-started"]
                    + (screens ? ["frame-cache-written", "idle-after-drawn-frame", "idle-after-cached-frame"] : [])
        }
    }

    /// What one shutdown left: the times (host wall clock, seconds) and what each screendump showed.
    struct Shutdown {
        /// The app's colour, the update's screen (`How.before`), the mode's label, anything else.
        enum Seen: Equatable { case app, update, label, other }
        var start = 0.0, end: Double?, reason = ""
        var shots: [(t: Double, seen: Seen)] = []
        var duration: Double? { end.map { $0 - start } }

        /// "app ×3, other ×2, label ×14": the runs of what was seen, in order.
        var summary: String {
            var parts: [(Seen, Int)] = []
            for s in shots { if let last = parts.last, last.0 == s.seen { parts[parts.count - 1].1 += 1 } else { parts.append((s.seen, 1)) } }
            return parts.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")
        }
    }

    @Test(.timeLimit(.minutes(60)))
    func rebootAndPowerOffWithAndWithoutTheScreens() async throws {
        if let p = VMBootTests.problem {
            if let issue = VMGate.cannotRun("VM SHUTDOWN TESTS", "missing \(p)") { Issue.record(Comment(rawValue: issue)) }
            return
        }
        // Not under /tmp: the booted guest's systemd-tmpfiles empties /tmp.
        let out = VMBootTests.makeDirectory("/var/tmp/kiosk-vm-shutdown.XXXXXX")
        guard let app = VMBootTests.kioskApp(in: out, suite: "VM SHUTDOWN TESTS") else { return }
        guard let binary = await Self.releaseBinary() else { return }
        let made = Proc.run([Proc.root + "/Tools/make-deb.sh", "--binary", binary, "--version", "1.0.0", "--out", out, "--compress", "gzip"])
        let deb = String(made.out.split(separator: "\n").last ?? "")
        guard made.status == 0, Proc.exists(deb) else { Issue.record("Tools/make-deb.sh failed (\(made.status)): \(made.err)"); return }

        var clean = true
        var measured: [String: [Double]] = [:]
        let compare = environmentValue("KIOSK_VM_SHUTDOWN_COMPARE") == "1"
        let rounds = compare ? max(1, Int(environmentValue("KIOSK_VM_SHUTDOWN_ROUNDS") ?? "") ?? 1) : 1
        for round in 1...rounds {
            for how in [How.reboot, .poweroff] {
                // Alternating which goes first: a host that gets busier or quieter over the run
                // weighs on both.
                let order = !compare ? [true] : round % 2 == 1 ? [true, false] : [false, true]
                for screens in order {
                    guard let s = try await shutdown(how, screens: screens, deb: deb, app: app, out: out, round: rounds > 1 ? round : nil),
                          let d = s.duration else { clean = false; continue }
                    measured["\(how.rawValue)-\(screens)", default: []].append(d)
                }
            }
        }
        // The offline update's reboot, from the boot splash (no comparison: it has no "without").
        if try await shutdown(.update, screens: true, deb: deb, app: app, out: out) == nil { clean = false }
        let f2 = { (t: Double) in String(format: "%.2f", t) }
        for how in [How.reboot, .poweroff] {
            guard let withAll = measured["\(how.rawValue)-true"], let withoutAll = measured["\(how.rawValue)-false"] else { continue }
            let (with, without) = (median(withAll), median(withoutAll))
            let allowed = max(0.1 * without, 0.1)
            print("[shutdown] systemctl \(how.rawValue) → QEMU's \(how.reason), median of \(withAll.count) and \(withoutAll.count): \(f2(with)) s with the screens " +
                  "(\(withAll.map(f2).joined(separator: ", "))), \(f2(without)) s without (\(withoutAll.map(f2).joined(separator: ", "))): " +
                  "\(String(format: "%+.0f", 1000 * (with - without))) ms; allowed +\(String(format: "%.0f", 1000 * allowed)) ms")
            let message: Comment = "systemctl \(how.rawValue) took \(f2(with)) s with the shutdown screens, \(f2(without)) s without (medians): more than 10 % (or 100 ms) slower"
            if rounds >= 3 {
                #expect(with - without <= allowed, message)
            } else {
                // One or two shutdowns each way: under TCG on a shared host the same boot's
                // shutdown took 3.8 to 9.8 s from one run to the next (Tests/VM/README.md), more
                // than the margin, either way. The comparison is shown, as an intermittent known
                // issue; KIOSK_VM_SHUTDOWN_ROUNDS=3 or more makes it a check of the medians.
                withKnownIssue("fewer than 3 shutdowns each way under TCG: noise beyond 10 %", isIntermittent: true) {
                    #expect(with - without <= allowed, message)
                }
            }
            if with - without > allowed { clean = false }
        }
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[shutdown] kept \(out) for inspection") }
    }

    /// The kiosk-hud the guests run: a release build, as a board has (a debug build's start-up
    /// under TCG is ~20 s of the one CPU, competing with the shutdown it is to watch): the one
    /// KIOSK_HUD_BINARY names, else built here into the scratch path LinkOrderTests builds its
    /// release binary in (the same command: whichever suite comes second finds it done). Nil, the
    /// issue recorded, when the build fails.
    static func releaseBinary() async -> String? {
        if getenv("KIOSK_HUD_BINARY") != nil { return Proc.kioskHUD }
        let scratch = Proc.root + "/.build-release-check"
        let logs = Proc.makeTempDir("kiosk-shutdown-release")
        defer { _ = Proc.run(["rm", "-rf", logs]) }
        let build = ["nice", "-n", "10", "swift", "build", "-c", "release", "--product", "kiosk-hud",
                     "--package-path", Proc.root, "--scratch-path", scratch]
        guard let pid = Proc.spawn(build, stdout: logs + "/out", stderr: logs + "/err") else {
            Issue.record("cannot start \(build.joined(separator: " "))"); return nil
        }
        let status = await onOwnThread { Proc.wait(pid) }
        guard status == 0 else {
            Issue.record("\(build.joined(separator: " ")) failed (exit \(status)): \(((Proc.readFile(logs + "/out") ?? "") + (Proc.readFile(logs + "/err") ?? "")).suffix(3000))")
            return nil
        }
        return scratch + "/release/kiosk-hud"
    }

    /// One boot and its shutdown; nil when the VM could not run or left no times.
    func shutdown(_ how: How, screens: Bool, deb: String, app: String, out parent: String, round: Int? = nil) async throws -> Shutdown? {
        let name = "\(how.rawValue)-\(screens ? "screens" : "none")"
        let out = parent + "/" + name + (round.map { "-\($0)" } ?? "")
        let tag = name + (round.map { " (round \($0))" } ?? "")
        try makeDirectories(out)
        let args = ["--systemd", "--gpu", "bochs", "--out", out, "--timeout", "480", "--console", "-v",
                    "--", "bash", Proc.root + "/Tests/VM/shutdown/setup.sh", deb, app, screens ? "screens" : "none", how.rawValue]
        let t0 = monotonicSeconds()
        let run = await Proc.runVM(args, qemuArgs: "-global VGA.xres=\(Self.width) -global VGA.yres=\(Self.height)", out: out)
        print("[\(tag)] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(run.status)")
        guard guestVerdict(run, suite: "VM SHUTDOWN TESTS", tag: name, checks: how.checks(screens: screens)) != nil else { return nil }

        var s = Shutdown()
        var files: [(file: String, t: Double)] = []
        for line in (Proc.readFile(out + "/\(name).times") ?? "").split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            switch f.first {
            case "start": s.start = Double(f[1]) ?? 0
            case "shot" where f.count >= 3: files.append((f[1], Double(f[2]) ?? 0))
            case "event" where f.count >= 3 && f[1] == "SHUTDOWN": s.end = Double(f[2]); s.reason = f.count > 3 ? f[3] : ""
            default: break
            }
        }
        guard s.start > 0, let end = s.end else {
            Issue.record("[\(tag)] no start or no SHUTDOWN event in \(name).times: \(Proc.readFile(out + "/\(name).times") ?? "(none)")")
            return nil
        }
        #expect(s.reason == how.reason, "[\(tag)] QEMU's SHUTDOWN reason: \(s.reason), not \(how.reason)")

        let refs = Refs(dir: out)
        let label = try refs.render(["--mode", "text", "--label", how.label, "--scale", "1"], width: Self.width, height: Self.height, phase: nil)
        let update = try how.before.map { try refs.render($0, width: Self.width, height: Self.height, phase: nil) }
        func seen(_ file: String) -> Shutdown.Seen? {
            guard let ppm = PPM(path: out + "/" + file) else { return nil }
            if ppm.width == Self.width && ppm.height == Self.height
                && stride(from: 0, to: ppm.rgb.count, by: 3).allSatisfy({ Array(ppm.rgb[$0..<($0 + 3)]) == Self.appColour }) { return .app }
            if let update, VMDisplayTests().diff(ppm, update, .none) == 0 { return .update }
            return VMDisplayTests().diff(ppm, label, .none) == 0 ? .label : .other
        }
        let want: Shutdown.Seen = how == .update ? .update : .app
        let wanted = how.before.map { "`render \($0.joined(separator: " "))`" } ?? "the app's colour"
        #expect(seen("\(name)-before.ppm") == want, "[\(tag)] before the command the screen did not show \(wanted)")
        for f in files { if let v = seen(f.file) { s.shots.append((f.t, v)) } }
        let ms = { (t: Double) in String(format: "%.0f ms", 1000 * t) }
        print("[\(tag)] systemctl \(how == .update ? "reboot (the update's)" : how.rawValue) → QEMU's SHUTDOWN (\(s.reason)) \(String(format: "%.2f", end - s.start)) s; " +
              "\(s.shots.count) screendumps every \(Self.interval) ms: \(s.summary)")
        if screens {
            guard let first = s.shots.firstIndex(where: { $0.seen == .label }) else {
                Issue.record("[\(tag)] no screendump showed the label \(how.label): \(s.summary)")
                return s
            }
            let after = s.shots[first...]
            #expect(after.allSatisfy { $0.seen == .label }, "[\(tag)] the label went before QEMU's end: \(s.summary)")
            print("[\(tag)] the label on screen from \(ms(s.shots[first].t - s.start)) after the command; the last screendump " +
                  "\(ms(end - (s.shots.last?.t ?? end))) before QEMU's end showed \(s.shots.last.map { "\($0.seen)" } ?? "?")")
        }
        let console = run.stderr
        for line in console.split(separator: "\n") where line.contains("excluded from killing") || line.contains("Sending SIGTERM to remaining") {
            print("[\(tag)] console: \(line.suffix(160))")
        }
        return s
    }
}
