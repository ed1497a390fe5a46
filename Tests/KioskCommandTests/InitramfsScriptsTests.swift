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

    /// A listening control socket and the initramfs's marker, as the daemon leaves them.
    static let daemonThere = """
        mkdir -p /run/kiosk-hud; echo 123 > /run/kiosk-hud/initramfs.pid
        python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.bind(\\"/run/kiosk-hud/control.sock\\")"
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
        sleep 0.2; st=$(cut -d" " -f3 /proc/$(cat $1/stub.pid)/stat 2>/dev/null); [ -n "$st" ] && [ "$st" != Z ] && echo running
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
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere)?.calls else { return }
        #expect(calls == "ctl\nquit\n--retain\n\n", "calls: \(calls)")
    }

    @Test func initBottomDoesNothingWithoutTheDaemon() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", rootLink: "/lib/systemd/system/kiosk-hud.service")?.calls else { return }
        #expect(calls.isEmpty, "calls: \(calls)")
    }
}
