// The arm64 kiosk-hud for the suites that prove it (same pixels under qemu-user, the .deb, the
// arm64 guest): made once per test process by Tools/cross-build.sh, which serializes with any
// other run on the machine (an flock on the Debian 13 root) and builds incrementally.
import Glibc
import KioskSys

public enum CrossBuild {
    /// What `Tools/cross-build.sh arm64 --deb` made: host paths.
    public struct Arm64: Sendable {
        /// The aarch64 release kiosk-hud.
        public let binary: String
        /// kiosk-hud_VERSION_arm64.deb around it.
        public let deb: String
        /// The Debian 13 root (Tools/debian13.sh) the build ran in.
        public let root: String
        /// The arm64 sysroot, as a host path: `qemu-aarch64-static -L` it to run `binary` here.
        public let sysroot: String
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The build, made on first use (minutes: call it off the cooperative pool, e.g. with
    /// onOwnThread), through Debian13.exclusive. KIOSK_HUD_ARM64, when set, is reported as the
    /// binary instead of the cross build's (the build still runs: the .deb and sysroot are its).
    public static let arm64: Result<Arm64, Failure> = Debian13.exclusive("the arm64 cross build") { () -> Result<Arm64, Failure> in
        let out = Proc.root + "/.build-cross/arm64"
        let r = Proc.run(["nice", "-n", "10", Proc.root + "/Tools/cross-build.sh", "arm64", "-j", "1", "--deb", "--out", out])
        guard r.status == 0, let deb = r.out.split(separator: "\n").last.map(String.init), deb.hasSuffix("_arm64.deb") else {
            return .failure(Failure(description: "Tools/cross-build.sh arm64 --deb: status \(r.status)\n\(r.err.suffix(4000))"))
        }
        let root = Proc.run([Proc.root + "/Tools/debian13.sh", "root"]).out.split(separator: "\n").last.map(String.init) ?? ""
        let binary = environmentValue("KIOSK_HUD_ARM64") ?? out + "/kiosk-hud"
        return .success(Arm64(binary: binary, deb: deb, root: root, sysroot: root + "/cross/arm64"))
    }
}

/// The Debian 13 root's jobs (Tools/debian13.sh: the cross build, the 6.0.3 build and test), one
/// at a time in this process, each holding one VM slot while it runs and building with one job,
/// niced: one slot, one CPU, and the guests' timing checks go first. (debian13.sh's own flock
/// serializes them too, but a job waiting there would hold a slot that a guest could use.)
public enum Debian13 {
    nonisolated(unsafe) private static var mutex: pthread_mutex_t = {
        var m = pthread_mutex_t()
        pthread_mutex_init(&m, nil)
        return m
    }()

    /// Runs `body` (blocking: call it off the cooperative pool) when no other job of the root runs.
    /// `what` names the job in the line each prints: how long it waited and ran (a run's time
    /// on CI's two CPUs is mostly these jobs' and the guests').
    public static func exclusive<T>(_ what: String, _ body: () -> T) -> T {
        let t0 = monotonicSeconds()
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let slot = VMSlots.acquire()
        defer { VMSlots.release(slot) }
        let t1 = monotonicSeconds()
        let result = body()
        print("[debian13] \(what): \(Int(monotonicSeconds() - t1)) s (after \(Int(t1 - t0)) s waiting)")
        return result
    }
}
