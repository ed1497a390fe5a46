// PollEventLoop's header promises that a turn with nothing to do allocates nothing (the loop
// turns for every timer and event of a daemon that runs for months). Counted by glibc itself:
// kiosk-hud-bench --loop-idle runs idle turns between mtrace() and muntrace() with glibc's
// malloc debugging library preloaded, which writes one "+" line per malloc to MALLOC_TRACE; two
// runs of different lengths must list the same number (none per turn).
import Glibc
import KioskTestSupport
import Testing

@Suite struct LoopIdleAllocationTests {
    /// glibc's libc_malloc_debug.so.0 (libc6, Debian 12 on), where mtrace() works.
    static let mallocDebug: String? = {
        for dir in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu"] {
            if Proc.exists(dir + "/libc_malloc_debug.so.0") { return dir + "/libc_malloc_debug.so.0" }
        }
        return nil
    }()

    /// The mallocs of `turns` idle turns (after 100 to settle), as mtrace lists them.
    static func mallocs(turns: Int, in dir: String) -> Int? {
        let trace = dir + "/trace-\(turns)"
        let bench = String(Proc.kioskHUD.dropLast("kiosk-hud".count)) + "kiosk-hud-bench"
        let r = Proc.run([bench, "--loop-idle", "\(turns)"], env: ["LD_PRELOAD": mallocDebug ?? "", "MALLOC_TRACE": trace])
        guard r.status == 0, r.out.contains("loop-idle: \(turns) idle turns") else {
            Issue.record("kiosk-hud-bench --loop-idle \(turns): status \(r.status)\n\(r.out)\(r.err)")
            return nil
        }
        guard let text = Proc.readFile(trace) else { Issue.record("no trace at \(trace) (mtrace did not start)"); return nil }
        #expect(text.hasPrefix("= Start"), "not an mtrace file: \(text.prefix(80))")
        return text.split(separator: "\n").filter { $0.hasPrefix("@") && $0.contains(" + ") }.count
    }

    @Test func anIdleTurnAllocatesNothing() throws {
        guard Self.mallocDebug != nil else { Issue.record("libc_malloc_debug.so.0 is missing (libc6)"); return }
        let dir = Proc.makeTempDir("kiosk-loop-idle")
        defer { _ = Proc.run(["rm", "-rf", dir]) }
        let short = try #require(Self.mallocs(turns: 100, in: dir))
        let long = try #require(Self.mallocs(turns: 2100, in: dir))
        print("LoopIdleAllocationTests: mallocs in 100 idle turns \(short), in 2,100 \(long)")
        #expect(long == short, "2,000 more idle turns made \(long - short) more mallocs")
    }
}
