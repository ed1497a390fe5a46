// Processes: the retain keeper's fork, signals to other processes. Each call is made here only.
import CKioskSys
import Glibc

/// kill(2): `signal` to the process `pid` (> 0) or the process group −`pid` (< 0).
public func sendSignal(_ signal: Int32, to pid: Int32) throws(SysError) {
    if Glibc.kill(pid, signal) == -1 { throw SysError(call: "kill", errno: Glibc.errno, target: String(pid)) }
}

/// fork(2): 0 in the child, the child's pid in the parent.
public func forkProcess() throws(SysError) -> Int32 {
    try retrying("fork") { fork() }
}

/// setsid(2) (errors ignored: already a session leader is fine).
public func newSession() { _ = setsid() }

/// setpriority(2) of every thread of this process to the nice value `nice` (19: the lowest CPU
/// priority). Linux keeps a nice value per thread, so each of /proc/self/task is set; threads
/// started later inherit the value of the thread that starts them. The first failure is thrown.
public func setProcessNice(_ nice: Int32) throws(SysError) {
    let tasks = listDirectory("/proc/self/task")?.compactMap { Int32($0) } ?? [0]
    for tid in tasks where setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), nice) == -1 {
        let e = Glibc.errno
        if e == ESRCH { continue }   // the thread ended meanwhile
        throw SysError(call: "setpriority", errno: e, target: String(tid))
    }
}

/// _exit(2): ends the process now (no atexit handlers, no stdio flush).
public func exitImmediately(_ status: Int32) -> Never { _exit(status) }

/// Points descriptors 0, 1 and 2 at /dev/null (a background child must not hold a caller's pipes).
public func detachStandardStreams() {
    let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
    guard null >= 0 else { return }
    for target: Int32 in 0...2 { _ = dup2(null, target) }
    if null > 2 { Glibc.close(null) }
}

/// Closes every descriptor from 3 up but `keep` (the retain keeper holds its card and nothing
/// of the daemon's: no listening socket, no client connection). The open ones are read from
/// /proc/self/fd.
public func closeDescriptors(except keep: Set<Int32>) {
    for name in listDirectory("/proc/self/fd") ?? [] {
        guard let fd = Int32(name), fd > 2, !keep.contains(fd) else { continue }
        Glibc.close(fd)
    }
}

/// The process id.
public func processID() -> Int32 { getpid() }

/// How a child process is started (`spawnProcess`).
public struct SpawnRequest {
    /// The program (looked up in PATH when it has no "/") and its arguments, argv[0] first.
    public var arguments: [String]
    /// Descriptors the child gets as 0, 1 and 2 (nil: the same as ours).
    public var stdin: Int32?, stdout: Int32?, stderr: Int32?
    /// Put the child in a process group of its own (its pid), so the group can be signalled.
    public var newProcessGroup = true
    /// The signal mask the child starts with (nil: ours); every signal's action is reset to
    /// the default too.
    public var signalMask: sigset_t?

    public init(arguments: [String]) { self.arguments = arguments }
}

/// posix_spawnp(3) of `request`: the child's pid. The child gets descriptors 0, 1 and 2 only:
/// ours are close-on-exec, and what our own parent left open without it is closed in the child
/// (closefrom(3)), so nothing of anyone's leaks into the command.
public func spawnProcess(_ request: SpawnRequest) throws(SysError) -> Int32 {
    guard let program = request.arguments.first else { throw SysError(call: "posix_spawn", errno: EINVAL, detail: "no program") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (fd, target) in [(request.stdin, Int32(0)), (request.stdout, 1), (request.stderr, 2)] {
        if let fd { posix_spawn_file_actions_adddup2(&actions, fd, target) }
    }
    _ = kiosk_spawn_closefrom(&actions, 3)
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var flags = Int32(POSIX_SPAWN_SETSIGDEF)
    if request.newProcessGroup { flags |= Int32(POSIX_SPAWN_SETPGROUP); posix_spawnattr_setpgroup(&attr, 0) }
    if var mask = request.signalMask { flags |= Int32(POSIX_SPAWN_SETSIGMASK); posix_spawnattr_setsigmask(&attr, &mask) }
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attr, &all)
    posix_spawnattr_setflags(&attr, Int16(flags))
    let argv = request.arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let r = posix_spawnp(&pid, program, &actions, &attr, argv, environ)
    if r != 0 { throw SysError(call: "posix_spawn", errno: r, target: program) }
    return pid
}

/// Ignores SIGPIPE: a write to a pipe nobody reads fails with EPIPE instead of ending the
/// process (children still start with the default action: spawnProcess resets every signal).
public func ignoreBrokenPipes() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_IGN
    sigemptyset(&action.sa_mask)
    _ = sigaction(SIGPIPE, &action, nil)
}

