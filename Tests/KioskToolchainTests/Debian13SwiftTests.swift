// The package built and tested with Debian 13's own Swift (swiftlang 6.0.3, what a Raspberry Pi
// OS user gets from apt), in a Debian 13 root of its own (Tools/debian13.sh): every module and
// every test target compiles with it, and the suites that need neither a QEMU guest nor the
// host's tools pass. (This run's own compiler, 6.3.1, runs everything.)
import KioskSys
import KioskTestSupport
import Testing

@Suite struct Debian13SwiftTests {
    /// Left out inside the root: the QEMU suites (the 6.3.1 run boots them; they need the host's
    /// Debian 12 as the guest's root) and this target (it would build the root inside itself).
    static let skipped = ["VM", "KioskToolchainTests"]

    @Test func buildsAndPassesWithSwift603() async throws {
        let r = await onOwnThread { () -> (status: Int32, out: String, err: String) in
            let slot = VMSlots.acquire()
            defer { VMSlots.release(slot) }
            let test = "swift build --build-tests && swift test --skip-build " + Self.skipped.map { "--skip \($0)" }.joined(separator: " ")
            return Proc.run([Proc.root + "/Tools/debian13.sh", "run", "sh", "-c", "swift --version && " + test + " 2>&1"])
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
