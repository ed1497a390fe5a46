// `kiosk-hud-bench --loop-idle TURNS`: the event loop's idle turns, for counting what they
// allocate. A PollEventLoop watches a pipe nobody writes and holds a timer an hour away, runs 100
// turns to settle, then TURNS more (poll with a zero timeout) between glibc's mtrace() and
// muntrace(): run under LD_PRELOAD=libc_malloc_debug.so.0 with MALLOC_TRACE=FILE, the file lists
// every malloc of those turns ("+ ADDRESS SIZE" lines). PollEventLoop's header says an idle turn
// allocates nothing; LoopIdleAllocationTests holds it to that by comparing two runs' counts.
import Glibc
import KioskSeams
import KioskSys

func runLoopIdle(turns: Int) -> Bool {
    let loop = PollEventLoop(clock: SystemClock())
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { print("loop-idle: pipe failed"); return false }
    _ = loop.watch(fds[0], .readable) { _ in }
    _ = loop.schedule(after: 3600) {}
    do {
        for _ in 0..<100 { try loop.runOnce(timeout: 0) }
        // The preloaded library's own mtrace: libc.so.6 keeps a stub of the same name that does
        // nothing (glibc 2.34 on), and plain dlsym finds that one.
        typealias Trace = @convention(c) () -> Void
        let handle = dlopen("libc_malloc_debug.so.0", RTLD_NOW | RTLD_NOLOAD)
        // dlvsym is a GNU extension Swift's Glibc leaves out: found by name.
        typealias VersionedSymbol = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
        let dlvsym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dlvsym").map { unsafeBitCast($0, to: VersionedSymbol.self) }
        func traceCall(_ name: String) -> Trace? {
            for version in ["GLIBC_2.2.5", "GLIBC_2.17"] {   // x86-64's and arm64's first glibc
                if let f = dlvsym?(handle, name, version) { return unsafeBitCast(f, to: Trace.self) }
            }
            return nil
        }
        let start = handle == nil ? nil : traceCall("mtrace")
        let stop = handle == nil ? nil : traceCall("muntrace")
        if start == nil { print("loop-idle: not tracing (run with LD_PRELOAD=libc_malloc_debug.so.0 MALLOC_TRACE=FILE)") }
        start?()
        for _ in 0..<turns { try loop.runOnce(timeout: 0) }
        stop?()
    } catch {
        print("loop-idle: \(error)")
        return false
    }
    print("loop-idle: \(turns) idle turns")
    return true
}
