// dist/initramfs-tools' scripts as the initramfs runs them, each in a mount namespace of its own
// (root only): a fresh /run, /etc with the hook's files (the program's path, the daemon's
// options), a kernel command line of the test's — and a stand-in for kiosk-hud that writes down
// how it was called. The whole boot, with the host's mkinitramfs and the real kiosk-hud, is
// VMBootTests.bootFromTheInitramfs.
import Glibc
import KioskSys
import KioskTestSupport
import Testing

@Suite(.serialized) struct InitramfsScriptsTests {
    static let scripts = Proc.root + "/dist/initramfs-tools/scripts"

    /// Runs `script` (relative to dist/initramfs-tools/scripts) with `cmdline` as /proc/cmdline
    /// and `rootmnt` set; `prepare` is shell run first in the namespace (its /run is fresh).
    /// `stub` is shell the stand-in runs after writing down its call (it ends at once without);
    /// `after` is shell run in the namespace once the script has returned. Returns the stand-in's
    /// calls, one argument a line, a blank line between calls, and what `after` printed; nil when
    /// the test cannot run here (not root, no unshare).
    func run(_ script: String, cmdline: String, prepare: String = "", rootLink: String? = nil, plymouth: String = "--plymouth",
             stub: String = "", after: String = "") -> (calls: String, after: String)? {
        guard getuid() == 0, Proc.executable("unshare") else { return nil }
        let t = String(Proc.run(["mktemp", "-d"]).out.split(separator: "\n").first ?? "")
        guard t.hasPrefix("/") else { Issue.record("mktemp -d failed"); return nil }
        defer { _ = Proc.run(["rm", "-rf", t]) }
        let setup = """
            set -e
            T=\(t)
            mkdir -p $T/etc/kiosk-hud $T/etc/default $T/root/etc/systemd/system/sysinit.target.wants
            cat > $T/stub <<EOF
            #!/bin/sh
            printf '%s\\n' "\\$@" >> $T/calls
            echo >> $T/calls
            \(stub)
            EOF
            chmod 755 $T/stub
            echo $T/stub > $T/etc/kiosk-hud/initramfs-program
            echo "KIOSK_HUD_ARGS=\\"--label 'Two words' --mode bar\\"" > $T/etc/default/kiosk-hud
            echo 'KIOSK_HUD_PLYMOUTH=\(plymouth)' >> $T/etc/default/kiosk-hud
            \(rootLink.map { "ln -s \($0) $T/root/etc/systemd/system/sysinit.target.wants/kiosk-hud.service" } ?? "")
            echo '\(cmdline)' > $T/cmdline
            : > $T/calls
            unshare -m sh -ec '
              mount -t tmpfs tmpfs /run
              mount --bind "$1/cmdline" /proc/cmdline
              mount --bind "$1/etc" /etc
              \(prepare)
              rootmnt=$1/root sh "$2"
              \(after)
            ' sh "$T" \(Self.scripts)/\(script) > $T/after
            """
        let r = Proc.run(["sh", "-c", setup])
        #expect(r.status == 0, "\(script): status \(r.status): \(r.err)")
        return (Proc.readFile(t + "/calls") ?? "", Proc.readFile(t + "/after") ?? "")
    }

    /// A daemon listening on the control socket and the initramfs's marker naming it, as the
    /// daemon leaves them (a stand-in that listens for 10 s).
    static let daemonThere = """
        mkdir -p /run/kiosk-hud
        python3 -c "import socket, time; s = socket.socket(socket.AF_UNIX); s.bind(\\"/run/kiosk-hud/control.sock\\"); s.listen(); time.sleep(10)" </dev/null >/dev/null 2>&1 &
        echo $! > /run/kiosk-hud/initramfs.pid
        while [ ! -S /run/kiosk-hud/control.sock ]; do sleep 0.02; done
        """

    /// Shell for `after`: whether the marker is still there, and the initramfs's log.
    static let markerAndLog = """
        if [ -e /run/kiosk-hud/initramfs.pid ]; then echo marker: kept; else echo marker: removed; fi; cat /run/kiosk-hud/initramfs.log 2>/dev/null || :
        """

    @Test func initTopStartsTheDaemonWithTheUnitsOptions() {
        guard let calls = run("init-top/kiosk-hud", cmdline: "root=/dev/vda1 quiet splash")?.calls else { return }
        // Split as systemd splits the unit's $KIOSK_HUD_ARGS: the quoted label is one argument.
        #expect(calls == "daemon\n--plymouth\n--label\nTwo words\n--mode\nbar\n--initramfs\n\n", "calls: \(calls)")
    }

    /// Without KIOSK_HUD_PLYMOUTH the initramfs's daemon answers Plymouth's socket all the same
    /// (the scripts there speak `plymouth`; no plymouthd is in an initramfs with kiosk-hud).
    @Test func initTopAnswersPlymouthsSocketAnyway() {
        guard let calls = run("init-top/kiosk-hud", cmdline: "quiet", plymouth: "")?.calls else { return }
        #expect(calls == "daemon\n--plymouth\n--label\nTwo words\n--mode\nbar\n--initramfs\n\n", "calls: \(calls)")
    }

    /// Shell for `after`: "running" when the stand-in (its pid in stub.pid) still runs, not a zombie.
    static let stubRunning = """
        sleep 0.2; st=$(cut -d" " -f3 /proc/$(cat $1/stub.pid)/stat 2>/dev/null || :); [ -n "$st" ] && [ "$st" != Z ] && echo running
        """

