// dist/initramfs-tools' scripts as the initramfs runs them, each in a mount namespace of its own
// (root only): a fresh /run, /etc with the hook's files (the program's path, the daemon's
// options), a kernel command line of the test's — and a stand-in for kiosk-hud that writes down
// how it was called. The whole boot, with the host's mkinitramfs and the real kiosk-hud, is
// VMBootTests.bootFromTheInitramfs.
import Glibc
import KioskTestSupport
import Testing

@Suite(.serialized) struct InitramfsScriptsTests {
    static let scripts = Proc.root + "/dist/initramfs-tools/scripts"

    /// Runs `script` (relative to dist/initramfs-tools/scripts) with `cmdline` as /proc/cmdline
    /// and `rootmnt` set; `prepare` is shell run first in the namespace (its /run is fresh).
    /// Returns the stand-in's calls, one argument a line, a blank line between calls; nil when
    /// the test cannot run here (not root, no unshare).
    func run(_ script: String, cmdline: String, prepare: String = "", rootLink: String? = nil, plymouth: String = "--plymouth") -> String? {
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
            ' sh "$T" \(Self.scripts)/\(script)
            """
        let r = Proc.run(["sh", "-c", setup])
        #expect(r.status == 0, "\(script): status \(r.status): \(r.err)")
        return Proc.readFile(t + "/calls") ?? ""
    }

    /// A listening control socket and the initramfs's marker, as the daemon leaves them.
    static let daemonThere = """
        mkdir -p /run/kiosk-hud; echo 123 > /run/kiosk-hud/initramfs.pid
        python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.bind(\\"/run/kiosk-hud/control.sock\\")"
        """

    @Test func initTopStartsTheDaemonWithTheUnitsOptions() {
        guard let calls = run("init-top/kiosk-hud", cmdline: "root=/dev/vda1 quiet splash") else { return }
        // Split as systemd splits the unit's $KIOSK_HUD_ARGS: the quoted label is one argument.
        #expect(calls == "daemon\n--plymouth\n--label\nTwo words\n--mode\nbar\n--initramfs\n\n", "calls: \(calls)")
    }

    /// Without KIOSK_HUD_PLYMOUTH the initramfs's daemon answers Plymouth's socket all the same
    /// (the scripts there speak `plymouth`; no plymouthd is in an initramfs with kiosk-hud).
    @Test func initTopAnswersPlymouthsSocketAnyway() {
        guard let calls = run("init-top/kiosk-hud", cmdline: "quiet", plymouth: "") else { return }
        #expect(calls == "daemon\n--plymouth\n--label\nTwo words\n--mode\nbar\n--initramfs\n\n", "calls: \(calls)")
    }

    static let turnedOff: [String] = ["root=/dev/vda1 kiosk-hud.enable=0", "root=/dev/vda1 nosplash quiet"]

    @Test(arguments: turnedOff)
    func initTopHonoursTheKernelCommandLine(_ cmdline: String) {
        guard let calls = run("init-top/kiosk-hud", cmdline: cmdline) else { return }
        #expect(calls.isEmpty, "\(cmdline): the daemon was started: \(calls)")
    }

    @Test func initBottomGivesTheNewRootWhenTheRealRootStartsTheService() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere,
                              rootLink: "/lib/systemd/system/kiosk-hud.service") else { return }
        #expect(calls.hasPrefix("ctl\nnew-root\n/tmp/") && calls.hasSuffix("/root\n\n"), "calls: \(calls)")
    }

    @Test func initBottomEndsTheDaemonWhenNothingWouldTakeItOver() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", prepare: Self.daemonThere) else { return }
        #expect(calls == "ctl\nquit\n--retain\n\n", "calls: \(calls)")
    }

    @Test func initBottomDoesNothingWithoutTheDaemon() {
        guard let calls = run("init-bottom/kiosk-hud", cmdline: "quiet", rootLink: "/lib/systemd/system/kiosk-hud.service") else { return }
        #expect(calls.isEmpty, "calls: \(calls)")
    }
}
