import KioskTestSupport
import Glibc
import KioskSeams
@testable import KioskDRM
import KioskPNG
import KioskSys
import Testing

/// The takeover on a real kernel (#19): UEFI firmware (Debian's ovmf) and the kernel's EFI stub
/// under QEMU, so the firmware's framebuffer is efifb (/dev/fb0, 1280x800), with bochs-drm held
/// back by the initramfs. `kiosk-hud show` (no --card/--fbdev) starts on efifb; `modprobe bochs`
/// unregisters efifb and registers card0; the HUD must follow (Tests/VM/takeover/guest.sh). The
/// screendumps before, right after the switch line, 0.25 s and 0.55 s later must each equal `kiosk-hud
/// render` of the same HUD at the device's size at one of the spinner's 12 phases, and the last
/// three must not all be alike (the spinner keeps turning across the switch). An extension of VMDisplayTests,
/// so that runs which leave the VM suites out leave this one out too.
extension VMDisplayTests {
    /// QEMU, the harness and UEFI firmware are there; else the failure (or the allowed skip) is recorded.
    static func canRunTakeover() -> Bool {
        guard vmHarnessReady("VM TAKEOVER TEST") else { return false }
        guard Proc.exists("/usr/share/ovmf/OVMF.fd") else {
            if let issue = VMGate.cannotRun("VM TAKEOVER TEST", "missing /usr/share/ovmf/OVMF.fd (apt-get install ovmf)") {
                Issue.record(Comment(rawValue: issue))
            }
            return false
        }
        return true
    }

    /// Boots the UEFI guest with bochs-drm held back and runs Tests/VM/takeover/SCRIPT ARGS in it:
    /// the output directory, the manifest's lines (the script must have finished), and whether
    /// the guest's own checks passed; nil when the run gave no verdict (recorded already).
    /// `vm`: the harness's options for the guest (the arm64 one: VMArm64Tests).
    static func takeover(_ script: String, _ args: [String], tag: String, atLeast: Int, qemuArgs: String = "",
                         vm: [String] = ["--efi", "--hold", "bochs"]) async
        -> (out: String, manifest: [Substring], clean: Bool)? {
        let out = Proc.makeTempDir("kiosk-vm-\(tag)")
        let vmArgs = vm + ["--out", out, "--timeout", "480", "--",
                           "bash", Proc.root + "/Tests/VM/takeover/" + script] + args
        let t0 = monotonicSeconds()
        let (status, stdout, stderr) = await Proc.runVM(vmArgs, qemuArgs: qemuArgs, out: out)
        print("[\(tag)] VM run took \(Int(monotonicSeconds() - t0)) s, exit \(status); files in \(out)")
        guard let verdict = guestVerdict((status, stdout, stderr), suite: "VM TAKEOVER TESTS", tag: tag, atLeast: atLeast) else { return nil }
        let manifest = Proc.readFile(out + "/manifest") ?? ""
        #expect(manifest.contains("\nend"), "the guest script did not finish: \(manifest)")
        return (out, manifest.split(separator: "\n"), verdict)
    }

    @Test(.timeLimit(.minutes(60)))
    func takeoverFromEFIFBToBochs() async throws {
        guard VMDisplayTests.canRunTakeover() else { return }
        guard let (out, manifest, verdict) = await Self.takeover("guest.sh", [Proc.kioskHUD], tag: "takeover", atLeast: 5) else { return }
        let clean = try Self.checkTakeoverShots(out: out, manifest: manifest, tag: "takeover") && verdict
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[takeover] kept \(out) for inspection") }
    }

