// Running kiosk-hud as a child: posix_spawn in its own process group and working directory, a
// 2 s deadline per child (SIGKILL to the group), SIGCHLD waited for with sigtimedwait (no
// polling), and the child's own peak RSS from wait4's rusage. The harness stays small (it
// generates inputs of a few hundred kB at most) because a spawned child's ru_maxrss starts from
// its parent's high-water mark.
import Glibc

/// SIGCHLD blocked in this (single-threaded) process, so `sigtimedwait` can wait for children;
/// children get an empty mask and default handlers.
func blockChildSignal() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGCHLD)
    sigprocmask(SIG_BLOCK, &set, nil)
}

/// Waits until a child changes state or `deadline` (monotonic ns) passes.
func waitForChildSignal(until deadline: UInt64) {
    let now = monotonicNanos()
    guard deadline > now else { return }
    let left = deadline - now
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGCHLD)
    var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
    _ = sigtimedwait(&set, nil, &ts)
}

/// A reaped child: its pid, wait status and rusage.
struct Reaped {
    var pid: pid_t
    var status: Int32?
    var signal: Int32?
    var peakRSS: Int
}

/// Every child that has ended, without blocking.
func reapChildren() -> [Reaped] {
    var out: [Reaped] = []
    while true {
        var status: Int32 = 0
        var usage = rusage()
        let pid = wait4(-1, &status, WNOHANG, &usage)
        if pid <= 0 { break }
        let low = status & 0x7F
        if low == 0 {
            out.append(Reaped(pid: pid, status: (status >> 8) & 0xFF, signal: nil, peakRSS: usage.ru_maxrss * 1024))
        } else if low != 0x7F {
            out.append(Reaped(pid: pid, status: nil, signal: low, peakRSS: usage.ru_maxrss * 1024))
        }
    }
    return out
}

/// Starts `path` with arguments `argv` (bytes: any but NUL) and exactly `environment`, in
/// `directory`, stdin from /dev/null and stdout/stderr to the files given, as the leader of a
/// new process group, with no signal blocked or ignored. Nil if it cannot be started.
/// (fork + execve: glibc 2.36's posix_spawn has no chdir action that Swift can see.)
func spawnChild(_ path: String, _ argv: [[UInt8]], environment: [String], directory: String,
                stdout: String, stderr: String) -> pid_t? {
    func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b == 0 ? 0x20 : b) }
        p[bytes.count] = 0
        return p
    }
    let cargs = ([Array(path.utf8)] + argv).map(cString) + [nil]
    let cenv = environment.map { cString(Array($0.utf8)) } + [nil]
    let cpath = cString(Array(path.utf8))!, cdir = cString(Array(directory.utf8))!
    let cout = cString(Array(stdout.utf8))!, cerr = cString(Array(stderr.utf8))!
    defer { for p in cargs + cenv + [cpath, cdir, cout, cerr] { p?.deallocate() } }
    var none = sigset_t()
    sigemptyset(&none)
    let pid = fork()
    if pid == 0 {
        // The child: only async-signal-safe calls from here to execve.
        setpgid(0, 0)
        for s in 1..<Int32(32) where s != SIGKILL && s != SIGSTOP { signal(s, SIG_DFL) }
        sigprocmask(SIG_SETMASK, &none, nil)
        let input = open("/dev/null", O_RDONLY)
        let out = open(cout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let err = open(cerr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard input >= 0, out >= 0, err >= 0, chdir(cdir) == 0 else { _exit(127) }
        dup2(input, 0); dup2(out, 1); dup2(err, 2)
        for fd in Int32(3)..<Int32(1024) { close(fd) }
        execve(cpath, cargs, cenv)
        _exit(127)
    }
    if pid > 0 { setpgid(pid, pid) }
    return pid > 0 ? pid : nil
}

/// One case's run of the binary: spawn, then (after reaping) the outcome.
struct RunningChild {
    var index: Int
    var pid: pid_t
    var started: UInt64
    var deadline: UInt64
    var directory: String
    var killed = false
}

/// Runs cases `indices` through `start` (which spawns case i and returns its RunningChild, or
/// nil if it could not) with at most `jobs` children at once, calling `finished` with each
/// case's outcome. Children past their deadline are killed (their whole process group).
func runChildren(_ indices: Range<Int>, jobs: Int, start: (Int) -> RunningChild?,
                 finished: (RunningChild, ChildOutcome) -> Void) {
    var running: [pid_t: RunningChild] = [:]
    var next = indices.lowerBound
    while next < indices.upperBound || !running.isEmpty {
        while running.count < max(1, jobs) && next < indices.upperBound {
            if let c = start(next) { running[c.pid] = c }
            next += 1
        }
        let deadline = running.values.map(\.deadline).min() ?? monotonicNanos()
        waitForChildSignal(until: min(deadline, monotonicNanos() + 100_000_000))
        let now = monotonicNanos()
        for r in reapChildren() {
            guard let c = running.removeValue(forKey: r.pid) else { continue }
            kill(-r.pid, SIGKILL)  // anything it left behind in its group

            let stderr = readFile(c.directory + "/.stderr", limit: 1 << 20) ?? []
            finished(c, ChildOutcome(status: r.status, signal: r.signal, timedOut: c.killed, milliseconds: millis(c.started, now),
                                     peakRSS: r.peakRSS, stderr: stderr))
        }
        for (pid, c) in running where !c.killed && now >= c.deadline {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            running[pid]!.killed = true
        }
    }
}
