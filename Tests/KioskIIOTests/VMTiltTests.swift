// Real kernel: the mxc4005 IIO driver on i2c-stub in the QEMU harness (Tests/VM), read by the
// built `kiosk-hud tilt` while Tests/VM/guest/tilt-mxc4005.sh tilts it with i2cset. Loud failure
// if the VM cannot run, unless KIOSK_VM_ALLOW_SKIP=1.
import KioskTestSupport
import Foundation
import KioskSys
import Testing

/// Tests/KioskIIOTests/<this file> → the package root.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite struct VMTiltTests {
    @Test(.timeLimit(.minutes(60)))
    func mxc4005OnI2cStubMovesTheOffsetAndBack() async throws {
        func cannotRun(_ why: String) {
            if let issue = VMGate.cannotRun("VMTiltTests", why) { Issue.record(Comment(rawValue: issue)) }
        }
        // `swift test` builds the executables next to the test bundle.
        let exe = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let bin = exe.deletingLastPathComponent().appendingPathComponent("kiosk-hud").path
        guard FileManager.default.isExecutableFile(atPath: bin) else {
            Issue.record("no kiosk-hud beside the tests at \(bin) (swift test should have built it)")
            return
        }
        let guest = packageRoot.appendingPathComponent("Tests/VM/guest/tilt-mxc4005.sh").path
        let out = Proc.makeTempDir("kiosk-vm-tilt")
        defer { _ = Proc.run(["rm", "-rf", out]) }

        // The guest runs for minutes (longer when it waits for a VM slot): off the cooperative pool.
        let started = Date()
        let (status, outText, errText) = await Proc.runVM(["--gpu", "none", "--no-udev", "--timeout", "150", "--", guest, bin, "10"],
                                                          qemuArgs: "", out: out)
        let seconds = Date().timeIntervalSince(started)

        let lines = outText.split(separator: "\n").map(String.init)
        let oks = lines.filter { $0.hasPrefix("ok ") }
        let fails = lines.filter { $0.hasPrefix("FAIL ") }
        for l in lines where l.hasPrefix("info ") { print("vm: \(l.dropFirst(5))") }
        print("vm: \(oks.count) ok, \(fails.count) failed, exit \(status), \(Int(seconds)) s")

        if (status == 124 || status == 125) && oks.isEmpty {
            cannotRun("run-in-vm.sh exit \(status): \(errText.split(separator: "\n").suffix(15).joined(separator: "\n"))")
            return
        }
        for f in fails { Issue.record("\(f)") }
        #expect(status == 0, "guest script exit \(status); stderr:\n\(errText.suffix(3000))")
        let want = ["mxc4005-iio", "level", "right-45", "level-again", "left-45", "top-down-45", "bottom-down-45",
                    "right-15", "level-3", "right-before-removal", "eased-back-after-removal", "lost-logged",
                    "reattached", "reattach-logged", "level-after-reattach"]
        #expect(oks.map { String($0.dropFirst(3)) } == want, "\(outText)")
    }
}
