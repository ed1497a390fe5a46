// Child processes from tests, without Foundation (posix_spawn).
import Glibc
import KioskSys

/// Child processes for the tests that run the real binary (host timing, the VM suites): no
/// Foundation, posix_spawn with stdout/stderr to files.
public enum Proc {
    /// The package root (…/Tests/KioskTestSupport/Proc.swift → …).
    public static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The kiosk-hud binary `swift test` built next to this test bundle (KIOSK_HUD_BINARY overrides).
    public static var kioskHUD: String {
        if let e = getenv("KIOSK_HUD_BINARY") { return String(cString: e) }
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let exe = n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return dir + "/kiosk-hud"
    }

    /// Spawns `args` with `env` added to ours; stdout and stderr go to the files given (or /dev/null).
    public static func spawn(_ args: [String], env: [String: String] = [:], stdout: String = "/dev/null", stderr: String = "/dev/null") -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var environment: [String] = []
        var i = 0
        while let e = environ[i] {
            let s = String(cString: e)
            if let eq = s.firstIndex(of: "="), env[String(s[..<eq])] != nil { i += 1; continue }
            environment.append(s)
            i += 1
        }
        for (k, v) in env { environment.append("\(k)=\(v)") }
        let cargs = args.map { strdup($0) } + [nil]
        let cenv = environment.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) }; for p in cenv { free(p) } }
        // A clean signal state: a test thread may have blocked signals for its event loop, and a
        // child must not inherit that.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none); sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, args[0], &actions, &attr, cargs, cenv)
        return r == 0 ? pid : nil
    }

    /// Waits for `pid`; its exit status (128+signal if killed).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// Runs `args` to completion; (status, stdout, stderr).
    public static func run(_ args: [String], env: [String: String] = [:]) -> (status: Int32, out: String, err: String) {
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let o = "/tmp/kiosk-drm-test-\(tag).out", e = "/tmp/kiosk-drm-test-\(tag).err"
        defer { unlink(o); unlink(e) }
        guard let pid = spawn(args, env: env, stdout: o, stderr: e) else { return (127, "", "cannot spawn \(args[0])") }
        let st = wait(pid)
        return (st, readFile(o) ?? "", readFile(e) ?? "")
    }

    public static func readFile(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n > 0 { bytes.append(contentsOf: buf[0..<n]) }
            if n < buf.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func readBytes(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n > 0 { bytes.append(contentsOf: buf[0..<n]) }
            if n < buf.count { break }
        }
        return bytes
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Every .swift file under `dir` (the guard tests' walk over Sources), in no set order.
    public static func swiftFiles(_ dir: String) -> [String] {
        guard let names = listDirectory(dir) else { return [] }
        return names.flatMap { name -> [String] in
            let path = dir + "/" + name
            guard let st = try? fileStatus(path) else { return [] }
            if st.kind == .directory { return swiftFiles(path) }
            return name.hasSuffix(".swift") ? [path] : []
        }
    }
    public static func executable(_ name: String) -> Bool {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
    public static func makeTempDir(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// Boots the QEMU harness (Tests/VM/run-in-vm.sh) with `args` and QEMU's extra `qemuArgs`,
    /// waiting off the cooperative pool (minutes, while other suites run); the guest's stdout
    /// and stderr are kept in `out` (guest.out, guest.err). Status 127 if it cannot start.
    /// One guest per CPU at a time (VMSlots): the others wait for a slot first.
    public static func runVM(_ args: [String], qemuArgs: String = "", out: String) async -> (status: Int32, stdout: String, stderr: String) {
        let slot = await onOwnThread { VMSlots.acquire() }
        defer { VMSlots.release(slot) }
        guard let pid = spawn([root + "/Tests/VM/run-in-vm.sh"] + args, env: ["KIOSK_VM_QEMU_ARGS": qemuArgs],
                              stdout: out + "/guest.out", stderr: out + "/guest.err") else {
            return (127, "", "cannot start Tests/VM/run-in-vm.sh")
        }
        let status = await onOwnThread { wait(pid) }
        return (status, readFile(out + "/guest.out") ?? "", readFile(out + "/guest.err") ?? "")
    }
}
