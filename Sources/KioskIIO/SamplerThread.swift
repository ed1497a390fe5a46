// A detached POSIX thread for the sampler. KioskSys wraps file calls; thread creation is the one
// other libc call this module makes, here and nowhere else.
import Glibc
import KioskSys

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Starts `body` on a new detached thread.
func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) throws(SysError) {
    let box = Unmanaged.passRetained(ThreadBody(body))
    var tid = pthread_t()
    let rc = pthread_create(&tid, nil, { arg in
        guard let arg else { return nil }
        let b = Unmanaged<ThreadBody>.fromOpaque(arg).takeRetainedValue()
        b.run()
        return nil
    }, box.toOpaque())
    guard rc == 0 else {
        box.release()
        throw SysError(call: "pthread_create", errno: rc)
    }
    pthread_detach(tid)
}

/// Sleeps `seconds` (poll(2) with no descriptors; millisecond resolution).
func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var none: [pollfd] = []
    _ = try? poll(&none, timeoutMs: Int32(min(seconds * 1000, 60_000).rounded(.up)))
}