    /// Takeover/guest.sh's screendumps: each equals `kiosk-hud render` of its HUD at the device's
    /// size at one of the spinner's 12 phases, and the spinner turned after the switch.
    static func checkTakeoverShots(out: String, manifest: [Substring], tag: String) throws -> Bool {
        var clean = true
        let refs = Refs(dir: out)
        var kind: [String] = []
        var phases: [String: Int] = [:]
        for line in manifest {
            let f = line.split(separator: " ").map(String.init)
            switch f.first {
            case "kind": kind = Array(f.dropFirst())
            case "timing": print("[\(tag)] \(line)")
            case "shot":
                guard let ppm = PPM(path: out + "/" + f[1]) else { Issue.record("\(f[1]): not a PPM"); clean = false; continue }
                var matched: Int?
                for p in 0..<12 where matched == nil {
                    let ref = try refs.render(kind, width: ppm.width, height: ppm.height, phase: p)
                    if VMDisplayTests().diff(ppm, ref, .none) == 0 { matched = p }
                }
                #expect(matched != nil, "\(f[1]) (\(f[2]), \(ppm.width)x\(ppm.height)) equals none of the 12 spinner phases rendered offscreen")
                if matched == nil { clean = false }
                phases[f[1]] = matched
            default: break
            }
        }
        #expect(phases.count == 4, "screendumps matched: \(phases)")
        // Two shots could be a whole turn apart (a screendump takes a while under TCG): of three, not all alike.
        let after = ["after.ppm", "later.ppm", "later2.ppm"].compactMap { phases[$0] }
        #expect(after.count == 3 && Set(after).count > 1, "the spinner did not turn after the switch: phases \(after)")
        return clean && phases.count == 4 && after.count == 3 && Set(after).count > 1
    }

    /// The daemon through the takeover, with a C modeset client that takes card0 first and holds
    /// it (Tests/VM/takeover/daemon.sh): the daemon says card0 is held and keeps asking; once the
    /// client lets go it is back within 1 s (2 s for a debug build, below); every progress update sent meanwhile was answered,
    /// psplash's FIFO too (its label), and the last state is what the status says and the screen shows (`kiosk-hud render` of it
    /// at card0's size); the screendump while the client held card0 is the client's red.
    @Test(.timeLimit(.minutes(60)))
    func daemonThroughTheTakeoverWithAClientFirst() async throws {
        guard VMDisplayTests.canRunTakeover() else { return }
        let cache = getenv("KIOSK_VM_CACHE").map { String(cString: $0) } ?? Proc.root + "/.build-vm"
        // The card taken again within 1 s of the client's release (the issue's bound; the daemon
        // asks every 0.1 s). Bounded is the open, not the first frame after it: that is the
        // renderer under TCG — 0.2–0.7 s for a debug build with the host to itself, 2–2.8 s while
        // other guests run (two CI runs failed so on a 2 s bound) — which a timed test would
        // measure of the host. A debug build is held to 2 s all the same.
        let limit = Proc.kioskHUD.contains("/debug/") ? "2.0" : "1.0"
        guard let (out, manifest, verdict) = await Self.takeover("daemon.sh", [Proc.kioskHUD, cache + "/modeset", limit], tag: "takeover-daemon",
                                                                 atLeast: 10, qemuArgs: "-global VGA.xres=800 -global VGA.yres=480") else { return }
        var clean = verdict
        let refs = Refs(dir: out)
        var kind: [String] = []
        var matched: [String] = []
        for line in manifest {
            let f = line.split(separator: " ").map(String.init)
            switch f.first {
            case "kind": kind = Array(f.dropFirst())
            case "timing": print("[takeover-daemon] \(line)")
            case "shot" where f.count >= 3:
                guard let ppm = PPM(path: out + "/" + f[1]) else { Issue.record("\(f[1]): not a PPM"); clean = false; continue }
                if f[2] == "client" {
                    let red = stride(from: 0, to: ppm.rgb.count, by: 3).allSatisfy {
                        ppm.rgb[$0] == 255 && ppm.rgb[$0 + 1] == 0 && ppm.rgb[$0 + 2] == 0
                    }
                    #expect(red, "\(f[1]): not the modeset client's red while it held card0")
                    if red { matched.append(f[1]) } else { clean = false }
                    continue
                }
                guard f.count >= 5 else { continue }
                let ref = try refs.render(kind + ["--progress", f[3], "--label", f[4]], width: ppm.width, height: ppm.height, phase: nil)
                let same = diff(ppm, ref, .none) == 0
                #expect(same, "\(f[1]) (\(f[2]), \(ppm.width)x\(ppm.height)) differs from kiosk-hud render at progress \(f[3]), label \(f[4])")
                if same { matched.append(f[1]) } else { clean = false }
            default: break
            }
        }
        #expect(matched.count == 5, "screendumps as expected: \(matched)")
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[takeover-daemon] kept \(out) for inspection") }
    }
}
