import KioskTestSupport
import Testing

/// The VM suites' rule: a VM that cannot run is a failure with a loud message, unless skipping
/// was asked for.
@Suite struct VMGateTests {
    @Test func cannotRunIsAnIssueUnlessSkippingIsAllowed() {
        let issue = VMGate.cannotRun("SOME VM SUITE", "missing qemu")
        if VMGate.allowSkip {
            #expect(issue == nil)
        } else {
            #expect(issue == "SOME VM SUITE CANNOT RUN on this machine: missing qemu (set KIOSK_VM_ALLOW_SKIP=1 to skip on purpose)")
        }
    }
}
