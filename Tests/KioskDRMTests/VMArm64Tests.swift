import KioskTestSupport
import Glibc
import KioskPNG
import KioskSys
import Testing

/// The aarch64 kiosk-hud on a real arm64 kernel (#23): `run-in-vm.sh --arch arm64` boots Debian
/// 13's arm64 kernel under qemu-system-aarch64 (-M virt, TCG) with a root of Debian 13's arm64
/// packages and virtio-gpu-pci (virtio_gpu) at 800x480. One boot (Tests/VM/arm64/guest.sh):
/// `show` (its screendump, and drawn pressed under a uinput finger, must equal the x86
/// `kiosk-hud render` of the same HUD pixel for pixel — the same program), the lift on Cancel
/// ending `show --on-button exit` with 10, the daemon driven by `kiosk-hud ctl` and Debian's arm64
/// `plymouth` client (a screendump after each request), `run` cancelled by a tap (130), and exec →
/// first frame next to the C modeset program in the same boot, with kiosk-hud's RSS.
/// The binary: KIOSK_HUD_ARM64, else Tools/cross-build.sh's (CrossBuild.arm64). If it, QEMU or
/// the harness is missing the test FAILS, loudly, unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMArm64Tests {
    static let size = (w: 800, h: 480)
    static let qemuArgs = "-global virtio-gpu-pci.xres=800 -global virtio-gpu-pci.yres=480"
    static let checks = [
        "uinput", "show-first-frame", "show-button-exit",
        "plymouth-ping", "daemon-plymouth-system-update", "daemon-ctl-update", "daemon-plymouth-message", "daemon-status",
        "plymouth-quit", "daemon-exit", "run-cancel", "timing", "rss", "rss-quit",
    ]
    static let shots = ["show", "pressed", "daemon-start", "daemon-plymouth-system-update", "daemon-ctl-update", "daemon-plymouth-message"]

    /// The aarch64 kiosk-hud: KIOSK_HUD_ARM64 when set (a binary made elsewhere), else
    /// Tools/cross-build.sh's (CrossBuild.arm64: minutes the first time, made off the pool);
    /// nil when there is none (recorded as VMGate says).
    static func binary(_ suite: String) async -> String? {
        var path: String?, why = ""
        if let p = environmentValue("KIOSK_HUD_ARM64"), !p.isEmpty {
            if Proc.exists(p) { path = p } else { why = "KIOSK_HUD_ARM64=\(p) does not exist" }
        } else {
            switch await onOwnThread({ CrossBuild.arm64 }) {
            case let .success(b): path = b.binary
            case let .failure(f): why = "no arm64 kiosk-hud: \(f.description)"
            }
        }
        if path == nil, let issue = VMGate.cannotRun(suite, why) { Issue.record(Comment(rawValue: issue)) }
        return path
    }

    /// What the arm64 suites need besides the binary: the host's kiosk-hud (for `render`), and
    /// what `Tests/VM/prepare.sh --arch arm64` makes (it apt-installs QEMU, AAVMF and the cross
    /// compiler when missing, as on a fresh CI machine, and assembles the guest; minutes the
    /// first time, off the pool). False (recorded as VMGate says) when something is missing.
    static func canRun(_ suite: String) async -> Bool {
        var missing: [String] = []
        if !Proc.exists(Proc.kioskHUD) { missing.append("the kiosk-hud binary at \(Proc.kioskHUD)") }
        let prepare = await onOwnThread { Proc.run([Proc.root + "/Tests/VM/prepare.sh", "--arch", "arm64", "--quiet"]) }
        if prepare.status != 0 { missing.append("the arm64 guest (Tests/VM/prepare.sh --arch arm64: exit \(prepare.status): \(prepare.err.suffix(2000)))") }
        if !Proc.executable("qemu-system-aarch64") { missing.append("qemu-system-aarch64 (apt-get install qemu-system-arm)") }
        guard !missing.isEmpty else { return true }
        if let issue = VMGate.cannotRun(suite, "missing \(missing.joined(separator: ", "))") { Issue.record(Comment(rawValue: issue)) }
        return false
    }

    /// The host directory holding the aarch64 binary: the guest sees it at the same path.
    static func dir(_ path: String) -> String { String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }

    // 60: the time counts the cross-build it waits for (Debian 13's Swift, sharing 2 cores with
    // the other VM suites), not only the guest's 50 s.
    @Test(.timeLimit(.minutes(60)))
    func showDaemonAndRunOnVirtioGPU() async throws {
        guard await Self.canRun("VM ARM64 TESTS"), let bin = await Self.binary("VM ARM64 TESTS") else { return }
        let (w, h) = Self.size
        // Cancel's place in show's HUD and in run's, in uinput device coordinates (0..4095).
        func device(_ p: (x: Double, y: Double)) -> [String] {
            [String(Int((p.x * 4096 / Double(w)).rounded())), String(Int((p.y * 4096 / Double(h)).rounded()))]
        }
        let show = device(try VMShowInputTests().buttonCentre(width: w, height: h))
        let run = device(try VMRunTests().buttonCentre(width: w, height: h))
        let cache = (environmentValue("KIOSK_VM_CACHE") ?? Proc.root + "/.build-vm") + "/arm64"
        let out = Proc.makeTempDir("kiosk-vm-arm64")
        let args = ["--arch", "arm64", "--gpu", "virtio", "--share", Self.dir(bin), "--out", out, "--timeout", "600", "--",
                    "bash", Proc.root + "/Tests/VM/arm64/guest.sh", bin, cache + "/uinput-touch", cache + "/modeset"]
            + show + run + [VMRunTests.label]
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(args, qemuArgs: Self.qemuArgs, out: out)
        print("[arm64] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM ARM64 TESTS", tag: "arm64", checks: Self.checks) else { return }
        var clean = verdict

        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.hasSuffix("end\n"), "the guest script did not finish: \(manifest)")
        let refs = Refs(dir: out)
        var shots: [String] = []
        var timing: [String: [Double]] = [:]
        for line in manifest.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "timing": timing[words[1]] = words.dropFirst(2).compactMap(Double.init)
            case "rss":
                if let kb = Int(words[1]) { print("[arm64] kiosk-hud RSS at 800x480 (spinner, two scanout buffers): \(kb / 1024) MB (\(kb) kB)") }
            default:
                guard f.count >= 2, f[0] == "shot" else { continue }
                shots.append(String(f[1].dropFirst("arm64-".count).dropLast(".ppm".count)))
                guard let ppm = PPM(path: out + "/" + f[1]) else { Issue.record("\(f[1]): not a PPM"); clean = false; continue }
                let state = Array(f.dropFirst(2))
                let ref = try refs.render(state, width: ppm.width, height: ppm.height, phase: nil)
                let d = VMDisplayTests().diff(ppm, ref, .none)
                #expect(d == 0, "\(f[1]): \(d) pixels differ from `kiosk-hud render --size \(ppm.width)x\(ppm.height) \(state.joined(separator: " "))`")
                if d != 0 { clean = false }
            }
        }
        #expect(shots == Self.shots, "screendumps taken: \(shots)")
        if let c = timing["modeset"], let k = timing["kiosk-hud"], let d = timing["kiosk-hud-drawn"], !c.isEmpty, !k.isEmpty, !d.isEmpty {
            let mc = median(c)
            print("[arm64] exec -> first frame on virtio-gpu, same boot (medians of \(c.count), TCG): modeset.c \(ms(mc)) ms, " +
                  "kiosk-hud \(ms(median(k))) ms: ratio \(ms(median(k) / mc)); without the frame cache \(ms(median(d))) ms: ratio \(ms(median(d) / mc)) (\(bin))")
            #expect(median(k) / mc < 40, "kiosk-hud takes \(median(k) / mc)x as long as modeset.c to the first frame")
        } else {
            Issue.record("no timing from the guest: \(timing)")
        }
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[arm64] kept \(out) for inspection") }
    }

    /// AAVMF (Debian's qemu-efi-aarch64) boots the kernel's EFI stub: its framebuffer (a ramfb:
    /// AAVMF's virtio-gpu driver only blits, so gives no linear framebuffer) is efifb, /dev/fb0 at
    /// 800x600, with virtio_gpu held back by the initramfs. `show` starts on efifb; `modprobe
    /// virtio-gpu` registers card0 (efifb stays: virtio-gpu-pci is no VGA device, so nothing
    /// removes it) and the HUD must follow to the card, a better device (Tests/VM/takeover/guest.sh,
    /// as the x86 OVMF takeover test runs it). Each screendump must equal `kiosk-hud render` at
    /// one of the spinner's 12 phases, at the device's size.
    // 60: the time counts the cross-build it waits for (Debian 13's Swift, sharing 2 cores with
    // the other VM suites), not only the guest's 50 s.
    @Test(.timeLimit(.minutes(60)))
    func takeoverFromEFIFBToVirtioGPU() async throws {
        guard await Self.canRun("VM ARM64 TAKEOVER TEST"), let bin = await Self.binary("VM ARM64 TAKEOVER TEST") else { return }
        guard Proc.exists("/usr/share/AAVMF/AAVMF_CODE.fd") else {
            if let issue = VMGate.cannotRun("VM ARM64 TAKEOVER TEST", "missing /usr/share/AAVMF/AAVMF_CODE.fd (apt-get install qemu-efi-aarch64)") {
                Issue.record(Comment(rawValue: issue))
            }
            return
        }
        let vm = ["--arch", "arm64", "--gpu", "virtio", "--efi", "--hold", "virtio-gpu", "--share", Self.dir(bin),
                  "--env", "KIOSK_TAKEOVER_DRIVER=virtio-gpu", "--env", "KIOSK_TAKEOVER_CARD=virtio_gpu", "--env", "KIOSK_TAKEOVER_HEAD=0",
                  "--env", "KIOSK_TAKEOVER_DMESG=Initialized virtio_gpu"]
        guard let (out, manifest, verdict) = await VMDisplayTests.takeover("guest.sh", [bin], tag: "arm64-takeover", atLeast: 5,
                                                                          qemuArgs: Self.qemuArgs, vm: vm) else { return }
        let clean = try VMDisplayTests.checkTakeoverShots(out: out, manifest: manifest, tag: "arm64-takeover") && verdict
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[arm64-takeover] kept \(out) for inspection") }
    }
}
