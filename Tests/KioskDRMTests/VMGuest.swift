import KioskTestSupport
import Testing

/// The end of a VM run (Proc.runVM) read the same way by every real-kernel suite here: a run
/// that could not boot (run-in-vm.sh's 124/125 before any check) is recorded as VMGate says (an
/// issue, unless KIOSK_VM_ALLOW_SKIP=1) and gives nil; otherwise the exit status is expected to
/// be 0, each "FAIL …" line of the guest script is an issue, "info …" lines are printed with
/// `[tag]`, and every name in `checks` must have its "ok NAME" line (at least `atLeast` ok lines
/// in all). Returns whether all of that held.
func guestVerdict(_ run: (status: Int32, stdout: String, stderr: String), suite: String, tag: String,
                  checks: [String] = [], atLeast: Int = 0) -> Bool? {
    let (status, stdout, stderr) = run
    if (status == 124 || status == 125) && !stdout.contains("ok ") {
        if let issue = VMGate.cannotRun(suite, "run-in-vm.sh exit \(status): \(stderr.suffix(2000))") {
            Issue.record(Comment(rawValue: issue))
        }
        return nil
    }
    #expect(status == 0, "run-in-vm.sh exit \(status): \(stderr.suffix(3000))")
    var clean = status == 0
    var oks: Set<String> = [], count = 0
    for line in stdout.split(separator: "\n") {
        if line.hasPrefix("ok ") {
            oks.insert(String(line.dropFirst(3).prefix { $0 != ":" }))
            count += 1
        } else if line.hasPrefix("FAIL ") {
            Issue.record(Comment(rawValue: String(line)))
            clean = false
        } else if line.hasPrefix("info ") {
            print("[\(tag)] \(line)")
        }
    }
    for name in checks where !oks.contains(name) {
        Issue.record("no 'ok \(name)' from the guest:\n\(stdout)\n\(stderr.suffix(2000))")
        clean = false
    }
    if count < atLeast {
        Issue.record("only \(count) checks passed in the guest (at least \(atLeast)):\n\(stdout)\n\(stderr.suffix(2000))")
        clean = false
    }
    return clean
}

/// Whether QEMU, the kernels and the harness are there (`VMDisplayTests.problem` is nil); when
/// not, what is missing is recorded for `suite` as VMGate says (an issue, unless
/// KIOSK_VM_ALLOW_SKIP=1).
func vmHarnessReady(_ suite: String) -> Bool {
    guard let p = VMDisplayTests.problem else { return true }
    if let issue = VMGate.cannotRun(suite, "missing \(p)") { Issue.record(Comment(rawValue: issue)) }
    return false
}

/// Tests/VM/ref/uinput-touch.c (a uinput touch screen the guest drives) built into `dir`: its
/// path, or nil with the failure recorded for `suite` as VMGate says.
func uinputTouchTool(in dir: String, suite: String) -> String? {
    let tool = dir + "/uinput-touch"
    let gcc = Proc.run(["gcc", "-O2", "-Wall", "-o", tool, Proc.root + "/Tests/VM/ref/uinput-touch.c"])
    if gcc.status == 0 { return tool }
    if let issue = VMGate.cannotRun(suite, "gcc uinput-touch.c failed: \(gcc.err)") { Issue.record(Comment(rawValue: issue)) }
    return nil
}
