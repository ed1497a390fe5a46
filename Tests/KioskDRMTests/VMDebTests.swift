import KioskSys
import KioskTestSupport
import Testing

/// Real kernel: the `.deb` (Tools/make-deb.sh around the kiosk-hud these tests run) installed with
/// `dpkg -i` into the guest's writable root (the host's Debian 12 under a tmpfs overlay: a real
/// dpkg database, the dependencies really there), `kiosk-hud boards list` and `boards detect`
/// run from /usr/bin against the real kernel's /sys (bochs-drm, Virtual-1 at 800x480), a
/// profile of one's own in /etc/kiosk-hud/boards detected and named by `show`'s board line,
/// then `dpkg -r` (only the configuration left) and `dpkg --purge` (every place the package
/// touches as it was). One boot, Tests/VM/guest/deb.sh. The same package on a throwaway root
/// without a VM: DebPackageTests. If the VM cannot run the test FAILS, loudly, unless
/// KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMDebTests {
    static let checks = [
        "installed", "status", "socket-enabled", "splash-enabled", "unit-execstart", "man-page",
        "list-places", "list-installed", "detect-generic", "detect-own", "show-line",
        "removed", "program-gone", "config-kept", "purged", "nothing-left", "not-known",
    ]

    @Test(.timeLimit(.minutes(60)))
    func installedDetectedRemovedAndPurgedOnARealKernel() async throws {
        guard vmHarnessReady("VM DEB TESTS") else { return }
        if !Proc.executable("dpkg-deb") {
            if let issue = VMGate.cannotRun("VM DEB TESTS", "missing dpkg-deb (apt-get install dpkg)") { Issue.record(Comment(rawValue: issue)) }
            return
        }
        let out = Proc.makeTempDir("kiosk-vm-deb")
        // gzip: xz takes 20 s on a debug binary.
        let made = Proc.run([Proc.root + "/Tools/make-deb.sh", "--binary", Proc.kioskHUD, "--version", "1.2.3", "--out", out, "--compress", "gzip"])
        #expect(made.status == 0, "make-deb.sh: \(made.err)")
        let deb = String(made.out.split(separator: "\n").last ?? "")
        guard made.status == 0, Proc.exists(deb) else { return }

        let args = ["--gpu", "bochs", "--out", out, "--timeout", "420", "--", "bash", Proc.root + "/Tests/VM/guest/deb.sh", deb]
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, qemuArgs: "-global VGA.xres=800 -global VGA.yres=480", out: out)
        print("[deb] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM DEB TESTS", tag: "deb", checks: Self.checks) else { return }
        var clean = verdict
        #expect(stdout.hasSuffix("end\n"), "the guest script did not finish")

        // What detection saw of the real kernel: the card's driver (a sysfs link), the
        // connector's status and modes.
        let detect = Proc.readFile(out + "/detect.txt") ?? ""
        #expect(detect.contains("\n  DRM: card0 (bochs-drm: Virtual-1 connected [800x480 "), "\(detect)")
        #expect(detect.contains("\n  compatible: none (no device tree)\n"), "\(detect)")
        if !detect.contains("bochs-drm") { clean = false }
        print("[deb] boards detect in the guest:\n\(detect)")

        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[deb] kept \(out) for inspection") }
    }
}
