// The boot integration (dist/systemd) and `kiosk-hud ctl follow-boot`, against the
// built kiosk-hud and Debian 12's systemd 252 (the `systemd` package: README's Quick start):
// systemd-analyze verify on every unit; follow-boot without a bus; and a boot played by a real
// systemd manager — the units themselves, the follower's bar, the handover.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct BootUnitsTests {
    static let dist = Proc.root + "/dist"

    /// The unit files of dist/systemd as (file, unit name): `.example` files are units too,
    /// without that suffix.
    static func units() -> [(file: String, name: String)] {
        Proc.run(["ls", dist + "/systemd"]).out.split(separator: "\n").map(String.init).compactMap { f in
            let name = f.hasSuffix(".example") ? String(f.dropLast(8)) : f
            return name.hasSuffix(".service") || name.hasSuffix(".socket") ? (f, name) : nil
        }
    }

    /// Shell that makes `root` an installed system in small, for `systemd-analyze verify --root`:
    /// the host's systemd units, kiosk-hud (the one this test run built) in /usr/bin, systemctl,
    /// a stand-in /usr/local/bin/kiosk-app (the boot units' and the shutdown units' suites).
    static func installedSystem(at root: String) -> String {
        """
        set -e; cd '\(root)'; mkdir -p etc/systemd/system usr/bin usr/local/bin usr/lib/systemd; ln -s usr/bin bin
        cp -a /usr/lib/systemd/system usr/lib/systemd/
        cp '\(Proc.kioskHUD)' usr/bin/kiosk-hud; cp "$(command -v systemctl)" usr/bin/systemctl; cp "$(command -v sh)" usr/bin/sh
        printf '#!/bin/sh\\n' > usr/local/bin/kiosk-app; chmod +x usr/local/bin/kiosk-app
        """
    }

    /// `sh -c script`, failing the test with its output when it does not exit 0.
    @discardableResult
    func sh(_ script: String, _ what: String) -> (status: Int32, out: String, err: String) {
        let r = Proc.run(["sh", "-c", script])
        #expect(r.status == 0, "\(what): status \(r.status)\n\(r.out)\(r.err)")
        return r
    }

    /// `systemd-analyze verify` passes on every unit: exit 0 and nothing printed — verify exits 0
    /// on unknown keys, bad values and ordering cycles too, and only says so.
    ///
    /// How it runs (systemd 252): verify checks that each Exec*= program exists (sh too, for a condition) and loads every
    /// unit a unit pulls in, so it runs with --root on a temporary root that is an installed
    /// system in small: the units as they are in /etc/systemd/system, kiosk-hud (the one this
    /// test run built) in /usr/bin as the README installs it, systemctl, a stand-in
    /// /usr/local/bin/kiosk-app for the example, and the host's systemd units (sysinit.target,
    /// multi-user.target, getty@.service …) in /usr/lib/systemd/system. Verifying the files in
    /// place, without a root, fails on the programs' paths; rewriting the paths would verify
    /// other text than the one shipped.
    @Test func everyUnitPassesSystemdAnalyzeVerify() throws {
        guard Proc.executable("systemd-analyze") else {
            Issue.record("systemd-analyze is missing: install the systemd package (README's Quick start)"); return
        }
        let units = Self.units()
        #expect(units.map(\.name).sorted() == ["kiosk-app.service", "kiosk-hud-halt.service", "kiosk-hud-kexec.service", "kiosk-hud-poweroff.service",
                                               "kiosk-hud-progress.service", "kiosk-hud-quit.service", "kiosk-hud-reboot.service",
                                               "kiosk-hud.service", "kiosk-hud.socket"])
        let root = Proc.makeTempDir("kiosk-verify")
        defer { _ = Proc.run(["rm", "-rf", root]) }
        var script = """
            \(BootUnitsTests.installedSystem(at: root))

            """
        for u in units { script += "cp '\(Self.dist)/systemd/\(u.file)' etc/systemd/system/\(u.name)\n" }
        sh(script, "making the root")
        // The manual pages the units name are the package's, not this machine's: verify leaves
        // them alone, and each is checked to be one kiosk-hud makes (`--man COMMAND`).
        let r = Proc.run(["systemd-analyze", "verify", "--man=no", "--root=\(root)"] + units.map(\.name))
        #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "systemd-analyze verify: status \(r.status)\n\(r.out)\(r.err)")
        for u in units where u.name.hasPrefix("kiosk-hud") {
            let text = Proc.readFile(Self.dist + "/systemd/" + u.file) ?? ""
            let docs = text.split(separator: "\n").filter { $0.hasPrefix("Documentation=") }
            #expect(docs.count == 1, "\(u.file): one Documentation= line")
            for word in docs.flatMap({ $0.dropFirst("Documentation=".count).split(separator: " ") }) where word.hasPrefix("man:") {
                // man:kiosk-hud-ctl(1) → kiosk-hud --man ctl
                let page = word.dropFirst("man:kiosk-hud".count).prefix { $0 != "(" }.drop { $0 == "-" }
                let m = Proc.run([Proc.kioskHUD, "--man"] + (page.isEmpty ? [] : [String(page)]))
                #expect(m.status == 0 && m.out.hasPrefix(".TH"), "\(u.file): \(word) is not a page kiosk-hud makes")
            }
        }
    }

    /// The daemon is the boot splash as plymouth-start.service is: wanted by and ordered before
    /// sysinit.target, Type=notify (ready once its first frame is on screen), waiting 8 s for a
    /// display; `systemctl enable kiosk-hud.service` (on a temporary root) links it and the
    /// follower into sysinit.target, the socket into sockets.target and the shutdown screens into
    /// the targets that end a boot (ShutdownUnitsTests), and nothing else.
    @Test func enablingTheDaemonEnablesTheSplash() throws {
        let unit = try readSmallFile(Self.dist + "/systemd/kiosk-hud.service", limit: 1 << 16)
        for line in ["DefaultDependencies=no", "Before=sysinit.target", "Type=notify", "WantedBy=sysinit.target",
                     "ExecStart=/usr/bin/kiosk-hud daemon $KIOSK_HUD_PLYMOUTH $KIOSK_HUD_ARGS"] {
            #expect(unit.split(separator: "\n").contains { $0 == line }, "kiosk-hud.service has no line \(line)")
        }
        #expect(!Proc.exists(Self.dist + "/udev/70-kiosk-hud.rules"), "the udev rule is gone: sysinit.target starts the daemon")
        let root = Proc.makeTempDir("kiosk-enable")
        defer { _ = Proc.run(["rm", "-rf", root]) }
        var script = "set -e; mkdir -p '\(root)/etc/systemd/system'\n"
        for u in Self.units() { script += "cp '\(Self.dist)/systemd/\(u.file)' '\(root)/etc/systemd/system/\(u.name)'\n" }
        script += "systemctl --root='\(root)' enable kiosk-hud.service 2>&1; cd '\(root)/etc/systemd/system' && find . -type l | sort"
        let r = sh(script, "systemctl enable")
        let links = r.out.split(separator: "\n").filter { $0.hasPrefix("./") }.map(String.init)
        #expect(links == ["./halt.target.wants/kiosk-hud-halt.service", "./kexec.target.wants/kiosk-hud-kexec.service",
                          "./poweroff.target.wants/kiosk-hud-poweroff.service", "./reboot.target.wants/kiosk-hud-reboot.service",
                          "./sockets.target.wants/kiosk-hud.socket", "./sysinit.target.wants/kiosk-hud-progress.service",
                          "./sysinit.target.wants/kiosk-hud.service"], "\(r.out)")
    }

    /// Without systemd: the daemon answers, but nothing is at the bus — exit 72 and why. Without
    /// a daemon: 69, as every verb.
    @Test func followBootWithoutABus() throws {
        let dir = Proc.makeTempDir("kiosk-follow")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let socket = dir + "/control.sock"
        let none = Proc.run([Proc.kioskHUD, "ctl", "follow-boot", "--socket", socket])
        #expect(none.status == 69)
        #expect(none.err == "Error: no kiosk-hud daemon at \(socket) (No such file or directory)\n")

        guard let daemon = Proc.spawn([Proc.kioskHUD, "daemon", "--offscreen", "-", "--no-input", "--socket", socket]) else {
            Issue.record("cannot start the daemon"); return
        }
        defer { kill(daemon, SIGTERM); _ = Proc.wait(daemon) }
        let up = waitForDaemon(socket: socket)
        #expect(up, "the daemon did not answer")
        let r = Proc.run(["timeout", "10", Proc.kioskHUD, "ctl", "follow-boot", "--socket", socket, "--bus", "unix:path=\(dir)/private"])
        #expect(r.status == 72)
        #expect(r.err == "Error: no systemd manager at unix:path=\(dir)/private (No such file or directory): follow-boot needs systemd as init\n")
        #expect(r.out.isEmpty)
    }

    /// A board without libsystemd: kiosk-hud does not link it, so the daemon runs; follow-boot,
    /// the one verb that loads it, says it is missing and exits 72. The library is hidden by
    /// mounting /dev/null over it in a private mount namespace.
    @Test func withoutLibsystemd() throws {
        #expect(!Proc.run(["ldd", Proc.kioskHUD]).out.contains("libsystemd"), "kiosk-hud links libsystemd")
        let dir = Proc.makeTempDir("kiosk-nolib")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let script = """
            lib=$(ldconfig -p | awk '/libsystemd\\.so\\.0 / {print $NF; exit}')
            [ -n "$lib" ] && mount --bind /dev/null "$lib" || exit 97
            '\(Proc.kioskHUD)' daemon --offscreen - --no-input --socket '\(dir)/s.sock' 2> '\(dir)/daemon.err' & daemon=$!
            for i in $(seq 100); do '\(Proc.kioskHUD)' ctl ping --socket '\(dir)/s.sock' 2>/dev/null && break; sleep 0.05; done
            '\(Proc.kioskHUD)' ctl follow-boot --socket '\(dir)/s.sock'; status=$?
            kill $daemon; wait $daemon; exit $status
            """
        let r = Proc.run(["timeout", "20", "unshare", "--mount", "sh", "-c", script])
        #expect(r.status == 72, "\(r.err)")
        #expect(r.err.hasPrefix("Error: cannot load libsystemd.so.0, which follow-boot needs: "), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
    }

    // MARK: A boot played by systemd

    /// What a played boot left: the files its units and steps wrote.
    struct Played {
        let dir: String
        func file(_ name: String) -> String { Proc.readFile(dir + "/" + name) ?? "" }
    }

    /// Plays a boot: systemd's own manager (a user instance, as root) in a private mount namespace
    /// with a tmpfs on /run and XDG_RUNTIME_DIR=/run, so its private bus is at
    /// /run/systemd/private and the socket unit listens at /run/kiosk-hud/control.sock, as at a
    /// real boot. The manager starts boot.target: kiosk-hud.socket, kiosk-hud.service and
    /// kiosk-hud-progress.service (what sysinit.target starts), six steps of 0.3 s in a row (the
    /// second waits until the HUD shows a bar), and
    /// with `app` the example kiosk app (the app and kiosk-hud-quit.service after the third step,
    /// in drop-ins, as the README says to order them after what the app waits for). The units
    /// are dist's, with four paths made the test's: kiosk-hud, `systemctl --user`, the options
    /// file (offscreen, PNGs in out/) and the app (a script that writes what it sees).
    func playBoot(app: Bool) throws -> Played {
        let d = Proc.makeTempDir("kiosk-boot")
        let units = d + "/cfg/systemd/user"
        try makeDirectories(units)
        try makeDirectories(d + "/out")
        for u in Self.units() {
            let text = try readSmallFile(Self.dist + "/systemd/" + u.file, limit: 1 << 16)
                .replacing("/usr/bin/kiosk-hud", with: Proc.kioskHUD).replacing("=systemctl ", with: "=systemctl --user ")
                .replacing("/etc/default/kiosk-hud", with: d + "/default").replacing("/usr/local/bin/kiosk-app", with: d + "/app.sh")
            try replaceFile(units + "/" + u.name, with: Array(text.utf8))
        }
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws {
            if let slash = name.lastIndex(of: "/") { try makeDirectories(units + "/" + name[..<slash]) }
            try replaceFile(name.hasPrefix("/") ? name : units + "/" + name, with: Array(text.utf8), mode: mode)
        }
        try write(d + "/default", "KIOSK_HUD_ARGS=\"--offscreen \(d)/out --no-input --mode indeterminate --label 'Starting up'\"\n")
        try write(d + "/app.sh", """
            #!/bin/sh
            echo "daemon=$(systemctl --user is-active kiosk-hud.service) follower=$(systemctl --user is-active kiosk-hud-progress.service)" > \(d)/app.out

            """, mode: 0o755)
        for i in 1...6 {
            try write("step\(i).service", "[Unit]\nAfter=step\(i - 1).service\n[Service]\nType=oneshot\nExecStart=/bin/sleep 0.3\n")
        }
        // Mid-boot, step 2 waits (up to 30 s, for a loaded machine) until the HUD's content is a
        // bar (`content`'s mode: status also lists the look's boot_up_mode and the others).
        try write("step2.service.d/status.conf", """
            [Service]
            ExecStartPost=/bin/sh -c 'for i in $(seq 300); do \(Proc.kioskHUD) ctl status > \(d)/mid.json; grep -q content.:..mode.:.bar \(d)/mid.json && break; sleep 0.1; done'

            """)
        for u in ["kiosk-hud", "kiosk-hud-progress", "kiosk-hud-quit"] {
            try write("\(u).service.d/log.conf", "[Service]\nStandardOutput=append:\(d)/\(u).log\nStandardError=append:\(d)/\(u).log\n")
        }
        var wants = "kiosk-hud.socket kiosk-hud.service kiosk-hud-progress.service " + (1...6).map { "step\($0).service" }.joined(separator: " ")
        if app {
            wants += " kiosk-app.service"
            try write("kiosk-app.service.d/late.conf", "[Unit]\nAfter=step3.service\n")
            try write("kiosk-hud-quit.service.d/late.conf", "[Unit]\nAfter=step3.service\n")
        }
        try write("boot.target", "[Unit]\nWants=\(wants)\n")
        let play = """
            mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system || exit 97
            export XDG_RUNTIME_DIR=/run XDG_CONFIG_HOME='\(d)/cfg'
            /lib/systemd/systemd --user --unit=boot.target > '\(d)/manager.log' 2>&1 &
            for i in $(seq 200); do
                [ "$(systemctl --user show -p Progress --value 2>/dev/null)" = 1 ] && break; sleep 0.1
            done
            systemctl --user show -p Progress --value > '\(d)/progress'
            sleep 0.3
            systemctl --user is-active kiosk-hud.service kiosk-hud-progress.service kiosk-hud.socket | tr '\\n' ' ' > '\(d)/states'
            \(app ? "" : "'\(Proc.kioskHUD)' ctl status > '\(d)/end.json' 2>&1")
            systemctl --user exit; wait
            """
        let r = Proc.run(["timeout", "60", "unshare", "--mount", "sh", "-c", play])
        #expect(r.status == 0, "playing the boot (unshare --mount, systemd --user): status \(r.status)\n\(r.err)")
        return Played(dir: d)
    }

    /// No kiosk app: the follower shows the boot as a bar from the first steps and follows it
    /// to the end — Progress 1, a full bar — then exits 0 by itself.
    @Test func theFollowerFollowsABootToTheEnd() throws {
        let p = try playBoot(app: false)
        defer { _ = Proc.run(["rm", "-rf", p.dir]) }
        #expect(p.file("progress") == "1\n")
        #expect(p.file("mid.json").contains("\"content\":{\"mode\":\"bar\","), "mid-boot: \(p.file("mid.json"))")
        #expect(p.file("end.json").contains("\"content\":{\"mode\":\"bar\",\"progress\":1,\"label\":\"Starting up\""),
                "after the boot: \(p.file("end.json"))")
        #expect(p.file("states") == "active inactive active ")
        let log = p.file("kiosk-hud-progress.log")
        #expect(log.hasPrefix("follow-boot: following systemd's boot progress at unix:path=/run/systemd/private every 0.25 s\n"))
        let sent = log.split(separator: "\n").last.flatMap { $0.split(separator: "; ").last?.split(separator: " ").first }.flatMap { Int($0) }
        #expect(log.contains("follow-boot: the boot is finished; ") && (sent ?? 0) >= 2, "\(log)")
    }

    /// The daemon quits mid-boot (a handover without the units): the follower notices at once,
    /// exits 0 and does not connect again.
    @Test func theFollowerEndsWithTheDaemon() throws {
        let d = Proc.makeTempDir("kiosk-follow-end")
        defer { _ = Proc.run(["rm", "-rf", d]) }
        try makeDirectories(d + "/cfg/systemd/user")
        try replaceFile(d + "/cfg/systemd/user/slow.service", with: Array("[Service]\nType=oneshot\nExecStart=/bin/sleep 10\n".utf8))
        try replaceFile(d + "/cfg/systemd/user/boot.target", with: Array("[Unit]\nWants=slow.service\n".utf8))
        let hud = "'\(Proc.kioskHUD)'", socket = "--socket '\(d)/s.sock'"
        let r = Proc.run(["timeout", "60", "unshare", "--mount", "sh", "-c", """
            mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system || exit 97
            export XDG_RUNTIME_DIR=/run XDG_CONFIG_HOME='\(d)/cfg'
            /lib/systemd/systemd --user --unit=boot.target > '\(d)/manager.log' 2>&1 &
            \(hud) daemon --offscreen - --no-input \(socket) 2> '\(d)/daemon.log' &
            for i in $(seq 100); do [ -S /run/systemd/private ] && \(hud) ctl ping \(socket) 2>/dev/null && break; sleep 0.05; done
            \(hud) ctl follow-boot \(socket) --interval 0.05 > '\(d)/follow.out' & follower=$!
            for i in $(seq 200); do grep -q following '\(d)/follow.out' && break; sleep 0.05; done
            sleep 0.2; \(hud) ctl quit \(socket)
            wait $follower; echo "follower=$?"
            systemctl --user exit; wait
            """])
        #expect(r.out == "follower=0\n", "\(r.out)\(r.err)")
        // How many updates went out before the quit depends on how the manager's jobs were timed.
        let out = (Proc.readFile(d + "/follow.out") ?? "").split(separator: "\n")
        #expect(out.count == 2 && out.first == "follow-boot: following systemd's boot progress at unix:path=/run/systemd/private every 0.05 s"
                && out.last?.hasPrefix("follow-boot: the daemon has ended; ") == true && out.last?.hasSuffix(" updates sent") == true, "\(out)")
        #expect(Proc.readFile(d + "/daemon.log")?.contains("kiosk-hud: done presents=") == true, "\(Proc.readFile(d + "/daemon.log") ?? "")")
    }

    /// With the example kiosk app: the app starts once the daemon and the follower have ended;
    /// the daemon quit through `ctl quit --retain` with the bar filled, and nobody started it
    /// again (the socket is still there, idle).
    @Test func theKioskAppStartsAfterTheHandover() throws {
        let p = try playBoot(app: true)
        defer { _ = Proc.run(["rm", "-rf", p.dir]) }
        #expect(p.file("app.out") == "daemon=inactive follower=inactive\n")
        #expect(p.file("mid.json").contains("\"content\":{\"mode\":\"bar\","), "mid-boot: \(p.file("mid.json"))")
        let daemon = p.file("kiosk-hud.log")
        #expect(daemon.occurrences(of: "control socket: listening on the socket systemd passed") == 1, "started once: \(daemon)")
        #expect(daemon.contains("kiosk-hud: done ") && daemon.contains(" exit=0"), "\(daemon)")
        #expect(p.file("kiosk-hud-quit.log").isEmpty, "the handover said: \(p.file("kiosk-hud-quit.log"))")
        // The boot ended after the handover, with the daemon not started again; the socket listens on.
        #expect(p.file("progress") == "1\n")
        #expect(p.file("states") == "inactive inactive active ")
    }
}

extension String {
    /// How many times `s` occurs.
    func occurrences(of s: String) -> Int { split(separator: s, omittingEmptySubsequences: false).count - 1 }
}
