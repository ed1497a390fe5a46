// Unix stream sockets for the control socket and its clients. Each call is made here only.
import CKioskSys
import Glibc

/// A `sockaddr_un` for `path`, or ENAMETOOLONG (the kernel's limit is 107 bytes).
private func unixAddress(_ path: String) throws(SysError) -> sockaddr_un {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
        throw SysError(call: "socket", errno: bytes.isEmpty ? ENOENT : ENAMETOOLONG, target: path)
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in bytes.enumerated() { b[i] = c } }
    return addr
}

private func unixSocket(_ path: String, nonBlocking: Bool) throws(SysError) -> Int32 {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
    return try retrying("socket(AF_UNIX)", path) { socket(AF_UNIX, type, 0) }
}

/// A non-blocking listening Unix stream socket bound at `path` (which must not exist).
public func unixListener(_ path: String, backlog: Int32) throws(SysError) -> FileDescriptor {
    var addr = try unixAddress(path)
    let fd = try unixSocket(path, nonBlocking: true)
    let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if bound == -1 || listen(fd, backlog) == -1 {
        let e = Glibc.errno
        Glibc.close(fd)
        throw SysError(call: bound == -1 ? "bind" : "listen", errno: e, target: path)
    }
    return FileDescriptor(rawValue: fd)
}

/// A Unix stream socket connected to `path`: blocking, or non-blocking (a full backlog is
/// then EAGAIN instead of a wait).
public func unixConnection(_ path: String, nonBlocking: Bool = false) throws(SysError) -> FileDescriptor {
    var addr = try unixAddress(path)
    let fd = try unixSocket(path, nonBlocking: nonBlocking)
    while true {
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r == 0 { return FileDescriptor(rawValue: fd) }
        let e = Glibc.errno
        if e == EINTR { continue }
        Glibc.close(fd)
        throw SysError(call: "connect", errno: e, target: path)
    }
}

// MARK: Abstract names (Linux): no file, the name lives in the network namespace.

