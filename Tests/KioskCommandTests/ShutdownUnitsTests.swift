// The shutdown screens (dist/systemd/kiosk-hud-{poweroff,reboot,halt,kexec}.service), as
// Debian's plymouth-{poweroff,reboot,halt,kexec}.service: each unit's lines, the shutdown
// transactions verified by systemd-analyze with the units enabled (no ordering cycle, nothing
// that waits for the daemon), and `daemon --plymouth-mode` run the way the units run it (argv[0]
// @kiosk-hud). The shutdown itself, under QEMU, is VMShutdownTests' (KioskDRMTests).
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct ShutdownUnitsTests {
    static let dist = Proc.root + "/dist/systemd"

    /// (unit, the target that wants it, the Plymouth mode it shows, the unit that ends the boot).
    static let screens: [(unit: String, target: String, mode: String, end: String)] = [
        ("kiosk-hud-poweroff.service", "poweroff.target", "shutdown", "systemd-poweroff.service"),
        ("kiosk-hud-reboot.service", "reboot.target", "reboot", "systemd-reboot.service"),
        ("kiosk-hud-halt.service", "halt.target", "shutdown", "systemd-halt.service"),
        ("kiosk-hud-kexec.service", "kexec.target", "reboot", "systemd-kexec.service"),
    ]

    static func lines(_ unit: String) throws -> [Substring] {
        try readSmallFile(dist + "/" + unit, limit: 1 << 16).split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// Each screen: no default dependencies (not stopped by shutdown.target, nothing waits for
    /// sysinit.target), started before the unit that ends the boot and after those that hold the
    /// display, Type=exec (the start job ends at the exec: the shutdown never waits for a frame),
    /// no input,
    /// argv[0] @kiosk-hud (spared by systemd-shutdown's killing spree), --retain with
    /// KillMode=mixed and SendSIGKILL=no (a SIGTERM leaves the frame, its keeper lives), the
    /// boot splash and its socket stopped first; wanted by its target.
    @Test func eachScreenIsPlymouthsShutdownUnitsWay() throws {
        for s in Self.screens {
            let lines = try Self.lines(s.unit)
            for line in ["DefaultDependencies=no", "Before=\(s.end)", "Type=exec", "Conflicts=kiosk-hud.service kiosk-hud.socket",
                         "After=kiosk-hud.service kiosk-hud-progress.service kiosk-hud.socket kiosk-hud-quit.service",
                         "After=kiosk-app.service display-manager.service getty@tty1.service",
                         "ExecStart=@/usr/bin/kiosk-hud @kiosk-hud daemon --plymouth-mode \(s.mode) --retain --no-input --idle-after-first-frame $KIOSK_HUD_PLYMOUTH $KIOSK_HUD_ARGS",
                         "EnvironmentFile=-/etc/default/kiosk-hud", "KillMode=mixed", "SendSIGKILL=no", "WantedBy=\(s.target)",
                         "ConditionKernelCommandLine=!kiosk-hud.enable=0", "ConditionKernelCommandLine=!nosplash"] {
                #expect(lines.contains { $0 == line }, "\(s.unit) has no line \(line)")
            }
            #expect(!lines.contains { $0.hasPrefix("Requires=") || $0.hasPrefix("Wants=") || $0.hasPrefix("ExecStartPre=") || $0.hasPrefix("ExecStartPost=") },
                    "\(s.unit): nothing may come before or after the exec")
        }
        // Nothing of ours is ordered after a screen: nobody waits for the daemon.
        for u in BootUnitsTests.units() {
            let text = try readSmallFile(Self.dist + "/" + u.file, limit: 1 << 16)
            for line in text.split(separator: "\n") where line.hasPrefix("After=") {
                for s in Self.screens { #expect(!line.contains(s.unit), "\(u.file) is ordered after \(s.unit)") }
            }
        }
    }

    /// The four shutdown transactions, as systemd sees them: on a temporary root with the units
    /// installed and `systemctl enable kiosk-hud.service` done (Also= links the screens),
    /// `systemd-analyze verify` of each target and screen passes with nothing printed (an
    /// ordering cycle, a bad line or a missing program would be printed), and each target wants
    /// its screen.
    @Test func theShutdownTransactionsVerify() throws {
        guard Proc.executable("systemd-analyze") else {
            Issue.record("systemd-analyze is missing: install the systemd package (README's Quick start)"); return
        }
        let root = Proc.makeTempDir("kiosk-verify-shutdown")
        defer { _ = Proc.run(["rm", "-rf", root]) }
        var script = """
            \(BootUnitsTests.installedSystem(at: root))

            """
        for u in BootUnitsTests.units() { script += "cp '\(Self.dist)/\(u.file)' etc/systemd/system/\(u.name)\n" }
        script += "systemctl --root='\(root)' enable kiosk-hud.service kiosk-app.service >/dev/null 2>&1\n"
        let made = Proc.run(["sh", "-c", script])
        #expect(made.status == 0, "making the root: \(made.err)")
        for s in Self.screens {
            #expect(readLink(root + "/etc/systemd/system/\(s.target).wants/\(s.unit)") == "/etc/systemd/system/\(s.unit)", "\(s.target) does not want \(s.unit)")
        }
        let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)"] + Self.screens.flatMap { [$0.unit, $0.target] })
        #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "systemd-analyze verify: status \(r.status)\n\(r.out)\(r.err)")
    }

    /// `daemon --plymouth-mode reboot` as the units start it — argv[0] @kiosk-hud (what
    /// systemd-shutdown looks at: /proc/PID/cmdline), --retain, --idle-after-first-frame — without
    /// Plymouth's socket: the profile's reboot look replaces --label and --mode; once its first
    /// frame is drawn every thread of it is at nice 19; a SIGTERM ends it with 0.
    @Test func theUnitsDaemonShowsTheModesLook() throws {
        let dir = Proc.makeTempDir("kiosk-shutdown-mode")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let socket = dir + "/c.sock"
        guard let pid = Proc.spawn(["bash", "-c", "exec -a @kiosk-hud \"$@\"", "bash", Proc.kioskHUD, "daemon", "--plymouth-mode", "reboot", "--retain",
                                    "--offscreen", dir, "--no-input", "--idle-after-first-frame", "--socket", socket, "--mode", "bar", "--label", "Starting up"],
                                   stderr: dir + "/d.err") else {
            Issue.record("cannot start the daemon"); return
        }
        let up = waitForDaemon(socket: socket)
        #expect(up, "the daemon did not answer: \(Proc.readFile(dir + "/d.err") ?? "")")
        let cmdline = Proc.readFile("/proc/\(pid)/cmdline") ?? ""
        #expect(cmdline.hasPrefix("@kiosk-hud\0daemon\0"), "argv: \(cmdline.split(separator: "\0"))")
        let status = Proc.run([Proc.kioskHUD, "ctl", "status", "--socket", socket]).out
        #expect(status.contains("\"content\":{\"mode\":\"indeterminate\",\"progress\":0,\"label\":\"Restarting…\""), "\(status)")
        // Field 19 of /proc/PID/task/TID/stat is the thread's nice value (after the parenthesised name).
        let nices = Proc.run(["sh", "-c", "for t in /proc/\(pid)/task/*/stat; do sed 's/.*) //' \"$t\" | cut -d' ' -f17; done"]).out
            .split(separator: "\n").map(String.init)
        #expect(!nices.isEmpty && nices.allSatisfy { $0 == "19" }, "the threads' nice values after the first frame: \(nices)")
        #expect(Proc.readFile(dir + "/d.err")?.contains("the first frame is on screen: the rest at nice 19") == true, "\(Proc.readFile(dir + "/d.err") ?? "")")
        kill(pid, SIGTERM)
        #expect(Proc.wait(pid) == 0, "\(Proc.readFile(dir + "/d.err") ?? "")")
    }

    /// A mode that Plymouth does not have is refused at once, naming the ones it has.
    @Test func anUnknownModeIsRefused() {
        let r = Proc.run([Proc.kioskHUD, "daemon", "--plymouth-mode", "sideways", "--offscreen", "-", "--no-input", "--socket", "/nonexistent/c.sock"])
        #expect(r.status == 64, "\(r.err)")
        #expect(r.err.contains("--plymouth-mode") && r.err.contains("boot-up") && r.err.contains("shutdown") && r.err.contains("reboot"), "\(r.err)")
    }
}
