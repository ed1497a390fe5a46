import KioskTestSupport
import Glibc
import KioskPNG
import KioskSys
import Testing

/// Real boot: kiosk-hud as the boot splash of a Debian 12 system with systemd as PID 1, under
/// QEMU on bochs-drm at 800x480, end to end (`run-in-vm.sh --systemd`, Tests/VM/boot).
///
/// The guest's root is the host's Debian 12 (the harness's read-only 9p root under a tmpfs
/// overlay: no image to build) with /etc/systemd/system emptied but for Debian's getty on tty1
/// and an empty /tmp, booted by its own systemd 252 and udev. Tests/VM/boot/setup.sh installs the kiosk-hud this test run built
/// as its package (Tools/make-deb.sh, `dpkg -i`: the units and their enabling are the
/// package's own), /etc/default/kiosk-hud, and a kiosk app: dist's example unit, unedited
/// but for drop-ins, running a C stand-in (Tests/VM/ref/kiosk-app.c), with six 1.5 s oneshots as what it waits for
/// (the handover ordered after them by the drop-in dist/README.md describes). Checked:
/// - sysinit.target starts the daemon and the follower (it wants them; nothing touched the
///   socket before), the HUD shows on the connector at 800x480, and its first frame is on
///   screen before sysinit.target is reached (the daemon's first-frame at_s, CLOCK_MONOTONIC,
///   against sysinit.target's ActiveEnterTimestampMonotonic, the same clock);
/// - while the boot runs, watch.py samples `status`, `ping`, a screendump, `status`: the progress
///   never goes back and takes at least 3 values, and each screendump taken while the daemon
///   reported one progress before and after equals `kiosk-hud render` of that state pixel for
///   pixel;
/// - both front ends at once: the control socket (the follower, watch.py) and Plymouth's socket
///   (KIOSK_HUD_PLYMOUTH): PID 1's unit statuses stream into the details line (at least two
///   "Starting NAME…" seen), and the handover's quit is `plymouth quit --retain-splash` (a
///   link named plymouth to kiosk-hud, as a display manager's unit runs it);
/// - the handover: kiosk-hud-quit.service runs, the daemon has exited when the app starts; the app
///   is DRM master; screendumps after the handover (before the app's program) and with the app
///   master (before its first picture) still show the splash's last frame (the full bar) — no
///   black flash; then the app's colour; the --retain keeper exits; the app writes its markers
///   to the serial console;
/// - the boot finishes "running"; none of our units failed; their journal has no failure.
/// Logged (info): kernel start → systemd → udev → daemon exec → first frame (the journal's time
/// and the daemon's exec_ms), and the handover's steps, on the guest's boot clock (TCG: compare,
/// do not quote as a board's). If the VM cannot run, the test FAILS, loudly, unless
/// KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMBootTests {
    /// The guest's checks that must pass (setup.sh, watch.py, app.sh, end.sh).
    static let checks = [
        "setup-installed", "daemon-started", "hud-visible", "hud-display", "samples-until-work-done",
        "app-after-handover", "app-master", "app-drawn", "boot-finished",
        "not-failed-kiosk-hud.socket", "not-failed-kiosk-hud.service", "not-failed-kiosk-hud-progress.service",
        "not-failed-kiosk-hud-quit.service", "not-failed-kiosk-app.service",
        "state-kiosk-hud.socket", "state-kiosk-hud.service", "state-kiosk-hud-progress.service",
        "state-kiosk-hud-quit.service", "state-kiosk-app.service",
        "handover-ran", "started-by-sysinit", "follower-by-sysinit", "first-frame-before-sysinit", "journal-clean", "journal-no-failed",
        "daemon-first-frame", "daemon-done", "follower-started", "keeper-exited", "frame-cache-renewed",
    ]
    /// The HUD's options in /etc/default/kiosk-hud (setup.sh), as `render` takes them.
    static let label = "Starting up"
    /// The stand-in app's colour (kiosk-app.c's default).
    static let appColour: [UInt8] = [0x20, 0x60, 0xa0]
    static let (width, height) = (800, 480)

    static let problem: String? = {
        var missing: [String] = VMDisplayTests.problem.map { [$0] } ?? []
        if !Proc.exists("/lib/systemd/systemd") { missing.append("/lib/systemd/systemd (apt-get install systemd)") }
        if !Proc.exists("/usr/bin/python3") { missing.append("/usr/bin/python3 (apt-get install python3)") }
        if !Proc.executable("gcc") { missing.append("gcc") }
        if !Proc.executable("dpkg-deb") { missing.append("dpkg-deb (apt-get install dpkg)") }
        return missing.isEmpty ? nil : missing.joined(separator: ", ")
    }()

    @Test(.timeLimit(.minutes(60)))
    func bootWithSystemd() async throws { try await boot(.driverInInitramfs) }

    /// How the display comes at boot.
    enum Display {
        /// bochs-drm loaded by the initramfs: card0 is there before systemd starts.
        case driverInInitramfs
        /// UEFI: efifb from the firmware on; bochs-drm loaded 1 s after the splash's first frame.
        case firmwareFramebuffer
        /// No display at all until bochs-drm is loaded, 1 s after the daemon said it waits.
        case driverLate
        /// An initramfs made by the host's mkinitramfs with kiosk-hud's hook (Tests/VM/initramfs):
        /// the daemon starts at init-top and is carried over after switch-root.
        case initramfs
        /// The same initramfs made without kiosk-hud's hook: the boot as before.
        case initramfsWithoutHook
        /// That initramfs as a Raspberry Pi has it: the root found at once, the display's driver
        /// late (held: `--hold bochs`), so switch-root and the takeover come while the daemon
        /// still waits for its display; bochs-drm loaded once the carried-over daemon says it waits.
        case initramfsDriverLate
        /// That initramfs with the logo its settings name emptied (make.sh --unreadable): the
        /// initramfs's daemon cannot start, and the real root's splash and socket must not care.
        case initramfsDaemonFails
        /// The plain initramfs boot again, its initramfs made with the first boot's kept frame.
        case initramfsFromTheFrameCache

        var tag: String { [.driverInInitramfs: "boot", .firmwareFramebuffer: "boot-efi", .driverLate: "boot-late", .initramfs: "boot-initramfs",
                        .initramfsWithoutHook: "boot-initramfs-without", .initramfsDriverLate: "boot-initramfs-late",
                        .initramfsDaemonFails: "boot-initramfs-fails", .initramfsFromTheFrameCache: "boot-initramfs-cached"][self]! }
        var madeByMkinitramfs: Bool { [.initramfs, .initramfsWithoutHook, .initramfsDriverLate, .initramfsDaemonFails, .initramfsFromTheFrameCache].contains(self) }
        /// The HUD's settings name a logo (in /etc/default/kiosk-hud, the initramfs's too).
        var hasLogo: Bool { [.initramfs, .initramfsDaemonFails, .initramfsFromTheFrameCache].contains(self) }
        /// The plain initramfs boot, the first or the cached (its first frame held before the root).
        var initramfsHeld: Bool { self == .initramfs || self == .initramfsFromTheFrameCache }
        var harness: [String] {
            [.driverInInitramfs: [], .firmwareFramebuffer: ["--efi", "--hold", "bochs"], .driverLate: ["--hold", "bochs"], .initramfs: [], .initramfsWithoutHook: [],
             .initramfsDriverLate: ["--hold", "bochs"], .initramfsDaemonFails: [], .initramfsFromTheFrameCache: []][self]!
        }
        /// setup.sh's WORK_STEPS WORK_SECONDS LATE_DRM LATE_WHEN APP_AS. The firmware
        /// framebuffer's boot (a Pi's, simpledrm then vc4) has its app as a display manager, as
        /// Raspberry Pi OS desktop's lightdm: ordered by the package's drop-in alone.
        var setup: [String] {
            [.driverInInitramfs: [], .firmwareFramebuffer: ["6", "1.5", "bochs", "frame", "display-manager"], .driverLate: ["6", "1.5", "bochs", "waiting"], .initramfs: [], .initramfsWithoutHook: [],
             .initramfsDriverLate: ["6", "1.5", "bochs", "waiting"], .initramfsDaemonFails: [], .initramfsFromTheFrameCache: []][self]!
        }
        var checks: [String] {
            [.driverInInitramfs: [], .firmwareFramebuffer: ["started-on-efifb", "switched-to-card"],
             .driverLate: ["waited-for-display", "shown-on-late-card", "board-detected-at-display"], .initramfs: ["initramfs-hud-before-root", "initramfs-carried-over"], .initramfsWithoutHook: [],
             .initramfsDriverLate: ["initramfs-waiting-at-root", "initramfs-carried-over", "waited-for-display", "shown-on-late-card", "late-card-by-initramfs-daemon", "board-detected-at-display"],
             .initramfsDaemonFails: ["initramfs-daemon-failed", "initramfs-marker-gone", "root-daemon-on-socket", "socket-after-handover"],
             .initramfsFromTheFrameCache: ["initramfs-hud-before-root", "initramfs-carried-over"]][self]!
        }
    }

    /// The same boot through UEFI firmware: the firmware's framebuffer is efifb, bochs-drm is
    /// left out of the initramfs and loaded 1 s after the splash's first frame (as vc4 after
    /// simpledrm on a Pi): the daemon starts on efifb, before sysinit.target, and follows the
    /// driver to its card (one display-switch line); every screendump not taken while the display
    /// changed hands equals the render, and the rest of the boot is as above. Its app is a
    /// display manager whose unit knows nothing of kiosk-hud (ordered as Debian's lightdm.service,
    /// enabled as display-manager.service): the package's display-manager.service.d drop-in alone
    /// puts it after the handover, so the app's first picture still follows the last frame.
    @Test(.timeLimit(.minutes(60)))
    func bootFromTheFirmwareFramebuffer() async throws {
        guard Proc.exists("/usr/share/ovmf/OVMF.fd") else {
            if let issue = VMGate.cannotRun("VM BOOT TESTS", "missing /usr/share/ovmf/OVMF.fd (apt-get install ovmf)") {
                Issue.record(Comment(rawValue: issue))
            }
            return
        }
        try await boot(.firmwareFramebuffer)
    }

    /// No display when the splash starts (no firmware framebuffer, the DRM driver not in the
    /// initramfs): the daemon waits for one (30 s, setup.sh's drop-in; its socket answering), bochs-drm
    /// is loaded 1 s after it said so, and the HUD is shown on its card — still before
    /// sysinit.target, which waits for the first frame (READY=1); the rest of the boot as above.
    @Test(.timeLimit(.minutes(60)))
    func bootWithTheDriverLoadedLate() async throws { try await boot(.driverLate) }

    /// The splash from the initramfs: an initramfs made by the host's own mkinitramfs with
    /// kiosk-hud's hook (dist/initramfs-tools; Tests/VM/initramfs/make.sh), the host's root over
    /// 9p as the root file system. Held before the root is mounted: the HUD is on screen (a
    /// screendump, the daemon's status); after switch-root kiosk-hud.service takes the same
    /// process over (the same pid, carried over, runs the real root's /usr/bin/kiosk-hud); the rest of
    /// the boot — PID 1's units on the details line, the handover to the app — as above.
    ///
    /// Then the next boot from an initramfs made again with what that boot kept (make.sh --cache:
    /// the initramfs's first frame, which its carried-over daemon copied from /run into the
    /// cache directory as initramfs-frame-KEY.bin): the initramfs's daemon, started before any
    /// card exists, puts that frame on card0 the moment it appears ("frame cache: shown on
    /// /dev/dri/card0 as it appeared", first-frame source=frame-cache), and its picture is
    /// still `kiosk-hud render`'s with the logo; the rest of the boot as the first.
    @Test(.timeLimit(.minutes(60)))
    func bootFromTheInitramfs() async throws {
        guard let first = try await boot(.initramfs) else { return }
        let second = try await boot(.initramfsFromTheFrameCache, after: first)
        if first.clean && second?.clean == true { _ = Proc.run(["rm", "-rf", first.out, second!.out]) }
    }

    /// The same initramfs-tools boot with an initramfs made without kiosk-hud's hook: the splash
    /// starts in the real root as before (the socket unit listens, the service starts the daemon),
    /// and its first frame's time beside the initramfs's (docs/measurements.md). Run by hand
    /// (KIOSK_VM_INITRAMFS_WITHOUT=1): a boot without the hook is `bootWithSystemd`'s already,
    /// and CI's time goes to what is checked.
    @Test(.enabled(if: environmentValue("KIOSK_VM_INITRAMFS_WITHOUT") == "1"), .timeLimit(.minutes(60)))
    func bootFromAnInitramfsWithoutTheHook() async throws { try await boot(.initramfsWithoutHook) }

    /// The initramfs boot as a Raspberry Pi has it: the root is found at once while the display's
    /// driver probes late. The same initramfs, but bochs-drm held (`--hold bochs`: blacklisted in
    /// the initramfs and the real root, Tests/VM/initramfs/scripts/init-top/kiosk-vm-held) and the
    /// hold before the root waiting for the daemon's marker only: the root is mounted, `new_root`
    /// and switch-root come while the daemon waits for its display (its status then names none,
    /// its log before the takeover shows nothing drawn), and kiosk-hud.service takes that waiting
    /// daemon over (the same pid). The carried-over daemon says it waits (the journal), bochs-drm is
    /// loaded then (setup.sh's `waiting`), and the same pid shows the HUD on the late card; every
    /// screendump equals `kiosk-hud render` of what it reported (no black frame once shown), and
    /// the handover to the app is as above.
    @Test(.timeLimit(.minutes(60)))
    func bootFromTheInitramfsWithTheDriverLate() async throws { try await boot(.initramfsDriverLate) }

    /// An initramfs whose daemon fails to start: its settings' logo emptied in the initramfs after
    /// kiosk-hud's hook copied it (make.sh --unreadable; the real root's file is whole). The daemon
    /// ends with that error, leaving no /run/kiosk-hud/initramfs.pid for the real root:
    /// kiosk-hud.socket listens from the start, kiosk-hud.service starts a daemon of its own on
    /// it (its splash, with the logo, checked as the plain boot's), and after the handover the
    /// socket is active and a `kiosk-hud ctl status` (end.sh) is answered by a daemon the socket
    /// started, hidden.
    @Test(.timeLimit(.minutes(60)))
    func bootFromTheInitramfsWhoseDaemonFails() async throws { try await boot(.initramfsDaemonFails) }

    /// A boot's files, for a later boot that goes on from it (the same package, logo and options).
    struct Booted {
        var out, deb, logo, defaults: String
        /// Every check passed (its files may go).
        var clean: Bool
    }

    /// Boots as `display` says and checks; nil when it could not run. `previous`: the boot this
    /// one goes on from (its package, logo and options; its kept frame cache). The plain
    /// initramfs boots leave their files for the caller (`bootFromTheInitramfs`); the others
    /// remove them when clean.
    @discardableResult
    func boot(_ display: Display, after previous: Booted? = nil) async throws -> Booted? {
        let tag = display.tag
        if display.madeByMkinitramfs && !Proc.executable("mkinitramfs") {
            if let issue = VMGate.cannotRun("VM BOOT TESTS", "missing mkinitramfs (apt-get install initramfs-tools)") { Issue.record(Comment(rawValue: issue)) }
            return nil
        }
        if let p = Self.problem {
            if let issue = VMGate.cannotRun("VM BOOT TESTS", "missing \(p)") { Issue.record(Comment(rawValue: issue)) }
            return nil
        }
        // Not under /tmp: the booted guest's systemd-tmpfiles empties /tmp.
        let out = Self.makeDirectory("/var/tmp/kiosk-vm-boot.XXXXXX")
        guard let app = Self.kioskApp(in: out, suite: "VM BOOT TESTS") else { return nil }

        // The package, as a board installs it (gzip: xz takes 20 s on a debug binary).
        let made = previous.map { (status: Int32(0), out: $0.deb, err: "") } ??
            Proc.run([Proc.root + "/Tools/make-deb.sh", "--binary", Proc.kioskHUD, "--version", "1.0.0", "--out", out, "--compress", "gzip"])
        let deb = String(made.out.split(separator: "\n").last ?? "")
        guard made.status == 0, Proc.exists(deb) else {
            Issue.record("Tools/make-deb.sh failed (\(made.status)): \(made.err)")
            return nil
        }
        var harness = display.harness
        // The initramfs's boot has a logo ([style] logo's picture, named by --logo in
        // /etc/default/kiosk-hud): the hook must put it in the initramfs, whose first frame shows
        // it (a daemon that cannot read it would not start). The real root's frames, the same
        // process carried over, show it too. The boot whose initramfs's daemon fails has the same
        // logo, emptied in its initramfs: the real root's own daemon shows it.
        let logo = previous?.logo ?? out + "/logo.png"
        let look = display.hasLogo ? ["--logo", logo] : []
        if display.hasLogo && previous == nil {
            guard Proc.run(["cp", Proc.root + "/Tests/KioskHUDTests/Goldens/logo-alone-480x800.png", logo]).status == 0 else {
                Issue.record("cannot copy the logo to \(logo)"); return nil
            }
        }
        var defaults = ""
        if display.madeByMkinitramfs {
            // The same options as setup.sh writes into the guest's /etc/default/kiosk-hud, and a
            // longer wait for the display: under TCG on a busy host the initramfs loaded
            // bochs-drm 20 s after /init ran (a CI run: /init at 14.9 s, bochs at 35.5 s), past
            // the default 8 s, where a board's DRM driver is there in a second or two. With the
            // driver late the initramfs's daemon waits through the test's set-up too (3-35 s, run
            // in the initramfs before switch-root, as no board's boot has it): 120 s.
            defaults = previous?.defaults ?? out + "/kiosk-hud.default"
            let wait = display == .initramfsDriverLate ? 120 : 60
            if previous == nil { _ = Proc.run(["sh", "-c", "printf '%s\\n' \"KIOSK_HUD_ARGS=\\\"--mode bar --label 'Starting up' --scale 1 --wait-display \(wait)\(look.isEmpty ? "" : " --logo " + logo)\\\"\" " +
                          "\"KIOSK_HUD_PLYMOUTH=\\\"--plymouth --plymouth-boot-duration none\\\"\" > '\(defaults)'"]) }
            // The image booted, and (the plain initramfs boot) the one without the hook for its size.
            let images: [(String, [String])] = [
                .initramfs: [("with", []), ("without", ["--without-hook"])], .initramfsWithoutHook: [("without", ["--without-hook"]), ("with", [])],
                .initramfsDriverLate: [("with", [])], .initramfsDaemonFails: [("unreadable-logo", ["--unreadable", logo])],
                .initramfsFromTheFrameCache: [("cached", ["--cache", (previous?.out ?? out) + "/frame-cache"])],
            ][display]!
            if display == .initramfsFromTheFrameCache {
                let kept = Proc.run(["sh", "-c", "ls \"$0\"/frame-cache/initramfs-frame-*.bin", previous?.out ?? out])
                guard kept.status == 0 else {
                    Issue.record("the first boot's carried-over daemon kept no initramfs frame (initramfs-frame-*.bin in its cache directory)")
                    return nil
                }
            }
            let sizes = images.map { (name, extra) -> Int in
                // kiosk-hud's part from the package (its hook, scripts and program, where dpkg
                // puts them and its trigger's update-initramfs finds them), not from dist/.
                let package = extra.contains("--without-hook") ? [] : ["--deb", deb]
                let r = Proc.run([Proc.root + "/Tests/VM/initramfs/make.sh", Proc.kioskHUD, defaults, out + "/initrd-\(name).img"] + package + extra)
                if r.status != 0 { Issue.record("Tests/VM/initramfs/make.sh \(extra.joined(separator: " ")) failed (\(r.status)): \(r.err)") }
                return Int(r.out.split(separator: "\n").last ?? "") ?? 0
            }
            guard sizes.allSatisfy({ $0 > 0 }) else { return nil }
            if sizes.count == 2 {
                let (with, without) = images[0].0 == "with" ? (sizes[0], sizes[1]) : (sizes[1], sizes[0])
                print("[boot-initramfs] mkinitramfs (gzip): \(without) bytes without kiosk-hud, \(with) with it: +\(with - without) bytes")
            }
            // The real root's /etc/default/kiosk-hud is the one the initramfs was made with (setup.sh).
            harness += ["--initrd", out + "/initrd-\(images[0].0).img", "--env", "KIOSK_VM_DEFAULTS=" + defaults]
        }
        let args = ["--systemd", "--gpu", "bochs", "--out", out, "--timeout", "560", "--console", "-v"] + harness +
            ["--", "bash", Proc.root + "/Tests/VM/boot/setup.sh", deb, app] + display.setup
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, qemuArgs: "-global VGA.xres=\(Self.width) -global VGA.yres=\(Self.height)", out: out)
        let wall = monotonicSeconds() - t0
        print("[\(tag)] VM run took \(Int(wall)) s (prepare.sh's cache, boot, checks), exit \(status); files in \(out)")
        let checks = Self.checks + display.checks
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM BOOT TESTS", tag: tag, checks: checks) else { return nil }
        var clean = verdict
        // The daemon's kept frame (and the initramfs's) drawn again offscreen by an "upgraded"
        // program (end.sh's frame-cache-renewed): the same picture as on the card. (The cached
        // initramfs boot keeps none of its own: its frame was the kept one, unchanged, and the
        // guest's /var/cache starts empty at each boot.)
        if display == .driverInInitramfs || display == .initramfs {
            let renewed = (stdout + stderr).contains("renewed (the same picture)")
            #expect(renewed, "no kept frame was renewed (end.sh's frame-cache-renew lines)")
            if !renewed { clean = false }
        }
        // The app's markers on the serial console (run-in-vm.sh --console prints it).
        for marker in ["kiosk-app: master at_open=", "kiosk-app: drawn "] {
            #expect(stderr.contains(marker), "the serial console has no '\(marker)'")
        }

        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.hasSuffix("end\n"), "the guest did not finish: \(manifest)")
        let m = Manifest(manifest)
        if try !checkShots(m, out: out, look: look) { clean = false }
        logTimes(m, harness: stderr)
        func t(_ k: String) -> String { m.times[k].map { String(format: "%.2f s", $0) } ?? "?" }
        if display.initramfsHeld {
            // The HUD held on screen before the root was mounted: not a black screen.
            if let ppm = PPM(path: out + "/initramfs.ppm") {
                var lit = 0
                for i in stride(from: 0, to: ppm.rgb.count, by: 3) where ppm.rgb[i] > 16 || ppm.rgb[i + 1] > 16 || ppm.rgb[i + 2] > 16 { lit += 1 }
                #expect(lit > ppm.width * ppm.height / 100, "the screendump before the root was mounted is black (\(lit) pixels lit)")
                if lit <= ppm.width * ppm.height / 100 { clean = false }
                // Its first frame as `kiosk-hud render` draws the same options: the logo there,
                // read from the initramfs (the hook copied it at its path).
                let state = ["--mode", "bar", "--progress", "0", "--label", Self.label, "--scale", "1"]
                let refs = Refs(dir: out)
                let with = VMDisplayTests().diff(ppm, try refs.render(state + look, width: ppm.width, height: ppm.height, phase: nil), .none)
                let without = VMDisplayTests().diff(ppm, try refs.render(state, width: ppm.width, height: ppm.height, phase: nil), .none)
                #expect(with == 0 && without > 0, "the initramfs's first frame: \(with) pixels differ from `kiosk-hud render` with the logo, \(without) without it")
                if with != 0 || without == 0 { clean = false }
            } else {
                Issue.record("no screendump from the initramfs (initramfs.ppm)"); clean = false
            }
            let initramfsLog = Proc.readFile(out + "/journal-initramfs.txt") ?? ""
            if display == .initramfsFromTheFrameCache {
                // Shown from the cache the moment card0 appeared (the constructor ran before it).
                let shown = initramfsLog.contains("frame cache: shown on /dev/dri/card0 as it appeared") &&
                    initramfsLog.contains("source=frame-cache")
                #expect(shown, "the initramfs's first frame is not the kept one: \(initramfsLog.split(separator: "\n").filter { $0.contains("frame cache") || $0.contains("first-frame") })")
                if !shown { clean = false }
            } else {
                #expect(initramfsLog.contains("frame cache: written /run/kiosk-hud/frame-cache/frame-"),
                        "the initramfs's daemon wrote no frame to /run: \(initramfsLog.split(separator: "\n").filter { $0.contains("frame cache") })")
            }
            print("[\(tag)] the initramfs held at \(t("initramfs-hold")), the HUD's first frame there by \(t("initramfs-frame")); " +
                  "the real root's first frame (the carried-over daemon) at \(t("first-frame")), sysinit.target at \(t("sysinit-target"))")
        }
        if display.madeByMkinitramfs, let ff = m.times["first-frame"] {
            // The test's own set-up (setup.sh) runs in the initramfs, after its hold: not part of a boot.
            let setup = (m.times["cmd-end"] ?? 0) - (m.times["cmd-start"] ?? 0)
            print("[\(tag)] kernel start → the HUD's first frame: " +
                  (display.initramfsHeld ? "\(t("initramfs-first-frame")) in the initramfs (the daemon's at_s)" : String(format: "%.2f s in the real root (%.2f s less the test's set-up)", ff, ff - setup)))
        }
        if display == .initramfsDriverLate {
            print("[\(tag)] the initramfs's hold at \(t("initramfs-hold")), its daemon's status (no display) by \(t("initramfs-status")); " +
                  "systemd at \(t("systemd")), kiosk-hud.service (the takeover) started at \(t("daemon-start")), ready (the carried-over daemon on screen) at \(t("daemon-ready")); " +
                  "bochs-drm loaded by \(t("late-drm-loaded")), the carried-over daemon's first frame on its card at \(t("first-frame")), sysinit.target at \(t("sysinit-target"))")
        }
        if display == .initramfsDaemonFails {
            print("[\(tag)] systemd at \(t("systemd")), kiosk-hud.socket listening at \(t("socket-listening")), kiosk-hud.service exec at \(t("daemon-exec")), " +
                  "its first frame at \(t("first-frame")); the handover done at \(t("handover-done"))")
        }
        if display == .driverLate {
            print("[boot-late] kiosk-hud.service exec at \(t("daemon-exec")), bochs-drm loaded by \(t("late-drm-loaded")), " +
                  "the HUD's first frame on its card at \(t("first-frame")), sysinit.target at \(t("sysinit-target"))")
        }
        if display == .firmwareFramebuffer {
            let off = m.times["display-switch"].flatMap { s in m.times["takeover"].map { String(format: "%.0f ms", 1000 * (s - $0)) } } ?? "?"
            print("[boot-efi] efifb registered at \(t("efifb-registered")), the HUD's first frame on it at \(t("first-frame")); " +
                  "bochs-drm took the display over at \(t("takeover")), the HUD's first frame on its card at \(t("display-switch")) (off screen \(off))")
        }
        // The point of the early start: the HUD is on screen before sysinit.target.
        if let ff = m.times["first-frame"], let si = m.times["sysinit-target"] {
            #expect(ff < si, "the first frame (\(ff) s) came after sysinit.target was reached (\(si) s)")
            if ff >= si { clean = false }
        } else {
            Issue.record("no first-frame or sysinit-target time in the manifest"); clean = false
        }
        if !clean { print("[\(tag)] kept \(out) for inspection") } else if !display.initramfsHeld { _ = Proc.run(["rm", "-rf", out]) }
        return Booted(out: out, deb: deb, logo: logo, defaults: defaults, clean: clean)
    }

    /// The screendumps: those of the boot against renders of the progress the daemon reported,
    /// the handover's (the last frame, a full bar), the app's (its colour). True when all agree.
    func checkShots(_ m: Manifest, out: String, look: [String] = []) throws -> Bool {
        let refs = Refs(dir: out)
        var clean = true
        var compared = 0, moving = 0, between = 0
        var progress: [Double] = []
        var statuses: Set<String> = []   // the details lines seen: PID 1's units through Plymouth's socket
        var lastSeen = ""
        for s in m.shots where s.file.hasPrefix("boot-") && s.fields.count >= 5 {
            guard let ppm = PPM(path: out + "/" + s.file) else { Issue.record("\(s.file): not a PPM"); clean = false; continue }
            let (p1, p2, mode, label, details) = (s.fields[0], s.fields[1], s.fields[2], s.fields[3], s.fields[4])
            let details2 = s.fields.count > 5 ? s.fields[5] : details
            progress += [Double(p1) ?? -1, Double(p2) ?? -1]
            statuses.formUnion([details, details2].filter { !$0.isEmpty })
            lastSeen = details2
            func diff(_ p: String) throws -> Int {
                var state = ["--mode", mode, "--progress", p, "--label", label, "--scale", "1"] + look
                if !details.isEmpty { state += ["--details", details] }
                return VMDisplayTests().diff(ppm, try refs.render(state, width: ppm.width, height: ppm.height, phase: nil), .none)
            }
            if p1 == p2 && details == details2 {
                let d = try diff(p1)
                #expect(d == 0, "\(s.file) at \(s.time) s: \(d) pixels differ from `kiosk-hud render` of mode \(mode), progress \(p1), label \(label), details \(details)")
                if d != 0 { clean = false }
                compared += 1
            } else {
                // An update came between the two statuses: the picture shows one of them, or a
                // progress in between that no status reported (not an error; counted).
                moving += 1
                if try diff(p1) != 0 && diff(p2) != 0 { between += 1 }
            }
        }
        let distinct = Set(progress).sorted()
        print("[boot] HUD during the boot: \(compared + moving) screendumps, \(compared) taken between two equal statuses, each equal to " +
              "`kiosk-hud render` of that progress; \(moving) taken while an update came (\(between) of them showing neither status's progress); " +
              "progress \(distinct.map { String(Int(($0 * 100).rounded())) + "%" }.joined(separator: " → "))")
        #expect(compared >= 3, "only \(compared) screendumps could be compared (at least 3)")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 }, "the progress went back: \(progress)")
        #expect(distinct.count >= 3 && distinct.allSatisfy { $0 >= 0 && $0 < 1 }, "progress values seen: \(distinct)")
        if compared < 3 || distinct.count < 3 { clean = false }
        // Plymouth's front end: PID 1 wrote each unit it started to Plymouth's socket, and the
        // daemon showed them on the details line ("Starting NAME…"), e.g. the app's stand-in
        // dependencies, started one after another while the HUD was watched.
        let units = statuses.filter { $0.hasPrefix("Starting ") && $0.hasSuffix("…") }.sorted()
        print("[boot] details lines seen (PID 1's unit statuses through Plymouth's socket): \(statuses.sorted().joined(separator: " | "))")
        #expect(units.count >= 2, "PID 1's unit statuses did not stream into the details line: \(statuses.sorted())")
        if units.count < 2 { clean = false }

        // The handover: the frame the daemon left (the follower stopped, the bar filled), after
        // the daemon's end before the app runs ("gap"), and once the app is master ("handover").
        for (file, when) in [("boot-gap.ppm", "after the handover, before the app's program"),
                             ("boot-handover.ppm", "with the app master, before its first picture")] {
            guard let s = m.shots.first(where: { $0.file == file }), let ppm = PPM(path: out + "/" + s.file) else {
                Issue.record("no screendump \(when) (\(file))"); clean = false; continue
            }
            // The details line shows the last unit PID 1 reported before the quit: one of those
            // that started from the end of the app's dependencies on (the journal), or the last
            // one watch.py saw; the picture must be the last frame with one of them.
            let state = ["--mode", "bar", "--progress", "1", "--label", Self.label, "--scale", "1"] + look
            var d = Int.max, tried: [String] = []
            for details in lateStatuses(m, out: out, seen: lastSeen) where d != 0 {
                tried.append(details)
                d = min(d, VMDisplayTests().diff(ppm, try refs.render(state + (details.isEmpty ? [] : ["--details", details]),
                                                                   width: ppm.width, height: ppm.height, phase: nil), .none))
            }
            #expect(d == 0, "\(when): \(d) pixels differ from the splash's last frame (`kiosk-hud render \(state.joined(separator: " "))` with details one of \(tried))")
            if d != 0 { clean = false }
        }
        if let s = m.shots.first(where: { $0.file == "boot-app.ppm" }), let ppm = PPM(path: out + "/" + s.file) {
            var other = 0
            for i in stride(from: 0, to: ppm.rgb.count, by: 3) where Array(ppm.rgb[i..<(i + 3)]) != Self.appColour { other += 1 }
            #expect(ppm.width == Self.width && ppm.height == Self.height && other == 0, "the app's picture: \(ppm.width)x\(ppm.height), \(other) pixels not its colour")
            if other != 0 { clean = false }
        } else {
            Issue.record("no screendump of the app's picture"); clean = false
        }
        return clean
    }

    /// The boot's times (the guest's CLOCK_MONOTONIC: 0 is the kernel's start).
    /// `harness`: run-in-vm.sh's stderr, whose -v line has the initramfs's marks ("guest uptime
    /// at: init 2.53 modules 3.40 mounts 3.66 cmd-start 3.67 cmd-end 10.62 systemd 10.63 | …").
    /// The details lines the last frame may show: the last watch.py saw, then "Starting NAME…"
    /// for each service, mount or swap the journal says started or finished from 1 s before the
    /// app's dependencies were done on (PID 1 reports a unit to Plymouth when it becomes active).
    func lateStatuses(_ m: Manifest, out: String, seen: String) -> [String] {
        var list = [seen]
        let from = (m.times["work-done"] ?? 0) - 1
        for line in (Proc.readFile(out + "/journal.txt") ?? "").split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                  let t = line[line.index(after: line.startIndex)..<close].split(separator: " ").first.flatMap({ Double($0) }), t >= from,
                  let r = line.range(of: "systemd[1]: ") else { continue }
            let rest = line[r.upperBound...]
            guard rest.hasPrefix("Started ") || rest.hasPrefix("Finished ") else { continue }
            let unit = rest.drop { $0 != " " }.dropFirst().prefix { $0 != " " }
            if [".service", ".mount", ".swap"].contains(where: { unit.hasSuffix($0) }) { list.append("Starting \(unit)…") }
        }
        var seenSet: Set<String> = []
        return list.filter { seenSet.insert($0).inserted }
    }

    func logTimes(_ m: Manifest, harness: String) {
        var m = m
        // (Anywhere in a line: the console printed before it may end without a newline.)
        if let r = harness.range(of: "run-in-vm: guest uptime at:") {
            let f = harness[r.upperBound...].prefix { $0 != "|" && $0 != "\n" }.split(separator: " ").map(String.init)
            for i in stride(from: 0, to: f.count - 1, by: 2) { if let v = Double(f[i + 1]) { m.times["vm-" + f[i]] = v } }
        }
        func t(_ k: String) -> String { m.times[k].map { String(format: "%.2f s", $0) } ?? "?" }
        func d(_ a: String, _ b: String) -> String {
            guard let x = m.times[a], let y = m.times[b] else { return "?" }
            return String(format: "%+.2f s", y - x)
        }
        let exec = m.values["first-frame-exec-ms"].map { String(format: "%.0f ms", $0) } ?? "?"
        print("[boot] kernel start → the harness's /init at \(t("vm-init")), its set-up (setup.sh) \(d("vm-cmd-start", "vm-cmd-end")) → " +
              "systemd as PID 1 at \(t("systemd")) (its generators done at \(t("generators-done")), the units loaded at \(t("units-loaded")), " +
              "kiosk-hud.socket listening at \(t("socket-listening"))) → udev's coldplug trigger done at \(t("udev-trigger-done")) → " +
              "kiosk-hud.service exec at \(t("daemon-exec")) → " +
              "HUD first frame on screen at \(t("first-frame")) (the daemon's at_s; exec_ms=\(exec); its log line in the journal at \(t("first-frame-logged"))) → " +
              "READY=1 (the unit active) at \(t("daemon-ready")) → sysinit.target reached at \(t("sysinit-target")), " +
              "\(d("first-frame", "sysinit-target")) after the first frame; " +
              "systemd start → first frame \(d("systemd", "first-frame")) (TCG guest on a shared host: compare, do not quote)")
        print("[boot] boot → handover: basic.target at \(t("basic-target")); the app's stand-in dependencies done at \(t("work-done")); " +
              "kiosk-hud-quit.service started at \(t("handover-start")), the daemon exited \(d("handover-start", "daemon-ended")) later, " +
              "the handover done \(d("handover-start", "handover-done")); kiosk-app exec \(d("handover-done", "app-exec")) after it (the test's screendump between), " +
              "master at \(t("app-master")), its first picture at \(t("app-drawn")) (after the test's screendump); the boot finished at \(t("boot-finished"))")
        print("[boot] the HUD was on screen from \(t("first-frame")) to the app's picture at \(t("app-drawn")): " +
              "\(d("first-frame", "app-drawn")); kernel start → handover done \(t("handover-done")); " +
              "first frame at \(m.times["first-frame"].flatMap { f in m.times["boot-finished"].map { String(format: "%.0f %%", 100 * f / $0) } } ?? "?") of the boot (kernel start → finished)")
    }

    /// The stand-in kiosk app (Tests/VM/ref/kiosk-app.c) built into `dir`; nil, the issue
    /// recorded as `suite`'s, when gcc fails (the boot and shutdown suites' app).
    static func kioskApp(in dir: String, suite: String) -> String? {
        let app = dir + "/kiosk-app"
        let gcc = Proc.run(["sh", "-c", "gcc -O2 -Wall -Wextra -o '\(app)' '\(Proc.root)/Tests/VM/ref/kiosk-app.c' $(pkg-config --cflags --libs libdrm)"])
        guard gcc.status == 0 else {
            if let issue = VMGate.cannotRun(suite, "gcc kiosk-app.c failed: \(gcc.err)") { Issue.record(Comment(rawValue: issue)) }
            return nil
        }
        return app
    }

    /// mkdtemp with a full template.
    static func makeDirectory(_ template: String) -> String {
        var t = Array(template.utf8CString)
        return t.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
}

/// What the guest listed in $VM_OUT/manifest: "shot<TAB>FILE<TAB>T[<TAB>FIELD…]", "time NAME
/// SECONDS" and "value NAME NUMBER" (tabs or spaces), "end".
struct Manifest {
    struct Shot { var file: String, time: String, fields: [String] }
    var shots: [Shot] = []
    var times: [String: Double] = [:]
    var values: [String: Double] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("shot\t") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                if f.count >= 3 { shots.append(Shot(file: f[1], time: f[2], fields: Array(f.dropFirst(3)))) }
                continue
            }
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard f.count == 3, let v = Double(f[2]) else { continue }
            if f[0] == "time" { times[f[1]] = v } else if f[0] == "value" { values[f[1]] = v }
        }
    }
}