/// A `sockaddr_un` for the abstract name `name` (a NUL, then the name's bytes, no padding:
/// the address length counts exactly those, as Plymouth's "trimmed" abstract sockets do), and
/// that length; ENAMETOOLONG past the kernel's 107 bytes.
private func abstractAddress(_ name: String) throws(SysError) -> (sockaddr_un, socklen_t) {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(name.utf8)
    guard !bytes.isEmpty, !bytes.contains(0), bytes.count + 1 < MemoryLayout.size(ofValue: addr.sun_path) else {
        throw SysError(call: "socket", errno: bytes.isEmpty || bytes.contains(0) ? EINVAL : ENAMETOOLONG, target: "@" + name)
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { b in for (i, c) in bytes.enumerated() { b[i + 1] = c } }
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + 1 + bytes.count
    return (addr, socklen_t(length))
}

/// A non-blocking listening Unix stream socket on the abstract name `name` (written `@name`
/// in errors). EADDRINUSE when another process listens there.
public func unixAbstractListener(_ name: String, backlog: Int32) throws(SysError) -> FileDescriptor {
    var (addr, length) = try abstractAddress(name)
    let fd = try unixSocket("@" + name, nonBlocking: true)
    let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    if bound == -1 || listen(fd, backlog) == -1 {
        let e = Glibc.errno
        Glibc.close(fd)
        throw SysError(call: bound == -1 ? "bind" : "listen", errno: e, target: "@" + name)
    }
    return FileDescriptor(rawValue: fd)
}

/// A Unix stream socket connected to the abstract name `name`: blocking, or non-blocking (a
/// full backlog is then EAGAIN, as systemd's PID 1 sees it, instead of a wait).
public func unixAbstractConnection(_ name: String, nonBlocking: Bool = false) throws(SysError) -> FileDescriptor {
    var (addr, length) = try abstractAddress(name)
    let fd = try unixSocket("@" + name, nonBlocking: nonBlocking)
    while true {
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        if r == 0 { return FileDescriptor(rawValue: fd) }
        let e = Glibc.errno
        if e == EINTR { continue }
        Glibc.close(fd)
        throw SysError(call: "connect", errno: e, target: "@" + name)
    }
}

extension FileDescriptor {
    /// accept4(2) of one waiting connection, non-blocking and close-on-exec; nil when none waits.
    public func accept() throws(SysError) -> FileDescriptor? {
        while true {
            let fd = kiosk_accept(rawValue)
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            let e = Glibc.errno
            if e == EINTR || e == ECONNABORTED { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return nil }
            throw SysError(call: "accept4", errno: e)
        }
    }

    /// The connected peer's pid, uid, gid (SO_PEERCRED) and supplementary groups
    /// (SO_PEERGROUPS), as the kernel recorded them at connect(2).
    public func peerCredentials() throws(SysError) -> PeerCredentials {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        if kiosk_peer_credentials(rawValue, &pid, &uid, &gid) == -1 {
            throw SysError(call: "getsockopt(SO_PEERCRED)", errno: Glibc.errno)
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: try peerGroups())
    }

    /// SO_PEERGROUPS: the peer's supplementary groups (NGROUPS_MAX is 65536; the common case
    /// fits the first try). A socket that has none to tell (not Unix, or a kernel before 4.13:
    /// ENOPROTOOPT) gives none: only the primary group counts then.
    public func peerGroups() throws(SysError) -> [UInt32] {
        var capacity = 64
        while true {
            var groups = [UInt32](repeating: 0, count: capacity)
            let n = groups.withUnsafeMutableBufferPointer { kiosk_peer_groups(rawValue, $0.baseAddress, Int32(capacity)) }
            if n >= 0 { return Array(groups[..<Int(n)]) }
            if n == -1 {
                if Glibc.errno == ENOPROTOOPT { return [] }
                throw SysError(call: "getsockopt(SO_PEERGROUPS)", errno: Glibc.errno)
            }
            capacity = Int(-2 - n)
        }
    }
}

extension FileDescriptor {
    /// send(2) with MSG_NOSIGNAL: a peer that has gone is EPIPE, never a SIGPIPE that would end
    /// the process; one call, which may be short (EAGAIN when a non-blocking socket is full).
    public func sendNoSignal(_ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try retrying("send") { Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// send(2) with MSG_NOSIGNAL and MSG_DONTWAIT: what fits in the socket's buffer now, even on
    /// a blocking socket; 0 when nothing fits (EAGAIN), so an event loop never waits on a peer.
    public func sendWithoutWaiting(_ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        while true {
            let r = Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if r >= 0 { return r }
            let e = Glibc.errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return 0 }
            throw SysError(call: "send", errno: e)
        }
    }
}

/// The listening sockets systemd passed (socket activation: LISTEN_PID is this process,
/// LISTEN_FDS of them from descriptor 3 on), made non-blocking and close-on-exec; the variables
/// are removed so a child does not take them for its own.
public func activationSockets() -> [FileDescriptor] {
    guard let pid = environmentValue("LISTEN_PID").flatMap({ Int32($0) }), pid == getpid(),
          let n = environmentValue("LISTEN_FDS").flatMap({ Int32($0) }), n > 0, n < 64 else { return [] }
    unsetenv("LISTEN_PID"); unsetenv("LISTEN_FDS"); unsetenv("LISTEN_FDNAMES")
    return (0..<n).map { i in
        let fd = 3 + i
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return FileDescriptor(rawValue: fd)
    }
}

/// The file a Unix socket is bound to (getsockname(2)); nil for an abstract or unnamed one, or
/// when `fd` is not a Unix socket.
public func boundPath(ofUnixSocket fd: Int32) -> String? {
    var addr = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let r = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard r == 0, addr.sun_family == sa_family_t(AF_UNIX) else { return nil }
    let bytes = withUnsafeBytes(of: addr.sun_path) { Array($0.prefix(max(0, Int(length) - 2))) }
    guard let first = bytes.first, first != 0 else { return nil }
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
}
