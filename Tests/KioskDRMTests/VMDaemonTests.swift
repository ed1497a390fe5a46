import KioskTestSupport
import Glibc
import KioskSeams
import KioskPNG
import KioskSys
import Testing

/// Real kernel: `kiosk-hud daemon` on bochs-drm at 800x480 driven by `kiosk-hud ctl`, one boot
/// (Tests/VM/guest/daemon.sh): progress and label updates (each screendump must equal
/// `kiosk-hud render` of the same state, pixel for pixel — the display suite's tolerance, none),
/// `ctl status` (the connector, its size, "active":true), a uinput tap on the button ending a
/// waiting `ctl wait-button` (and `--timeout` ending one nobody answers with exit 1), and
/// `ctl quit --retain` (the daemon exits 0; the keeper still shows the last frame); then a daemon
/// started --hidden, which opens no display, shows nothing and takes no tap while another program
/// (modeset.c) has the card, shows once it is free, and lets it go when hidden again. The guest
/// logs ctl's and the protocol's request → reply times (TCG: only ratios mean anything).
/// If the VM cannot run the test FAILS, loudly, unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMDaemonTests {
    /// The HUD when the guest taps: the button's place comes from this state's offscreen layout.
    static let tapProgress = "0.8", tapLabel = "Press Cancel"
    static let tapState = ["--mode", "annular", "--progress", tapProgress, "--label", tapLabel, "--button", "Cancel", "--scale", "1"]
    /// The guest's checks that must pass.
    static let checks = [
        "daemon-started", "ctl-ping",
        "update-progress-0.25", "update-progress-0.5", "update-progress-0.75", "update-progress-1.0",
        "update-label", "update-label-details", "update-progress-label",
        "status-active", "status-display", "status-content",
        "ctl-repeated", "protocol-latency", "update-shrink", "style-redraw",
        "wait-button-subscribed", "wait-button-waits", "wait-button-tap", "daemon-survives-button", "wait-button-timeout",
        "ctl-quit", "daemon-quit", "retain-keeper", "ctl-after-quit-no-daemon",
        "hidden-started", "hidden-no-display", "hidden-leaves-master", "held-logged", "held-not-active", "held-tap-presses-nothing",
        "shown-after-release", "shown-active", "shown-tap", "hidden-lets-go", "master-free-after-hide", "hidden-quit",
    ]
    /// The screendumps, in order (daemon-NAME.ppm). "after-timing": the last of 80 requests'
    /// frame; "shrink": an update that makes the bezel smaller (the old bezel's pixels must be
    /// cleared); "redrawn": the same after a whole-frame redraw (a style change and back);
    /// "retained": after the daemon quit with --retain (the keeper's frame).
    static let shots = ["start", "progress-0.25", "progress-0.5", "progress-0.75", "progress-1.0", "label", "label-details",
                        "progress-label", "after-timing", "shrink", "redrawn", "after-tap", "final", "retained", "hidden-shown"]

    @Test(.timeLimit(.minutes(60)))
    func daemonOnBochs() async throws {
        guard vmHarnessReady("VM DAEMON TESTS") else { return }
        let out = Proc.makeTempDir("kiosk-vm-daemon")
        guard let uinput = uinputTouchTool(in: out, suite: "VM DAEMON TESTS") else { return }

        // The button's centre in the tap state's layout, in uinput device coordinates (0..4095).
        let (w, h) = (800, 480)
        let b = try buttonCentre(width: w, height: h)
        let bx = String(Int((b.x * 4096 / Double(w)).rounded())), by = String(Int((b.y * 4096 / Double(h)).rounded()))
        print("[daemon] button centre \(b) → device \(bx),\(by)")

        let cache = getenv("KIOSK_VM_CACHE").map { String(cString: $0) } ?? Proc.root + "/.build-vm"
        let args = ["--gpu", "bochs", "--out", out, "--timeout", "420", "--",
                    "bash", Proc.root + "/Tests/VM/guest/daemon.sh", Proc.kioskHUD, uinput, bx, by, Self.tapProgress, Self.tapLabel, cache + "/modeset"]
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, qemuArgs: "-global VGA.xres=\(w) -global VGA.yres=\(h)", out: out)
        print("[daemon] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM DAEMON TESTS", tag: "daemon", checks: Self.checks) else { return }
        var clean = verdict

        // status as the guest saw it (it checked the connector against sysfs; the size is ours).
        let statusJSON = Proc.readFile(out + "/status.json") ?? ""
        #expect(statusJSON.contains("\"active\":true"), "ctl status: \(statusJSON)")
        #expect(statusJSON.contains("\"displays\":[{\"name\":\"Virtual-1\",\"width\":\(w),\"height\":\(h),"), "ctl status: \(statusJSON)")

        // The screendumps against offscreen renders of the state each was taken in.
        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.hasSuffix("end\n"), "the guest script did not finish: \(manifest)")
        let refs = Refs(dir: out)
        var shots: [String] = []
        var timing: [String: [Double]] = [:]
        for line in manifest.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count == 1, f[0].hasPrefix("timing ") {
                let t = f[0].split(separator: " ").map(String.init)
                timing[t[1]] = t.dropFirst(2).compactMap(Double.init)
                continue
            }
            // A screen that must be another program's solid colour (the hidden daemon showed nothing).
            if f.count == 3, f[0] == "solid" {
                guard let ppm = PPM(path: out + "/" + f[1]), let rgb = UInt32(f[2], radix: 16) else { Issue.record("\(f[1]): not a PPM"); clean = false; continue }
                let want = [UInt8(rgb >> 16 & 0xff), UInt8(rgb >> 8 & 0xff), UInt8(rgb & 0xff)]
                let solid = stride(from: 0, to: ppm.rgb.count, by: 3).allSatisfy { Array(ppm.rgb[$0..<$0 + 3]) == want }
                #expect(solid, "\(f[1]): not the other program's #\(f[2]) (the hidden daemon drew over the card it does not have)")
                if !solid { clean = false }
                continue
            }
            guard f.count >= 2, f[0] == "shot" else { continue }
            let file = f[1], state = Array(f.dropFirst(2))
            shots.append(String(file.dropFirst("daemon-".count).dropLast(".ppm".count)))
            guard let ppm = PPM(path: out + "/" + file) else { Issue.record("\(file): not a PPM"); clean = false; continue }
            let ref = try refs.render(state, width: ppm.width, height: ppm.height, phase: nil)
            let d = VMDisplayTests().diff(ppm, ref, .none)
            #expect(d == 0, "\(file): \(d) pixels differ from `kiosk-hud render --size \(ppm.width)x\(ppm.height) \(state.joined(separator: " "))`")
            if d != 0 { clean = false }
        }
        #expect(shots == Self.shots, "screendumps taken: \(shots)")

        // Timings (TCG: compare, do not quote as absolute).
        func medianMs(_ key: String) -> String { timing[key].map { ms(median($0) / 1000) } ?? "?" }
        print("[daemon] request → reply, medians of 20 (TCG guest): kiosk-hud ctl update \(medianMs("ctl-update-us")) ms, " +
              "ctl ping \(medianMs("ctl-ping-us")) ms (fork + exec + request + exit); on one connection: update \(medianMs("proto-update-us")) ms, " +
              "update until its frame is drawn \(medianMs("proto-drawn-us")) ms, ping \(medianMs("proto-ping-us")) ms")
        #expect(timing["ctl-update-us"]?.count == 20 && timing["proto-update-us"]?.count == 20, "timings: \(timing)")

        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[daemon] kept \(out) for inspection") }
    }

    /// The button's centre in picture pixels in the tap state, from `kiosk-hud render --print-layout`.
    func buttonCentre(width: Int, height: Int) throws -> (x: Double, y: Double) {
        let dir = Proc.makeTempDir("kiosk-layout")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let r = Proc.run([Proc.kioskHUD, "render", "--size", "\(width)x\(height)", "--print-layout", "-o", dir + "/l.png"] + Self.tapState)
        guard r.status == 0, let line = r.out.split(separator: "\n").first(where: { $0.hasPrefix("button ") }) else {
            throw RefError(description: "kiosk-hud render --print-layout: exit \(r.status): \(r.out) \(r.err)")
        }
        let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard v.count == 4 else { throw RefError(description: "bad layout line: \(line)") }
        return (v[0] + v[2] / 2, v[1] + v[3] / 2)
    }
}
