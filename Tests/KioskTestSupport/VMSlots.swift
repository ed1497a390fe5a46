import Glibc
import KioskSys

/// At most one QEMU guest per CPU at a time (KIOSK_VM_JOBS overrides), across every suite of
/// one `swift test` and any other run on the machine. Swift Testing starts all suites at once,
/// and a dozen TCG guests on two CPUs each get a sliver of one: their checks of what happens in
/// a few seconds of guest time (flips of a spinner in 5 s) then fail for want of CPU, while the
/// whole takes no less time. A slot is an flock on /tmp/kiosk-vm-slots/N, released when its
/// descriptor closes (also if the test process dies). A test's time limit counts its wait for a
/// slot too: the guests' suites have 60 minutes each (their guests have run-in-vm.sh's
/// `--timeout`), since on CI's two CPUs the last one starts some 30 minutes into the run.
public enum VMSlots {
    public static var count: Int {
        if let v = environmentValue("KIOSK_VM_JOBS"), let n = Int(v), n > 0 { return n }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// Waits (blocking: call it off the cooperative pool) until a slot is free; its descriptor,
    /// to `release`. -1 when the lock files cannot be made (then nothing is limited).
    public static func acquire() -> Int32 {
        let dir = "/tmp/kiosk-vm-slots"
        mkdir(dir, 0o1777)
        let n = count
        while true {
            for k in 0..<n {
                let fd = open("\(dir)/\(k)", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
                if fd < 0 { return -1 }
                if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
                close(fd)
            }
            usleep(200_000)
        }
    }

    public static func release(_ fd: Int32) { if fd >= 0 { close(fd) } }
}
