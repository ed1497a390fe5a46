// The package built and tested with Debian 13's own Swift (swiftlang 6.0.3, what a Raspberry Pi
// OS user gets from apt), in a Debian 13 root of its own (Tools/debian13.sh): every module and
// every test target compiles with it, and the suites that need neither a QEMU guest nor the
// host's tools pass. (This run's own compiler, 6.3.1, runs everything.)
//
// By hand, not in every run: `KIOSK_DEBIAN13_TESTS=1 swift test --filter Debian13SwiftTests`
// (before a release, and after a change to what 6.0.3 might not take: Swift Testing's API, new
// language features). It is a debug build of every module and test target with one job — on
// two CPUs beside the guests it was still compiling 35 minutes into a run's tests (2026-11-28;
// that CI run took 52 minutes in all) — then ~5 min of tests. Every run still builds every
// module of the program with 6.0.3: the arm64 cross build (Arm64BuildTests, release), whose
// binary draws what the x86-64 one draws and runs on the arm64 kernel (VMArm64Tests).
import KioskSys
import KioskTestSupport
import Testing

@Suite struct Debian13SwiftTests {
    /// Left out inside the root, which is no running system: the QEMU suites (this run boots them;
    /// their guest's root is the host's Debian 12; "VM" matches them all, the boot benchmark's
    /// smoke run VMBootBenchTests is named too: it boots four guests), the boot units' suite (it starts them under a
    /// systemd manager) and the shutdown units' (systemd-analyze verify: the root has no systemd
    /// package) and the socket activation's (systemd-socket-activate plays systemd: the
    /// root has no systemd package), the TOML suite (Debian 13's toml-test files count some TOML
    /// 1.1 cases as valid; the host's Debian 12 ones are the reference), the link order's (a
    /// release build of its own, checked against the names this run's compiler gives:
    /// docs/measurements.md says how much of it 6.0.3's binary keeps), the fuzz harness's soak
    /// (its limits are wall-clock and RSS, and beside the guests of the whole run it failed once;
    /// 6.3.1's run keeps it), the update frameworks' suites run with the real programs (they
    /// test against Debian 12's swupdate and rauc, which the host has; this root would need its
    /// own, of other versions), the Wayland overlay's (sway and grim are the host's; labwc's
    /// test runs in this root from the host: LabwcOverlayTests) and this target (a root in the root).
    static let skipped = ["VM", "VMBootBenchTests", "BootUnitsTests", "ShutdownUnitsTests", "SWUpdateCommandTests", "RaucDaemonTests", "DaemonActivationTests", "TOMLSuiteTests", "KioskLinkOrderTests", "WaylandOverlayTests",
                          "FuzzTests", "KioskToolchainTests"]

    @Test(.enabled(if: environmentValue("KIOSK_DEBIAN13_TESTS") == "1"))
    func buildsAndPassesWithSwift603() async throws {
        let r = await onOwnThread { () -> (status: Int32, out: String, err: String) in
            Debian13.exclusive("the 6.0.3 build and tests") {
                let test = "nice -n 10 swift build --build-tests -j 1 && swift test --skip-build " + Self.skipped.map { "--skip \($0)" }.joined(separator: " ")
                return Proc.run([Proc.root + "/Tools/debian13.sh", "run", "sh", "-c", "swift --version && " + test + " 2>&1"])
            }
        }
        let version = r.out.split(separator: "\n").first { $0.hasPrefix("Swift version") }
        #expect(version?.hasPrefix("Swift version 6.0.3 ") == true, "\(r.out.prefix(500))")
        // Swift Testing's count line, as CI reads it: "Test run with N tests in M suites passed after …".
        let summary = r.out.split(separator: "\n").last { $0.contains("Test run with") }
        #expect(r.status == 0 && summary?.contains(" passed after ") == true,
                "status \(r.status): \(summary ?? "no summary")\n\(r.out.suffix(6000))\n\(r.err.suffix(2000))")
        print("Debian 13 swiftlang: \(summary ?? "")")
    }
}
