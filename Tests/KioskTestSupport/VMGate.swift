import KioskSys

/// The rule for the suites that boot a VM (Tests/VM): when one cannot run here (no QEMU, no
/// harness, a guest that does not boot), it says so loudly and fails — never passes silently —
/// unless KIOSK_VM_ALLOW_SKIP=1 asks to skip on purpose.
public enum VMGate {
    /// KIOSK_VM_ALLOW_SKIP=1.
    public static let allowSkip = environmentValue("KIOSK_VM_ALLOW_SKIP") == "1"

    /// Prints "!!!!! SUITE CANNOT RUN …: why" and returns the issue the caller records, or nil
    /// when skipping is allowed. (This module does not import Testing; the caller records it.)
    public static func cannotRun(_ suite: String, _ why: String) -> String? {
        let message = "\(suite) CANNOT RUN on this machine: \(why)"
        if allowSkip {
            print("!!!!! \(message) — skipped because KIOSK_VM_ALLOW_SKIP=1")
            return nil
        }
        print("!!!!! \(message)")
        return message + " (set KIOSK_VM_ALLOW_SKIP=1 to skip on purpose)"
    }
}