    /// init-top returns once the daemon listens (here 0.5 s after its start), and leaves it running.
    @Test func initTopWaitsUntilTheDaemonListens() {
        let t0 = monotonicSeconds()
        guard let after = run("init-top/kiosk-hud", cmdline: "quiet", stub: """
            echo \\$\\$ > $T/stub.pid; sleep 0.5
            exec python3 -c "import socket, time; s = socket.socket(socket.AF_UNIX); s.bind('/run/kiosk-hud/control.sock'); time.sleep(3)"
            """, after: Self.stubRunning)?.after else { return }
        let took = monotonicSeconds() - t0
        #expect(after.contains("running"), "the daemon was not left running: \(after)")
        #expect(took >= 0.5 && took < 3, "init-top returned after \(took) s")
    }

    /// A daemon that does not listen within 10 s is ended by init-top, which says so in its log.
    @Test func initTopEndsADaemonThatNeverListens() {
        guard let after = run("init-top/kiosk-hud", cmdline: "quiet", stub: "echo \\$\\$ > $T/stub.pid; exec sleep 60",
                              after: Self.stubRunning + "; cat /run/kiosk-hud/initramfs.log")?.after else { return }
        #expect(!after.contains("running"), "the daemon still runs: \(after)")
        #expect(after.contains("the daemon did not listen within 10 s: ended"), "\(after)")
    }

    static let turnedOff: [String] = ["root=/dev/vda1 kiosk-hud.enable=0", "root=/dev/vda1 nosplash quiet"]

    @Test(arguments: turnedOff)
    func initTopHonoursTheKernelCommandLine(_ cmdline: String) {
        guard let calls = run("init-top/kiosk-hud", cmdline: cmdline)?.calls else { return }
        #expect(calls.isEmpty, "\(cmdline): the daemon was started: \(calls)")
    }

    @Test func initBottomGivesTheNewRootWhenTheRealRootStartsTheService() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere,
                              rootLink: "/lib/systemd/system/kiosk-hud.service")?.calls else { return }
        #expect(calls.hasPrefix("ctl\nnew-root\n/tmp/") && calls.hasSuffix("/root\n\n"), "calls: \(calls)")
    }

    @Test func initBottomEndsTheDaemonWhenNothingWouldTakeItOver() {
        // (The stand-in daemon ends on the quit without removing its marker: init-bottom does.)
        guard let r = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere,
                          stub: "kill \\$(cat /run/kiosk-hud/initramfs.pid)", after: Self.markerAndLog) else { return }
        #expect(r.calls == "ctl\nquit\n--retain\n\n", "calls: \(r.calls)")
        #expect(r.after.contains("marker: removed") && r.after.contains("the daemon quit"), "\(r.after)")
    }

    /// The marker of a daemon that is gone (it failed to start, or was ended, without removing
    /// it) is removed before run-init moves /run to the real root, where it would keep
    /// kiosk-hud.socket off for the whole boot; the daemon is not asked for anything.
    @Test func initBottomRemovesTheMarkerOfADaemonThatIsGone() {
        let gone = "sh -c \"echo \\$\\$\" > /run/kiosk-hud/initramfs.pid"   // a pid that has ended
        for (why, prepare) in [("is gone", "mkdir -p /run/kiosk-hud; " + gone),
                               ("is gone", Self.daemonThere + "\n" + gone),
                               ("no control socket", "mkdir -p /run/kiosk-hud; echo $$ > /run/kiosk-hud/initramfs.pid")] {
            guard let r = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: prepare,
                              rootLink: "/lib/systemd/system/kiosk-hud.service", after: Self.markerAndLog) else { return }
            #expect(r.calls.isEmpty, "\(why): calls: \(r.calls)")
            #expect(r.after.contains("marker: removed") && r.after.contains(why), "\(why): \(r.after)")
        }
    }

    /// A daemon that ends instead of taking the new root leaves no marker behind; one that does
    /// not answer but runs keeps it (the real root's start can still take it over).
    @Test func initBottomRemovesTheMarkerWhenTheDaemonEndsAtNewRoot() {
        let link = "/lib/systemd/system/kiosk-hud.service"
        guard let ended = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere, rootLink: link,
                              stub: "kill \\$(cat /run/kiosk-hud/initramfs.pid); sleep 0.1; exit 1", after: Self.markerAndLog),
              let silent = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere, rootLink: link,
                               stub: "exit 1", after: Self.markerAndLog) else { return }
        #expect(ended.after.contains("marker: removed") && ended.after.contains("ended"), "\(ended.after)")
        #expect(silent.after.contains("marker: kept"), "\(silent.after)")
    }

    /// A daemon that ends at once, killed before it could remove its marker: init-top does not
    /// wait out its 10 s, and removes the marker.
    @Test func initTopRemovesTheMarkerOfADaemonThatEnded() {
        let t0 = monotonicSeconds()
        guard let r = run("init-top/kiosk-hud", cmdline: "quiet", stub: "echo \\$\\$ > /run/kiosk-hud/initramfs.pid; exit 1",
                          after: Self.markerAndLog) else { return }
        let took = monotonicSeconds() - t0
        #expect(r.after.contains("marker: removed") && r.after.contains("its marker removed"), "\(r.after)")
        #expect(took < 5, "init-top returned after \(took) s")
    }

    @Test func initBottomDoesNothingWithoutTheDaemon() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", rootLink: "/lib/systemd/system/kiosk-hud.service")?.calls else { return }
        #expect(calls.isEmpty, "calls: \(calls)")
    }
}