/// A pipe (read end, write end), both close-on-exec.
public func makePipe() throws(SysError) -> (read: FileDescriptor, write: FileDescriptor) {
    var fds: [Int32] = [-1, -1]
    _ = try retrying("pipe2") { kiosk_pipe_cloexec(&fds) }
    return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
}

/// Makes this process the child subreaper (prctl PR_SET_CHILD_SUBREAPER): an orphaned
/// descendant — one whose parent died, or that daemonized — becomes our child, so it can still
/// be found, ended and reaped.
public func becomeChildSubreaper() throws(SysError) {
    if kiosk_set_child_subreaper() != 0 { throw SysError(call: "prctl(PR_SET_CHILD_SUBREAPER)", errno: Glibc.errno) }
}

/// A descriptor that polls readable when process `pid` has ended (pidfd_open, Linux 5.3+): its
/// end is seen whatever any thread's signal mask says of SIGCHLD.
public func openProcessDescriptor(_ pid: Int32) throws(SysError) -> FileDescriptor {
    let fd = kiosk_pidfd_open(pid)
    if fd < 0 { throw SysError(call: "pidfd_open", errno: Glibc.errno) }
    return FileDescriptor(rawValue: fd)
}

/// How a child ended.
public enum ChildExit: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)

    /// The status a shell gives it: the exit code, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case let .exited(c): c
        case let .signalled(s): 128 + s
        }
    }
}

/// waitpid(-1, WNOHANG): every child that has ended, reaped (so none stays a zombie).
public func reapChildren() -> [(pid: Int32, exit: ChildExit)] {
    var out: [(Int32, ChildExit)] = []
    while true {
        var status: Int32 = 0
        let pid = waitpid(-1, &status, WNOHANG)
        if pid <= 0 { if pid == -1 && Glibc.errno == EINTR { continue }; return out }
        let term = status & 0x7f
        out.append((pid, term == 0 ? .exited((status >> 8) & 0xff) : .signalled(term)))
    }
}

/// waitpid(pid, WNOHANG): how `pid` ended if it has (reaped), nil while it runs or if it is
/// not our child.
public func reapChild(_ pid: Int32) -> ChildExit? {
    var status: Int32 = 0
    var r: Int32
    repeat { r = waitpid(pid, &status, WNOHANG) } while r == -1 && Glibc.errno == EINTR
    guard r == pid else { return nil }
    let term = status & 0x7f
    return term == 0 ? .exited((status >> 8) & 0xff) : .signalled(term)
}

/// When process `pid` started (clock ticks after boot, /proc/PID/stat's 22nd field): with the
/// pid it names one process, even after the pid is used again; nil when it has ended (or is a
/// zombie).
public func processStartTime(_ pid: Int32) -> UInt64? {
    guard let stat = try? readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 19, fields[0] != "Z" else { return nil }
    return UInt64(fields[19])
}

/// The processes whose parent is `pid` (from /proc/*/stat), and theirs, and so on; zombies left out.
public func descendants(of pid: Int32) -> [Int32] {
    var parent: [Int32: Int32] = [:]
    for name in listDirectory("/proc") ?? [] {
        guard let p = Int32(name), let stat = try? readSmallFile("/proc/\(name)/stat"), let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // A zombie has ended (its parent reaps it); it is no longer running anything.
        if fields.count > 1, fields[0] != "Z", let pp = Int32(fields[1]) { parent[p] = pp }
    }
    var found: [Int32] = []
    var frontier = [pid]
    while let p = frontier.popLast() {
        for (child, pp) in parent where pp == p && !found.contains(child) {
            found.append(child)
            frontier.append(child)
        }
    }
    return found
}

/// A POSIX extended regular expression (regcomp/regexec: what the C library has, so no regex
/// engine is linked in) with at most one capture group used.
public final class PosixRegex: @unchecked Sendable {
    private var compiled = regex_t()
    private var isCompiled = false
    /// Compiles `pattern`; the error text when it is not a valid POSIX ERE.
    public init(_ pattern: String) throws(SysError) {
        let r = regcomp(&compiled, pattern, REG_EXTENDED)
        if r != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(r, &compiled, &buffer, buffer.count)
            let why = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw SysError(call: "regcomp", errno: EINVAL, detail: why)
        }
        isCompiled = true
    }
    deinit { if isCompiled { regfree(&compiled) } }

    /// The text of capture group 1 (or the whole match when there is no group) in `text`.
    public func firstCapture(in text: String) -> String? {
        var matches = [regmatch_t](repeating: regmatch_t(), count: 2)
        return text.withCString { p -> String? in
            guard regexec(&compiled, p, 2, &matches, 0) == 0 else { return nil }
            let m = matches[1].rm_so >= 0 ? matches[1] : matches[0]
            guard m.rm_so >= 0, m.rm_eo >= m.rm_so else { return nil }
            let bytes = UnsafeRawBufferPointer(start: p + Int(m.rm_so), count: Int(m.rm_eo - m.rm_so))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
