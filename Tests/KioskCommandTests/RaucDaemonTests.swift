// kiosk-hud daemon --rauc with Debian 12's own RAUC: a private system bus (its own dbus-daemon,
// RAUC's policy), `rauc service` with file-backed slots and the noop bootloader, bundles made
// and signed here with a key made here; the daemon offscreen follows each installation.
import Glibc
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct RaucDaemonTests {
    /// Why RAUC cannot run here, or nil: it needs root (loop mounts of the bundle, the slots)
    /// and Debian's rauc, dbus-daemon and mksquashfs (installed when missing, as on a fresh
    /// Debian 12 CI machine).
    static func unavailable() -> String? {
        guard getuid() == 0 else { return "not root: rauc mounts bundles on loop devices" }
        guard Proc.exists("/dev/loop-control") else { return "no /dev/loop-control: rauc cannot mount a bundle here" }
        let tools = ["rauc", "dbus-daemon", "mksquashfs", "openssl"]
        if !tools.allSatisfy(Proc.executable) {
            _ = Proc.run(["apt-get", "install", "-y", "-q", "rauc", "dbus", "squashfs-tools", "openssl"], env: ["DEBIAN_FRONTEND": "noninteractive"])
        }
        let missing = tools.filter { !Proc.executable($0) }
        return missing.isEmpty ? nil : "missing \(missing.joined(separator: ", ")) (apt-get install rauc dbus squashfs-tools openssl failed)"
    }

    /// A private bus, a RAUC service, a kiosk-hud daemon following it; removed at the end.
    final class Rig {
        let dir: String
        var bus: pid_t?
        var service: pid_t?
        var daemon: pid_t?
        var mounts = 0
        var address: String { "unix:path=\(dir)/bus.sock" }
        var env: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

        init() { dir = Proc.makeTempDir("kiosk-rauc") }

        func write(_ name: String, _ text: String) {
            // (Optional in Swift 6.0's Glibc, not in 6.3's: bound either way.)
            let file: UnsafeMutablePointer<FILE>? = fopen(dir + "/" + name, "w")
            guard let f = file else { Issue.record("cannot write \(name)"); return }
            fputs(text, f)
            fclose(f)
        }

        func sh(_ script: String) -> (status: Int32, out: String, err: String) { Proc.run(["sh", "-c", script]) }

        /// Keys, slots, system.conf (a pre-install handler that waits while `hold` exists),
        /// the bus's configuration (RAUC's policy: anyone may talk to it, root may own it).
        func prepare() -> Bool {
            write("bus.conf", """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>system</type>
                  <listen>\(address)</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow user="*"/>
                    <allow send_destination="*"/>
                    <allow receive_sender="*"/>
                    <allow send_destination="de.pengutronix.rauc"/>
                  </policy>
                  <policy user="root">
                    <allow own="de.pengutronix.rauc"/>
                  </policy>
                </busconfig>

                """)
            write("hold.sh", "#!/bin/sh\n[ -e \(dir)/hold ] || exit 0\n: > \(dir)/in-handler\nwhile [ -e \(dir)/hold ]; do sleep 0.05; done\n")
            write("system.conf", """
                [system]
                compatible=kiosk-test
                bootloader=noop
                data-directory=\(dir)/data

                [keyring]
                path=\(dir)/cert.pem

                [handlers]
                pre-install=\(dir)/hold.sh

                [slot.rootfs.0]
                device=\(dir)/slot0.img
                type=raw
                bootname=A

                [slot.rootfs.1]
                device=\(dir)/slot1.img
                type=raw
                bootname=B

                """)
            let made = sh("""
                set -e; cd \(dir); chmod +x hold.sh; mkdir -p data bundle
                printf '[update]\\ncompatible=kiosk-test\\nversion=1.0\\n\\n[image.rootfs]\\nfilename=rootfs.img\\n' > bundle/manifest.raucm
                head -c 300000 /dev/urandom > bundle/rootfs.img
                truncate -s 1M slot0.img slot1.img
                openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj /CN=kiosk-test -days 2
                openssl req -x509 -newkey rsa:2048 -nodes -keyout other.pem -out other-cert.pem -subj /CN=stranger -days 2
                rauc bundle --cert=cert.pem --key=key.pem bundle good.raucb
                rauc bundle --cert=other-cert.pem --key=other.pem bundle bad.raucb
                """)
            if made.status != 0 { Issue.record("preparing RAUC's files: \(made.err)") }
            return made.status == 0
        }

        func startBus() -> Bool {
            bus = Proc.spawn(["dbus-daemon", "--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"], stderr: dir + "/bus.err")
            return waitUntil { Proc.exists(self.dir + "/bus.sock") }
        }

        /// `rauc service` with its own mount prefix each time (a killed one leaves its bundle mounted).
        func startService() {
            mounts += 1
            mkdir("\(dir)/mnt\(mounts)", 0o755)
            service = Proc.spawn(["rauc", "-c", dir + "/system.conf", "--mount=\(dir)/mnt\(mounts)", "service", "--override-boot-slot=A"],
                                 env: env, stderr: "\(dir)/service\(mounts).err")
        }

        func killService() {
            guard let s = service else { return }
            kill(s, SIGKILL)
            _ = Proc.wait(s)
            service = nil
        }

        func ctl(_ args: [String]) -> (status: Int32, out: String, err: String) {
            Proc.run([Proc.kioskHUD, "ctl"] + [args[0], "--socket", dir + "/c.sock"] + args.dropFirst())
        }

        func status() -> String { ctl(["status"]).out }

        /// Waits (up to 30 s) until `status` has every one of `parts` (an issue if it never
        /// does); the last status.
        @discardableResult
        func waitForStatus(_ parts: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String {
            var last = ""
            let seen = waitUntil { last = self.status(); return parts.allSatisfy { last.contains($0) } }
            if !seen { Issue.record("status never had \(parts.filter { !last.contains($0) }): \(last)", sourceLocation: sourceLocation) }
            return last
        }

        func install(_ bundle: String) -> (status: Int32, out: String, err: String) {
            Proc.run(["rauc", "install", dir + "/" + bundle], env: env)
        }

        /// `rauc install` in the background (its exit status from `Proc.wait`).
        func startInstall(_ bundle: String) -> pid_t? {
            Proc.spawn(["rauc", "install", dir + "/" + bundle], env: env, stderr: dir + "/install.err")
        }

        func close() {
            unlink(dir + "/hold")
            if let d = daemon { kill(d, SIGKILL); _ = Proc.wait(d) }
            killService()
            if let b = bus { kill(b, SIGTERM); _ = Proc.wait(b) }
            for i in 0...max(mounts, 1) { _ = Proc.run(["umount", "-l", "\(dir)/mnt\(i)/bundle"]) }
            _ = Proc.run(["rm", "-rf", dir])
        }
    }

    /// A rig with the bus, the daemon following RAUC on $DBUS_SYSTEM_BUS_ADDRESS (bare
    /// --rauc; started before the service is there) and the service; nil (and why printed or
    /// recorded) when RAUC cannot run here.
    static func started() -> Rig? {
        if let why = Self.unavailable() {
            print("RaucDaemonTests skipped: \(why)")
            return nil
        }
        let rig = Rig()
        guard rig.prepare(), rig.startBus() else {
            Issue.record("no private bus: \(Proc.readFile(rig.dir + "/bus.err") ?? "")")
            rig.close()
            return nil
        }
        rig.daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", rig.dir, "--no-input", "--socket", rig.dir + "/c.sock",
                                 "--rauc", "--animation-duration", "0"], env: rig.env, stderr: rig.dir + "/d.err")
        #expect(waitForDaemon(socket: rig.dir + "/c.sock"))
        rig.waitForStatus(["\"bus\":true", "\"service\":false"])
        rig.startService()
        let s = rig.waitForStatus(["\"service\":true", "\"operation\":\"idle\""])
        #expect(s.contains("\"source\":\"control\""), "\(s)")
        return rig
    }

    /// The daemon quits; its last frame is render's with `args`.
    static func lastFrameIsRenders(_ rig: Rig, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(rig.ctl(["quit"]).status == 0, sourceLocation: sourceLocation)
        if let d = rig.daemon { #expect(Proc.wait(d) == 0, sourceLocation: sourceLocation) }
        rig.daemon = nil
        let r = Proc.run([Proc.kioskHUD, "render"] + args + ["--out", rig.dir + "/ref.png"])
        #expect(r.status == 0, "\(r.err)", sourceLocation: sourceLocation)
        let last = try PNG.read(path: rig.dir + "/last.png"), ref = try PNG.read(path: rig.dir + "/ref.png")
        #expect(last.width == ref.width && last.rgba == ref.rgba, "the daemon's last frame differs from render \(args)", sourceLocation: sourceLocation)
    }

    @Test func installationsAreFollowedThroughTheServiceComingAndGoing() throws {
        guard let rig = Self.started() else { return }
        defer { rig.close() }
        var s = ""

        // A good bundle: through RAUC's steps (held in the pre-install handler: the bar at
        // RAUC's 80 %, its step) to "Installed".
        rig.write("hold", "")
        let first = rig.startInstall("good.raucb")
        #expect(waitUntil { Proc.exists(rig.dir + "/in-handler") })
        s = rig.waitForStatus(["\"progress\":0.8", "\"source\":\"rauc\""])
        #expect(s.contains("\"mode\":\"bar\"") && s.contains("\"label\":\"Installing\"") && s.contains("\"button\":\"\"")
                && s.contains("\"operation\":\"installing\"") && s.contains("\"visible\":true"), "\(s)")
        unlink(rig.dir + "/hold"); unlink(rig.dir + "/in-handler")
        let installed = first.map(Proc.wait)
        #expect(installed == 0, "\(Proc.readFile(rig.dir + "/install.err") ?? "")")
        s = rig.waitForStatus(["\"mode\":\"success\"", "\"label\":\"Installed\""])
        #expect(s.contains("\"source\":\"control\""), "\(s)")

        // A bundle signed by a key the keyring does not trust: the failure notice with LastError.
        let bad = rig.install("bad.raucb")
        #expect(bad.status != 0)
        s = rig.waitForStatus(["\"mode\":\"error\"", "\"label\":\"Update failed: signature verification failed"])
        #expect(s.contains("\"visible\":true"), "\(s)")

        // The service killed mid-install: the daemon stays, with the last state and a note.
        rig.write("hold", "")
        let held = rig.startInstall("good.raucb")
        #expect(waitUntil { Proc.exists(rig.dir + "/in-handler") })
        rig.waitForStatus(["\"progress\":0.8", "\"source\":\"rauc\""])
        rig.killService()
        unlink(rig.dir + "/hold")
        if let h = held { _ = Proc.wait(h) }
        s = rig.waitForStatus(["\"details\":\"The update service has stopped; waiting for it…\"", "\"service\":false"])
        #expect(s.contains("\"mode\":\"bar\"") && s.contains("\"progress\":0.8") && s.contains("\"source\":\"rauc\""), "\(s)")
        #expect(rig.ctl(["ping"]).status == 0)

        // Back: idle, so that installation was interrupted; then followed again to "Installed".
        rig.startService()
        s = rig.waitForStatus(["\"service\":true", "\"label\":\"Update interrupted\""])
        #expect(s.contains("\"mode\":\"error\"") && s.contains("\"source\":\"control\""), "\(s)")
        let again = rig.install("good.raucb")
        #expect(again.status == 0, "\(again.err)")
        rig.waitForStatus(["\"mode\":\"success\"", "\"label\":\"Installed\""])

        // The last frame is render's success notice.
        try Self.lastFrameIsRenders(rig, ["--mode", "success", "--label", "Installed"])
        let err = Proc.readFile(rig.dir + "/d.err") ?? ""
        #expect(err.contains("rauc: de.pengutronix.rauc left the bus during an installation; the last state stays until it is back"), "\(err)")
    }

    /// The picture of a step (RAUC's 80 %, held in the pre-install handler), and of the same
    /// state kept with the note once the service is killed, are render's of those states.
    @Test func aStepAndTheNoteOnScreenAreRenders() throws {
        guard let rig = Self.started() else { return }
        defer { rig.close() }
        rig.write("hold", "")
        let held = rig.startInstall("good.raucb")
        #expect(waitUntil { Proc.exists(rig.dir + "/in-handler") })
        rig.waitForStatus(["\"progress\":0.8", "\"label\":\"Installing\"", "\"mode\":\"bar\""])
        rig.killService()
        unlink(rig.dir + "/hold")
        if let h = held { _ = Proc.wait(h) }
        let note = "The update service has stopped; waiting for it…"
        rig.waitForStatus(["\"details\":\"\(note)\""])
        try Self.lastFrameIsRenders(rig, ["--mode", "bar", "--progress", "0.8", "--label", "Installing", "--details", note])
    }

    /// The bus itself going away (dbus-daemon ended, RAUC with it): the daemon stays, connects
    /// again when a bus is back at the address, and follows RAUC there.
    @Test func aBusThatComesBackIsFollowedAgain() throws {
        guard let rig = Self.started() else { return }
        defer { rig.close() }
        if let b = rig.bus { kill(b, SIGTERM); _ = Proc.wait(b) }
        rig.bus = nil
        rig.killService()
        rig.waitForStatus(["\"bus\":false", "\"service\":false"])
        unlink(rig.dir + "/bus.sock")
        #expect(rig.startBus())
        rig.waitForStatus(["\"bus\":true"])
        rig.startService()
        rig.waitForStatus(["\"service\":true"])
        let installed = rig.install("good.raucb")
        #expect(installed.status == 0, "\(installed.err)")
        rig.waitForStatus(["\"mode\":\"success\"", "\"label\":\"Installed\""])
        let err = Proc.readFile(rig.dir + "/d.err") ?? ""
        #expect(err.contains("kiosk-hud: rauc: the bus connection ended ("), "\(err)")
    }
}
