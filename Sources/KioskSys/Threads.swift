// Threads of our own, outside Swift's cooperative pool: the IIO sampler (a sysfs read may block
// for as long as an I²C bus hangs) and, in tests, waits on child processes that last minutes
// (a QEMU guest; KioskTestSupport's onOwnThread). The cooperative pool has one thread per core;
// a blocking call on it stalls every other task, so such work gets a detached POSIX thread.
import Glibc

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Starts `body` on a new detached POSIX thread.
public func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) throws(SysError) {
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
