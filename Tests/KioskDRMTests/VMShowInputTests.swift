import KioskTestSupport
import Glibc
import KioskSeams
import KioskPNG
import KioskSys
import Testing

/// Real kernel: `kiosk-hud show` taking touch (a uinput touch screen, Tests/VM/ref/uinput-touch.c),
/// the virtio-tablet (QMP) and the tilt (mxc4005 on i2c-stub) on bochs-drm at 800x480, one boot
/// (Tests/VM/guest/show-input.sh). The tap positions come from the offscreen layout
/// (`kiosk-hud render --print-layout`); the screendumps (finger down on the button, tilted,
/// level) must equal `kiosk-hud render` (`--pressed`, `--motion-offset`) pixel for pixel.
/// If the VM cannot run the test FAILS, loudly, unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMShowInputTests {
    static let hudArgs = ["--mode", "annular", "--progress", "0.6", "--label", "KioskHUD", "--button", "Cancel", "--scale", "1"]
    /// What each screendump kind must equal.
    static let kinds: [String: [String]] = [
        "pressed": hudArgs + ["--pressed"],
        "right": hudArgs + ["--motion-offset", "10,0"],  // --depth 10 at scale 1, tilted 45° right
        "level": hudArgs,
    ]

    @Test(.timeLimit(.minutes(60)))
    func touchTabletAndTiltOnBochs() async throws {
        guard vmHarnessReady("VM SHOW INPUT TESTS") else { return }
        let out = Proc.makeTempDir("kiosk-vm-show-input")
        guard let uinput = uinputTouchTool(in: out, suite: "VM SHOW INPUT TESTS") else { return }

        // Where the button is: the offscreen layout of the same HUD, picture → panel → device.
        let (w, h) = (800, 480)
        let b0 = try buttonCentre(width: w, height: h)
        let b90p = try buttonCentre(width: h, height: w)
        let b90 = DisplayTransform(rotation: .quarter, width: h, height: w).toPanel(x: b90p.x, y: b90p.y)
        func dev(_ p: (x: Double, y: Double), _ range: Double) -> [String] {
            [String(Int((p.x * range / Double(w)).rounded())), String(Int((p.y * range / Double(h)).rounded()))]
        }
        let points = dev(b0, 4096) + dev((40, 40), 4096) + dev(b90, 4096) + dev(b0, 32768)
        print("[show-input] button centre \(b0) (rotation 0), \(b90p) → panel \(b90) (rotation 90); device args \(points)")

        let args = ["--gpu", "bochs", "--tablet", "--out", out, "--timeout", "240", "--",
                    "bash", Proc.root + "/Tests/VM/guest/show-input.sh", Proc.kioskHUD, uinput] + points
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, qemuArgs: "-global VGA.xres=800 -global VGA.yres=480", out: out)
        print("[show-input] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM SHOW INPUT TESTS", tag: "show-input",
                                         checks: ["button-touch", "outside-none", "outside-exit", "rotated", "hide", "hide-logged", "tablet", "tilt-attached", "tilt"]) else { return }
        var clean = verdict

        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.contains("\nend") || manifest.hasPrefix("end"), "the guest script did not finish: \(manifest)")
        let refs = Refs(dir: out)
        var shots: [String] = []
        for line in manifest.split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            guard f.count == 4, f[0] == "shot", let kindArgs = VMShowInputTests.kinds[f[3]] else { continue }
            shots.append(f[3])
            guard let ppm = PPM(path: out + "/" + f[1]) else { Issue.record("\(f[1]): not a PPM"); clean = false; continue }
            let ref = try refs.render(kindArgs, width: ppm.width, height: ppm.height, phase: nil)
            let d = VMDisplayTests().diff(ppm, ref, .none)
            #expect(d == 0, "\(f[1]): \(d) pixels differ from `kiosk-hud render \(kindArgs.joined(separator: " "))`")
            if d != 0 { clean = false }
        }
        #expect(shots == ["pressed", "level", "right", "level"], "screendumps taken: \(shots)")
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[show-input] kept \(out) for inspection") }
    }

    /// The button's centre in picture pixels, from `kiosk-hud render --print-layout`.
    func buttonCentre(width: Int, height: Int) throws -> (x: Double, y: Double) {
        let png = Proc.makeTempDir("kiosk-layout") + "/l.png"
        defer { _ = Proc.run(["rm", "-rf", String(png.dropLast(6))]) }
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(width)x\(height)", "--print-layout", "-o", png] + VMShowInputTests.hudArgs)
        guard r.status == 0, let line = r.out.split(separator: "\n").first(where: { $0.hasPrefix("button ") }) else {
            throw RefError(description: "kiosk-hud render --print-layout: exit \(r.status): \(r.out) \(r.err)")
        }
        let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard v.count == 4 else { throw RefError(description: "bad layout line: \(line)") }
        return (v[0] + v[2] / 2, v[1] + v[3] / 2)
    }
}
