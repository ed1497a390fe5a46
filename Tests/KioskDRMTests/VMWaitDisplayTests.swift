import KioskTestSupport
import Glibc
import KioskSys
import Testing

/// Real kernel: `kiosk-hud daemon --wait-display` when the display appears while it waits
/// (Tests/VM/guest/wait-display.sh, `run-in-vm.sh --gpu none`): a bochs-display PCI device
/// hot-plugged through QMP makes /dev/dri/card0 with the daemon running, as a display driver that
/// udev's coldplug loads does at boot. Checked: with no display the wait gives up after its
/// seconds with one line and the usual failure; the control socket answers while waiting and an
/// update changes the state; the kernel's uevent opens the display and the first frame — compared
/// pixel for pixel with `kiosk-hud render` — shows that update. Logged: device plugged → first
/// frame on screen (TCG: compare, do not quote). If the VM cannot run the test FAILS, loudly,
/// unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMWaitDisplayTests {
    static let checks = ["no-display-at-start", "gives-up", "ping-while-waiting", "update-while-waiting", "status-while-waiting",
                         "display-appeared", "appeared-line", "daemon-quit"]

    @Test(.timeLimit(.minutes(60)))
    func theDisplayAppearsWhileTheDaemonWaits() async throws {
        guard vmHarnessReady("VM WAIT-DISPLAY TESTS") else { return }
        let out = Proc.makeTempDir("kiosk-vm-wait")
        let args = ["--gpu", "none", "--out", out, "--timeout", "300", "--",
                    "bash", Proc.root + "/Tests/VM/guest/wait-display.sh", Proc.kioskHUD]
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, out: out)
        print("[wait] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM WAIT-DISPLAY TESTS", tag: "wait", checks: Self.checks) else { return }
        var clean = verdict
        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.hasSuffix("end\n"), "the guest script did not finish: \(manifest)")
        let m = Manifest(manifest)
        let refs = Refs(dir: out)
        #expect(m.shots.count == 1, "screendumps: \(m.shots.map(\.file))")
        for s in m.shots {
            guard let ppm = PPM(path: out + "/" + s.file) else { Issue.record("\(s.file): not a PPM"); clean = false; continue }
            let state = [s.time] + s.fields   // "shot<TAB>FILE<TAB>render args…": the first arg sits in `time`
            let d = VMDisplayTests().diff(ppm, try refs.render(state, width: ppm.width, height: ppm.height, phase: nil), .none)
            #expect(ppm.width == 800 && ppm.height == 480 && d == 0,
                    "\(s.file) \(ppm.width)x\(ppm.height): \(d) pixels differ from `kiosk-hud render \(state.joined(separator: " "))`")
            if d != 0 { clean = false }
        }
        if let plugged = m.times["plugged"], let ff = m.times["first-frame"] {
            print("[wait] device plugged at \(plugged) s → first frame on screen at \(ff) s: \(String(format: "%.2f", ff - plugged)) s " +
                  "(the kernel's probe, the uevent, opening the card, laying out and drawing; TCG guest)")
        } else {
            Issue.record("no plugged/first-frame times: \(manifest)"); clean = false
        }
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[wait] kept \(out) for inspection") }
    }
}
