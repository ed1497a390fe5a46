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
/// Two boots: reboot and poweroff with the screens; with KIOSK_VM_SHUTDOWN_COMPARE=1 four, one
/// after the other, alternating: each also with the screens masked (the same boot without
/// kiosk-hud's units), for the times below — a measurement, run by hand (dist/README.md has its
/// figures): CI's time goes to what is checked. Checked:
/// - with the screens, the label of the mode ("Restarting…", "Shutting down…": the profile's
///   reboot and shutdown looks, set to text mode by the test) appears on screen after the app's
///   colour and stays in every screendump until QEMU resets or powers off — each equal, pixel for
///   pixel, to `kiosk-hud render` of it: the daemon took the display after the app let it go,
///   and survived systemd-shutdown's last killing spree;
/// - QEMU's SHUTDOWN event says guest-reset after a reboot and guest-shutdown after a power-off;
/// - (KIOSK_VM_SHUTDOWN_COMPARE=1) the shutdown is not slower with the screens: from the command (the host's answer to the
///   guest's request, right before it) to QEMU's SHUTDOWN event, the time with the screens is at
///   most 10 % (or 100 ms, whichever is more) above the time without them in this same run. This
///   compares two measurements of one run, as issue #26 asks; both are printed. One boot each
///   way is noisier than that margin under TCG on a shared host (the same boot: 3.8–9.8 s), so a
///   failed comparison is an intermittent known issue, shown but not failing the run.
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
        case reboot, poweroff
        /// The label the screen shows: the profile's reboot or shutdown label (its default).
        var label: String { self == .reboot ? "Restarting…" : "Shutting down…" }
        /// QMP's SHUTDOWN reason with -no-reboot.
        var reason: String { self == .reboot ? "guest-reset" : "guest-shutdown" }
    }

    /// What one shutdown left: the times (host wall clock, seconds) and what each screendump showed.
    struct Shutdown {
        enum Seen: Equatable { case app, label, other }
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
        var measured: [String: Shutdown] = [:]
        let compare = environmentValue("KIOSK_VM_SHUTDOWN_COMPARE") == "1"
        for how in [How.reboot, .poweroff] {
            for screens in compare ? [true, false] : [true] {
                guard let s = try await shutdown(how, screens: screens, deb: deb, app: app, out: out) else { clean = false; continue }
                measured["\(how.rawValue)-\(screens)"] = s
            }
        }
        for how in [How.reboot, .poweroff] {
            guard let with = measured["\(how.rawValue)-true"]?.duration, let without = measured["\(how.rawValue)-false"]?.duration else { continue }
            let allowed = max(0.1 * without, 0.1)
            print("[shutdown] systemctl \(how.rawValue) → QEMU's \(how.reason): \(String(format: "%.2f", with)) s with the screens, " +
                  "\(String(format: "%.2f", without)) s without (\(String(format: "%+.0f", 1000 * (with - without))) ms; allowed +\(String(format: "%.0f", 1000 * allowed)) ms)")
            // One boot each way: under TCG on a shared host the same boot's shutdown took 3.8 to
            // 9.8 s from one run to the next (Tests/VM/README.md), more than the margin, either
            // way. The comparison is made and a failure shown, as an intermittent known issue.
            withKnownIssue("one shutdown each way under TCG on a shared host: noise beyond 10 %", isIntermittent: true) {
                #expect(with - without <= allowed,
                        "systemctl \(how.rawValue) took \(String(format: "%.2f", with)) s with the shutdown screens, \(String(format: "%.2f", without)) s without: more than 10 % (or 100 ms) slower")
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
    func shutdown(_ how: How, screens: Bool, deb: String, app: String, out parent: String) async throws -> Shutdown? {
        let name = "\(how.rawValue)-\(screens ? "screens" : "none")"
        let out = parent + "/" + name
        try makeDirectories(out)
        let args = ["--systemd", "--gpu", "bochs", "--out", out, "--timeout", "480", "--console", "-v",
                    "--", "bash", Proc.root + "/Tests/VM/shutdown/setup.sh", deb, app, screens ? "screens" : "none", how.rawValue]
        let t0 = monotonicSeconds()
        let run = await Proc.runVM(args, qemuArgs: "-global VGA.xres=\(Self.width) -global VGA.yres=\(Self.height)", out: out)
        print("[\(name)] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(run.status)")
        let checks = ["setup-installed", "app-drawn", "boot-finished", "shutdown-started"] + (screens ? ["frame-cache-written"] : [])
        guard guestVerdict(run, suite: "VM SHUTDOWN TESTS", tag: name, checks: checks) != nil else { return nil }

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
            Issue.record("[\(name)] no start or no SHUTDOWN event in \(name).times: \(Proc.readFile(out + "/\(name).times") ?? "(none)")")
            return nil
        }
        #expect(s.reason == how.reason, "[\(name)] QEMU's SHUTDOWN reason: \(s.reason), not \(how.reason)")

        let refs = Refs(dir: out)
        let label = try refs.render(["--mode", "text", "--label", how.label, "--scale", "1"], width: Self.width, height: Self.height, phase: nil)
        func seen(_ file: String) -> Shutdown.Seen? {
            guard let ppm = PPM(path: out + "/" + file) else { return nil }
            if ppm.width == Self.width && ppm.height == Self.height
                && stride(from: 0, to: ppm.rgb.count, by: 3).allSatisfy({ Array(ppm.rgb[$0..<($0 + 3)]) == Self.appColour }) { return .app }
            return VMDisplayTests().diff(ppm, label, .none) == 0 ? .label : .other
        }
        #expect(seen("\(name)-before.ppm") == .app, "[\(name)] before the command the screen did not show the app's colour")
        for f in files { if let v = seen(f.file) { s.shots.append((f.t, v)) } }
        let ms = { (t: Double) in String(format: "%.0f ms", 1000 * t) }
        print("[\(name)] systemctl \(how.rawValue) → QEMU's SHUTDOWN (\(s.reason)) \(String(format: "%.2f", end - s.start)) s; " +
              "\(s.shots.count) screendumps every \(Self.interval) ms: \(s.summary)")
        if screens {
            guard let first = s.shots.firstIndex(where: { $0.seen == .label }) else {
                Issue.record("[\(name)] no screendump showed the label \(how.label): \(s.summary)")
                return s
            }
            let after = s.shots[first...]
            #expect(after.allSatisfy { $0.seen == .label }, "[\(name)] the label went before QEMU's end: \(s.summary)")
            print("[\(name)] the label on screen from \(ms(s.shots[first].t - s.start)) after the command; the last screendump " +
                  "\(ms(end - (s.shots.last?.t ?? end))) before QEMU's end showed \(s.shots.last.map { "\($0.seen)" } ?? "?")")
        }
        let console = run.stderr
        for line in console.split(separator: "\n") where line.contains("excluded from killing") || line.contains("Sending SIGTERM to remaining") {
            print("[\(name)] console: \(line.suffix(160))")
        }
        return s
    }
}
