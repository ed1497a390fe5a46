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

/// A compositor's test in the Debian 13 root (labwc, cage: Debian 13's packages): kiosk-hud and
/// the Wayland test app (Tests/Wayland/kiosk-wl-app.c, built against the host's
/// libwayland-client, whose ABI the root's shares) staged in a fresh directory of the root, and a
/// shell script run there as root.
public enum Debian13Stage {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Stages in the root's /tmp/`prefix`-PID and runs `script(the stage's path in the root)`;
    /// the stage's path on the host and the script's output followed by the `logs` (files of the
    /// stage), or why it failed with the same. Holds the root (`Debian13.exclusive`) meanwhile.
    public static func run(_ what: String, prefix: String, logs: [String], script: (String) -> String) -> Result<(stage: String, text: String), Failure> {
        Debian13.exclusive(what) {
            let made = Proc.run([Proc.root + "/Tools/debian13.sh", "root"])
            guard made.status == 0, let root = made.out.split(separator: "\n").last.map(String.init) else {
                return .failure(Failure(description: "Tools/debian13.sh root: \(made.err.suffix(2000))"))
            }
            let inRoot = "/tmp/\(prefix)-\(getpid())"
            let stage = root + inRoot
            _ = Proc.run(["rm", "-rf", stage])
            guard Proc.run(["mkdir", "-p", stage]).status == 0, Proc.run(["cp", Proc.kioskHUD, stage + "/kiosk-hud"]).status == 0 else {
                return .failure(Failure(description: "cannot stage in \(stage)"))
            }
            let gcc = Proc.run(["gcc", "-O2", "-std=c11", "-o", stage + "/app", Proc.root + "/Tests/Wayland/kiosk-wl-app.c", "-l:libwayland-client.so.0"])
            guard gcc.status == 0 else { return .failure(Failure(description: "gcc: \(gcc.err)")) }
            _ = Proc.run(["chmod", "-R", "a+rX", stage])
            guard let f = fopen(stage + "/t.sh", "w") else { return .failure(Failure(description: "cannot write the script")) }
            fputs(script(inRoot), f)
            fclose(f)
            let r = Proc.run([Proc.root + "/Tools/debian13.sh", "run", "sh", inRoot + "/t.sh"])
            let logText = logs.map { "\($0):\n" + (Proc.readFile(stage + "/" + $0) ?? "(none)") }.joined(separator: "\n")
            return r.status == 0 ? .success((stage, r.out + "\n" + logText))
                : .failure(Failure(description: "status \(r.status): \(r.out)\(r.err.suffix(2000))\n\(logText)"))
        }
    }
}
