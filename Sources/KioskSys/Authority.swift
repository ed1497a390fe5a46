// The system calls that keep a root daemon from doing for a peer more than the peer could do
// itself (docs/security.md): a file opened with a client's rights, state handed to the next
// program image through a descriptor, and a socket file's owner set without following a link.
// Each is made once, here; `Kernel` forwards to them.
import CKioskSys
import Glibc

/// The regular file at `path` opened for reading and its status; with `user`'s rights (uid,
/// gid, groups) when given and this process can take them (it is root), else with this
/// process's own. Looked up without opening (O_PATH), then fstat'ed, then opened through the
/// same descriptor: a FIFO, a device (a watchdog would be armed by an open) or a socket is never
/// opened, and a path swapped between the check and the open changes nothing. Throws EINVAL
/// "not a regular file (a FIFO)" for those; what `user` may not reach is EACCES or ENOENT as it
/// would be for that user itself.
public func openRegularFile(_ path: String, as user: PeerCredentials?) throws(SysError) -> (FileDescriptor, FileStatus) {
    guard !path.isEmpty, !path.utf8.contains(0) else { throw SysError(call: "open", errno: ENOENT, target: path) }
    // A user other than this process's own, by a process that may become it (root): the
    // thread takes the user's identity. Root, or this process's own user, opens as itself.
    let asUser = user.map { $0.uid != geteuid() && geteuid() == 0 } ?? false
    let groups = user?.groups ?? []
    var st = stat()
    var notRegular: Int32 = 0
    let fd = groups.withUnsafeBufferPointer { g in
        kiosk_open_regular_as(path, asUser ? 1 : 0, user?.uid ?? 0, user?.gid ?? 0, g.baseAddress, Int32(g.count), &st, &notRegular)
    }
    if fd < 0 {
        if notRegular != 0 {
            throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(FileStatus(st).kind))")
        }
        throw SysError(call: "open", errno: Glibc.errno, target: path)
    }
    return (FileDescriptor(rawValue: fd), FileStatus(st))
}

/// memfd_create(2), close-on-exec.
public func makeMemoryFile(_ name: String) throws(SysError) -> FileDescriptor {
    let fd = kiosk_memfd(name)
    guard fd >= 0 else { throw SysError(call: "memfd_create", errno: Glibc.errno, target: name) }
    return FileDescriptor(rawValue: fd)
}

/// The group (nil: unchanged) and mode of the socket file at `path`, never through a symbolic
/// link: the path is looked up without following one and must be a socket.
public func setSocketFileAccess(_ path: String, group: UInt32?, mode: UInt32) throws(SysError) {
    var notSocket: Int32 = 0
    if kiosk_set_socket_owner_mode(path, group == nil ? 0 : 1, group ?? 0, mode, &notSocket) != 0 {
        if notSocket != 0 { throw SysError(call: "chmod", errno: EINVAL, target: path, detail: "not a socket") }
        throw SysError(call: "chmod", errno: Glibc.errno, target: path)
    }
}
