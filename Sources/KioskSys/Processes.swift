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

/// _exit(2): ends the process now (no atexit handlers, no stdio flush).
public func exitImmediately(_ status: Int32) -> Never { _exit(status) }

/// Points descriptors 0, 1 and 2 at /dev/null (a background child must not hold a caller's pipes).
public func detachStandardStreams() {
    let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
    guard null >= 0 else { return }
    for target: Int32 in 0...2 { _ = dup2(null, target) }
    if null > 2 { Glibc.close(null) }
}

/// The process id.
public func processID() -> Int32 { getpid() }
