// The descriptors an event loop waits on besides files: a signalfd, an eventfd, the kernel's
// uevent socket. Each call is made here and nowhere else.
import CKioskSys
import Glibc

/// Blocks `signals` for this thread (sigprocmask) and returns a non-blocking signalfd(2) that
/// reads exactly them as `signalfd_siginfo` records (`fd`: an existing signalfd changed to read
/// them), so a poll loop sees Ctrl+C, SIGTERM and VT switch requests as readable input instead
/// of interrupted calls.
public func signalDescriptor(_ signals: [Int32], updating fd: FileDescriptor? = nil) throws(SysError) -> FileDescriptor {
    var set = sigset_t()
    sigemptyset(&set)
    for s in signals { sigaddset(&set, s) }
    if sigprocmask(SIG_BLOCK, &set, nil) == -1 { throw SysError(call: "sigprocmask", errno: Glibc.errno) }
    let r = try retrying("signalfd") { signalfd(fd?.rawValue ?? -1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
    return FileDescriptor(rawValue: r)
}

/// Unblocks `signals` again (sigprocmask), e.g. in a child process that should die of SIGTERM.
public func unblockSignals(_ signals: [Int32]) {
    var set = sigset_t()
    sigemptyset(&set)
    for s in signals { sigaddset(&set, s) }
    sigprocmask(SIG_UNBLOCK, &set, nil)
}

/// Whether one of `signals` is pending for this thread or the process (sigpending(2)).
public func isSignalPending(_ signals: [Int32]) -> Bool {
    var set = sigset_t()
    guard sigpending(&set) == 0 else { return false }
    return signals.contains { sigismember(&set, $0) == 1 }
}

/// A non-blocking, close-on-exec eventfd(2): a counter another thread adds to (`wake`), which
/// makes it readable for a poll loop.
public func eventCounter() throws(SysError) -> FileDescriptor {
    FileDescriptor(rawValue: try retrying("eventfd") { kiosk_eventfd() })
}

/// A non-blocking netlink socket subscribed to the kernel's uevent multicast group 1 (what udev
/// itself listens to): each read returns one "ACTION@DEVPATH\0KEY=VALUE\0..." message.
public func ueventSocket() throws(SysError) -> FileDescriptor {
    let fd = try retrying("socket(AF_NETLINK)") {
        socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
               NETLINK_KOBJECT_UEVENT)
    }
    var addr = sockaddr_nl()
    addr.nl_family = sa_family_t(AF_NETLINK)
    addr.nl_groups = 1
    let r = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
    }
    if r == -1 {
        let e = Glibc.errno
        Glibc.close(fd)
        throw SysError(call: "bind(NETLINK_KOBJECT_UEVENT)", errno: e)
    }
    return FileDescriptor(rawValue: fd)
}
