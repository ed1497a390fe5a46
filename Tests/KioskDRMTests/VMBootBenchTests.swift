import KioskTestSupport
import Glibc
import Testing

/// The boot benchmark's smoke run (Tests/VM/bootbench/run.sh, #28): one boot of each kind — no
/// splash, Debian's Plymouth, kiosk-hud's package on a first boot and on a later one (its frame
/// cache) — of the Debian 12 guest under QEMU (`run-in-vm.sh --systemd`), with the kiosk-hud this
/// test run built. Checked: every boot ran to its end, and the benchmark produced every figure of
/// its kind (the first content on screen from the host's screendumps, multi-user.target, the
/// splash's start; kiosk-hud's first frame and its `first-frame phases` line) and the Markdown
/// table with the goals — not the figures' values (docs/measurements.md has those, from a release
/// build over several rounds). Four boots, ~1–3 min each under TCG. If the VM cannot run, the test
/// FAILS, loudly, unless KIOSK_VM_ALLOW_SKIP=1.
@Suite struct VMBootBenchTests {
    static let kinds = ["none", "plymouth", "kiosk-first", "kiosk-cached"]
    /// results.tsv's columns, as bench.py writes them.
    static let columns = ["round", "kind", "first", "first_err", "multi-user", "systemd", "sysinit", "splash-exec",
                          "splash-frame", "splash-ready", "splash-quit", "phases"]
    /// The figures each kind must have.
    static let figures: [String: [String]] = [
        "none": ["first", "first_err", "multi-user", "systemd", "sysinit"],
        "plymouth": ["first", "first_err", "multi-user", "systemd", "sysinit", "splash-exec", "splash-ready", "splash-quit"],
        "kiosk-first": ["first", "first_err", "multi-user", "systemd", "sysinit", "splash-exec", "splash-frame", "splash-ready", "phases"],
        "kiosk-cached": ["first", "first_err", "multi-user", "systemd", "sysinit", "splash-exec", "splash-frame", "splash-ready", "phases"],
    ]

    static let problem: String? = {
        var missing: [String] = VMBootTests.problem.map { [$0] } ?? []
        if !Proc.executable("apt-get") { missing.append("apt-get (Plymouth's .debs are downloaded with it)") }
        return missing.isEmpty ? nil : missing.joined(separator: ", ")
    }()

    @Test(.timeLimit(.minutes(60)))
    func oneBootOfEachKind() async throws {
        if let p = Self.problem {
            if let issue = VMGate.cannotRun("VM BOOT BENCH", "missing \(p)") { Issue.record(Comment(rawValue: issue)) }
            return
        }
        // Not under /tmp: the booted guest's systemd-tmpfiles empties /tmp.
        let out = VMBootTests.makeDirectory("/var/tmp/kiosk-vm-bootbench.XXXXXX")
        // The release kiosk-hud, as a board has it (VMShutdownTests' and LinkOrderTests' build):
        // a debug build's start-up costs the guest's one CPU ~20 s a boot under TCG.
        guard let binary = await VMShutdownTests.releaseBinary() else { return }
        let run = await onOwnThread {
            Proc.run([Proc.root + "/Tests/VM/bootbench/run.sh", "-n", "1", "--binary", binary, "--out", out])
        }
        print("[bootbench] exit \(run.status); rows:\n\(run.err.suffix(3000))\n\(run.out)")
        #expect(run.status == 0, "run.sh exit \(run.status): \(run.err.suffix(3000))")
        let rows = (Proc.readFile(out + "/results.tsv") ?? "").split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(rows.first == Self.columns, "results.tsv's header: \(rows.first ?? [])")
        var clean = run.status == 0
        for kind in Self.kinds {
            guard let row = rows.first(where: { $0.count > 1 && $0[1] == kind }) else {
                Issue.record("no row for \(kind) in results.tsv"); clean = false; continue
            }
            for figure in Self.figures[kind] ?? [] {
                let i = Self.columns.firstIndex(of: figure)!
                let value = i < row.count ? row[i] : ""
                let present = figure == "phases" ? value.hasPrefix("phases ") : Double(value) != nil
                #expect(present, "\(kind): no \(figure) (\(value.isEmpty ? "empty" : value))")
                if !present { clean = false }
            }
        }
        // The table people paste: a row per kind and the goals.
        for line in ["| boot | n | first content on screen |", "| no splash | 1 |", "| Plymouth (spinner) | 1 |",
                     "| kiosk-hud, first boot (drawn) | 1 |", "| kiosk-hud, later boot (frame cache) | 1 |",
                     "- goal, kiosk-hud, first boot (drawn): first content", "- goal, kiosk-hud, first boot (drawn): cost to multi-user.target",
                     "- goal, kiosk-hud, later boot (frame cache): first content"] {
            #expect(run.out.contains(line), "the table has no '\(line)': \(run.out)")
            if !run.out.contains(line) { clean = false }
        }
        if clean { _ = Proc.run(["rm", "-rf", out]) } else { print("[bootbench] kept \(out) for inspection") }
    }
}
