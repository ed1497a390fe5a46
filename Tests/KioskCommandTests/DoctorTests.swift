// `kiosk-hud doctor` as a user runs it, on made-up systems: a directory standing for / (--root)
// with a device tree and /sys, /etc/default/kiosk-hud and a board profile, an initramfs made
// with cpio, the boot units (dist/systemd on the host's systemd units, as BootUnitsTests
// verifies them), a display manager. A good Raspberry Pi 4 with the 7" DSI panel passes every
// check; each check fails (or warns) on the system made bad in one way.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct DoctorTests {
    static let kernel = "6.12.25+rpt-rpi-v8"
    static let modules = ["vc4", "tc358762", "panel-simple"]

    /// A Pi 4 with the 7" panel on DSI-1, as Raspberry Pi OS has it once the theme and the
    /// package are in: everything in order unless a change below says otherwise.
    final class System {
        let m = Machines.pi4TouchDisplay()
        var root: String { m.root }
        /// The initramfs's files (paths under /), and what the real system has.
        var initramfs = ["/usr/bin/kiosk-hud", "/etc/kiosk-hud/initramfs-program", "/etc/default/kiosk-hud", "/etc/kiosk-hud/pictures/logo.png"]
            + DoctorTests.modules.map { "/usr/lib/modules/\(DoctorTests.kernel)/kernel/drivers/gpu/drm/\($0).ko.xz" }

        init() {
            m.file("/proc/sys/kernel/osrelease", DoctorTests.kernel + "\n")
            m.file("/boot/firmware/config.txt", "# Raspberry Pi OS\ndtoverlay=vc4-kms-v3d\ndisplay_auto_detect=1\nauto_initramfs=1\n[all]\n")
            m.file("/etc/default/kiosk-hud", "KIOSK_HUD_ARGS=\"--mode bar --label 'Starting up'\"\n")
            // A profile of the user's own for the panel: more specific than none, tied with the
            // shipped one and taken before it (yours first).
            m.userProfile("kiosk-dsi", """
                name = "kiosk-dsi"
                [match]
                compatible = ["raspberrypi,4-model-b"]
                connector = ["DSI-1"]
                mode = ["800x480"]
                [display]
                switch = "vc4"
                modules = ["vc4", "tc358762", "panel-simple"]
                [style]
                logo = "/etc/kiosk-hud/pictures/logo.png"

                """)
            m.file("/etc/kiosk-hud/pictures/logo.png", "not read by doctor\n")
            for mod in DoctorTests.modules { m.file("/sys/module/\(mod.replacing("-", with: "_"))/refcnt", "1\n") }
            // The units, installed as the package installs them, on the host's systemd units.
            var script = BootUnitsTests.installedSystem(at: root) + "\n"
            for u in BootUnitsTests.units() { script += "cp '\(BootUnitsTests.dist)/systemd/\(u.file)' etc/systemd/system/\(u.name)\n" }
            // lightdm as display manager, ordered after the handover by a drop-in.
            script += "ln -s /usr/lib/systemd/system/lightdm.service etc/systemd/system/display-manager.service\n"
            script += "mkdir -p etc/systemd/system/display-manager.service.d\n"
            script += "printf '[Unit]\\nAfter=kiosk-hud-quit.service\\n' > etc/systemd/system/display-manager.service.d/kiosk-hud.conf\n"
            let r = Proc.run(["sh", "-c", script])
            precondition(r.status == 0, "making the system: \(r.err)")
        }

        /// /boot/firmware/initramfs8 made of `initramfs` (gzip'd newc cpio, as mkinitramfs makes it).
        func buildInitramfs(at path: String = "/boot/firmware/initramfs8") {
            let stage = Proc.makeTempDir("kiosk-doctor-initramfs")
            defer { _ = Proc.run(["rm", "-rf", stage]) }
            var script = "set -e; cd '\(stage)'\n"
            for f in initramfs { script += "mkdir -p \".$(dirname '\(f)')\"; echo x > '.\(f)'\n" }
            script += "mkdir -p \"$(dirname '\(root + path)')\"; find . | cpio -o -H newc 2>/dev/null | gzip > '\(root + path)'\n"
            let r = Proc.run(["sh", "-c", script])
            precondition(r.status == 0, "making the initramfs: \(r.err)")
        }

        func doctor() -> (status: Int32, lines: [String], out: String) {
            let r = Proc.run(["timeout", "60", Proc.kioskHUD, "doctor", "--root", root])
            return (r.status, r.out.split(separator: "\n").map(String.init), r.out + r.err)
        }
    }

    static func toolsPresent() -> Bool {
        for tool in ["lsinitramfs", "systemd-analyze", "cpio", "gzip"] where !Proc.executable(tool) {
            Issue.record("\(tool) is missing: install initramfs-tools-core, systemd, cpio and gzip (README's Quick start)")
            return false
        }
        return true
    }

    @Test func aGoodPiPassesEveryCheck() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.buildInitramfs()
        let r = s.doctor()
        #expect(r.status == 0, "\(r.out)")
        #expect(!r.lines.contains { $0.hasPrefix("fail") || $0.hasPrefix("warn") }, "\(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("ok    board: kiosk-dsi (\(s.root)/etc/kiosk-hud/boards/kiosk-dsi.toml): detected") && $0.contains("needs the display") }, "\(r.out)")
        #expect(r.lines.contains("ok    initramfs: kiosk-hud is in /boot/firmware/initramfs8 (/boot/firmware/config.txt: auto_initramfs=1, kernel \(Self.kernel))"), "\(r.out)")
        #expect(r.lines.contains("ok    initramfs: pictures in it: the logo ([style] logo) /etc/kiosk-hud/pictures/logo.png"), "\(r.out)")
        #expect(r.lines.contains("ok    initramfs: the display's modules in it (or built in): vc4, tc358762 and panel-simple"), "\(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("ok    units: systemd-analyze verify kiosk-hud.service, kiosk-hud.socket and kiosk-hud-quit.service") }, "\(r.out)")
        #expect(r.lines.contains("ok    handover: lightdm.service (display-manager.service) starts after kiosk-hud-quit.service (/etc/systemd/system/display-manager.service.d/kiosk-hud.conf)"), "\(r.out)")
        #expect(r.lines.contains("ok    display: card1 (vc4-drm): DSI-1 connected, HDMI-A-1 disconnected, HDMI-A-2 disconnected, Writeback-1 unknown"), "\(r.out)")
        #expect(r.lines.contains("ok    display: the display's modules are loaded: vc4, tc358762 and panel-simple"), "\(r.out)")
        #expect(r.lines.last?.hasSuffix(" 0 warnings, 0 failed") == true, "\(r.out)")
    }

    @Test func noKioskHUDInTheInitramfsFails() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.initramfs.removeAll { $0.contains("kiosk-hud") }
        s.buildInitramfs()
        var r = s.doctor()
        #expect(r.status == 1)
        #expect(r.lines.contains("fail  initramfs: no kiosk-hud in /boot/firmware/initramfs8 (/boot/firmware/config.txt: auto_initramfs=1, kernel \(Self.kernel)) → update-initramfs -u"), "\(r.out)")
        // Beside Plymouth, the hook stays out: the line says why, and the handover line warns.
        s.m.file("/usr/sbin/plymouthd", "#!/bin/sh\n")
        r = s.doctor()
        #expect(r.lines.contains { $0.hasPrefix("fail  initramfs: no kiosk-hud in /boot/firmware/initramfs8") && $0.contains("Plymouth is installed") && $0.contains("apt purge plymouth") }, "\(r.out)")
    }

    @Test func aLogoMissingFromTheInitramfsFails() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.initramfs.removeAll { $0.hasSuffix("logo.png") }
        s.buildInitramfs()
        var r = s.doctor()
        #expect(r.status == 1)
        #expect(r.lines.contains("fail  initramfs: the logo ([style] logo) /etc/kiosk-hud/pictures/logo.png is not in the initramfs: its daemon ends at once, and the splash starts from the real root → update-initramfs -u"), "\(r.out)")
        // A logo the system has not got at all: the daemon cannot start with it anywhere.
        _ = Proc.run(["rm", s.root + "/etc/kiosk-hud/pictures/logo.png"])
        r = s.doctor()
        #expect(r.lines.contains { $0.hasPrefix("fail  initramfs: the logo ([style] logo) /etc/kiosk-hud/pictures/logo.png does not exist") }, "\(r.out)")
    }

    /// The DSI panel's module is not in the initramfs: the HUD waits for the real root (and the
    /// display check still passes: the panel is loaded now).
    @Test func aPanelModuleMissingFromTheInitramfsFails() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.initramfs.removeAll { $0.hasSuffix("/tc358762.ko.xz") }
        s.buildInitramfs()
        let r = s.doctor()
        #expect(r.status == 1)
        #expect(r.lines.contains { $0.hasPrefix("fail  initramfs: the display's module tc358762 (the board profile's [display] modules or switch) not in the initramfs") }, "\(r.out)")
        #expect(r.lines.contains("ok    display: the display's modules are loaded: vc4, tc358762 and panel-simple"), "\(r.out)")
    }

    @Test func anInitramfsOlderThanTheSettingsWarns() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.buildInitramfs()
        _ = Proc.run(["touch", "-d", "2 hours ago", s.root + "/boot/firmware/initramfs8"])
        let r = s.doctor()
        #expect(r.status == 0, "\(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("warn  initramfs: /boot/firmware/initramfs8 is older than /etc/") && $0.hasSuffix("→ update-initramfs -u") }, "\(r.out)")
    }

    /// The drop-in issue #36 found in docs/updates.md: kiosk-hud.service (before sysinit.target)
    /// ordered after a socket with default dependencies (after sysinit.target).
    @Test func anOrderingCycleFails() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.buildInitramfs()
        s.m.file("/etc/systemd/system/swupdate.socket", "[Unit]\nDescription=SWUpdate socket\n[Socket]\nListenStream=/run/swupdate/sockinstctrl\n[Install]\nWantedBy=sockets.target\n")
        s.m.file("/etc/systemd/system/swupdate.service", "[Unit]\nDescription=SWUpdate\n[Service]\nExecStart=/usr/bin/systemctl --version\n")
        s.m.file("/etc/systemd/system/kiosk-hud.service.d/swupdate.conf", "[Unit]\nWants=swupdate.socket\nAfter=swupdate.socket\n")
        let r = s.doctor()
        #expect(r.status == 1)
        #expect(r.lines.contains { $0.hasPrefix("fail  units: systemd-analyze verify ") && $0.contains("ordering cycle") }, "\(r.out)")
    }

    @Test func plymouthAndAnUnorderedDisplayManagerWarn() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.buildInitramfs()
        s.m.file("/usr/sbin/plymouthd", "#!/bin/sh\n")
        _ = Proc.run(["rm", "-r", s.root + "/etc/systemd/system/display-manager.service.d"])
        let r = s.doctor()
        #expect(r.status == 0, "warnings do not fail: \(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("warn  handover: Plymouth is installed (/usr/sbin/plymouthd) beside kiosk-hud: two splashes") && $0.contains("→ apt purge plymouth") }, "\(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("warn  handover: lightdm.service (display-manager.service) is not ordered after kiosk-hud-quit.service") && $0.contains("After=kiosk-hud-quit.service") }, "\(r.out)")
    }

    /// The programs are run only when there: without them, a warning says what to install.
    @Test func missingProgramsWarnSayingWhatToInstall() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.buildInitramfs()
        let bin = Proc.makeTempDir("kiosk-doctor-path")
        defer { _ = Proc.run(["rm", "-rf", bin]) }
        _ = Proc.run(["ln", "-s", "/usr/bin/timeout", bin + "/timeout"])
        let r = Proc.run(["/usr/bin/env", "PATH=\(bin)", Proc.kioskHUD, "doctor", "--root", s.root])
        // (Doctor adds the sbin directories to PATH: a program there is found all the same.)
        let lines = r.out.split(separator: "\n").map(String.init)
        if !Proc.exists("/usr/sbin/lsinitramfs") && !Proc.exists("/sbin/lsinitramfs") {
            #expect(lines.contains { $0.hasPrefix("warn  initramfs: /boot/firmware/initramfs8") && $0.hasSuffix("→ apt install initramfs-tools-core (lsinitramfs)") }, "\(r.out)")
        }
        if !Proc.exists("/usr/sbin/systemd-analyze") && !Proc.exists("/sbin/systemd-analyze") {
            #expect(lines.contains { $0.hasPrefix("warn  units: not verified: systemd-analyze is missing") }, "\(r.out)")
        }
    }

    @Test func aPiWhoseFirmwareLoadsNoInitramfsWarnsAndNoDisplayFails() {
        guard Self.toolsPresent() else { return }
        let s = System()
        s.m.file("/boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\n")
        _ = Proc.run(["rm", "-r", s.root + "/sys/class/drm"])
        let r = s.doctor()
        #expect(r.status == 1)
        #expect(r.lines.contains { $0.hasPrefix("warn  initramfs: /boot/firmware/config.txt loads no initramfs") && $0.hasSuffix("→ add auto_initramfs=1 to /boot/firmware/config.txt, then update-initramfs -u") }, "\(r.out)")
        #expect(r.lines.contains { $0.hasPrefix("fail  display: no DRM card in /sys/class/drm") && $0.contains("dtoverlay=vc4-kms-v3d") }, "\(r.out)")
        // The board is not there now: the panel's profile waits for its display.
        #expect(r.lines.contains { $0.hasPrefix("warn  board: generic (built-in)") && $0.contains("kiosk-dsi") }, "\(r.out)")
    }

    /// Debian's boot loaders load /boot/initrd.img-VERSION.
    @Test func onDebianTheRunningKernelsInitramfsIsChecked() {
        guard Self.toolsPresent() else { return }
        let s = System()
        _ = Proc.run(["rm", s.root + "/boot/firmware/config.txt"])
        s.m.file("/proc/sys/kernel/osrelease", "6.1.0-18-arm64\n")
        s.buildInitramfs(at: "/boot/initrd.img-6.1.0-18-arm64")
        let r = s.doctor()
        #expect(r.lines.contains("ok    initramfs: kiosk-hud is in /boot/initrd.img-6.1.0-18-arm64 (the running kernel's)"), "\(r.out)")
    }

    @Test func piInitramfsNames() {
        // As raspi-firmware's hook names the firmware's copy.
        let names = ["6.12.25+rpt-rpi-v8": "initramfs8", "6.12.25+rpt-rpi-2712": "initramfs_2712", "6.6.51+rpt-rpi-v7l": "initramfs7l",
                     "6.6.51+rpt-rpi-v7": "initramfs7"]
        for (kernel, name) in names {
            let s = System()
            s.m.file("/proc/sys/kernel/osrelease", kernel + "\n")
            s.buildInitramfs(at: "/boot/firmware/" + name)
            let r = Proc.run([Proc.kioskHUD, "doctor", "--root", s.root])
            #expect(r.out.contains("initramfs: kiosk-hud is in /boot/firmware/\(name) (/boot/firmware/config.txt: auto_initramfs=1, kernel \(kernel))"), "\(kernel): \(r.out)")
        }
    }
}
