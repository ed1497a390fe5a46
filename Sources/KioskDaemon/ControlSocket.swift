import Glibc
import KioskSys

/// The daemon's listening socket: systemd's (socket activation), or one of its own at `path`
/// with a lock beside it, so that exactly one daemon serves a path.
public struct ControlSocket {
    /// The listening descriptor.
    public let fd: Int32
    /// The socket file we made (removed on close), nil when systemd passed the socket.
    public let path: String?
    private let lock: Int32?
    /// The lock's descriptor (nil for systemd's socket): kept open with the socket across an
    /// execve of the daemon's next program image.
    public var lockDescriptor: Int32? { lock }
    /// The seam the socket and its lock were opened through (and are closed through).
    let kernel: Kernel
    /// The group systemd gave the socket it passed (its unit's SocketGroup=), nil for root's or
    /// one we made: the daemon lets that group in as with --group, so the socket unit is the one
    /// place that says which group may talk to the splash.
    public var activationGroup: UInt32? { path == nil ? Self.group(ofListening: fd, kernel: kernel) : nil }

    /// The default path.
    public static let defaultPath = "/run/kiosk-hud/control.sock"

    /// Opens the socket: the one systemd passed if any, else `path`, made 0660 and owned by
    /// `group` (nil: the daemon's own group). Refuses when another daemon holds the lock for `path`; a socket file left by a
    /// crashed daemon is replaced. Every descriptor is made through `kernel` (the real one unless
    /// a test plays it).
    public static func open(_ path: String, group: UInt32?, kernel: Kernel = LinuxKernel()) throws(SysError) -> ControlSocket {
        if let s = kernel.activationSockets().first { return ControlSocket(fd: s, path: nil, lock: nil, kernel: kernel) }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try kernel.makeDirectories(String(path[..<slash])) }
        let lock: Int32
        do { lock = try kernel.lockFile(path + ".lock") } catch where error.errno == EWOULDBLOCK {
            throw SysError(call: "flock", errno: error.errno, target: path, detail: "another kiosk-hud daemon is serving this socket")
        }
        // We hold the lock: whatever socket file is there was left by a daemon that is gone.
        if let st = try? kernel.fileStatus(path) {
            if st.kind != .socket {
                kernel.close(lock)
                throw SysError(call: "bind", errno: EEXIST, target: path, detail: "exists and is not a socket (\(st.kind))")
            }
            try? kernel.removeFile(path)
        }
        do throws(SysError) {
            let fd = try kernel.listenUnix(path, backlog: ControlServer.backlog)
            // Through the socket file we bound, never a link put in its place.
            do throws(SysError) { try kernel.setSocketFileAccess(path, group: group, mode: 0o660) } catch {
                kernel.close(fd); try? kernel.removeFile(path)
                throw error
            }
            return ControlSocket(fd: fd, path: path, lock: lock, kernel: kernel)
        } catch {
            kernel.close(lock)
            throw error
        }
    }

    /// The socket a previous program image of this process listened on, with its lock (the
    /// initramfs's daemon carried over after switch-root: docs/initramfs.md).
    public static func resumed(fd: Int32, path: String?, lock: Int32?, kernel: Kernel = LinuxKernel()) -> ControlSocket {
        ControlSocket(fd: fd, path: path, lock: lock, kernel: kernel)
    }

    /// The group owning the file `fd` is bound to, unless it is root's (0); the file looked at
    /// through `kernel`.
    public static func group(ofListening fd: Int32, kernel: any Kernel = LinuxKernel()) -> UInt32? {
        guard let file = kernel.boundPath(ofUnixSocket: fd), let st = try? kernel.fileStatus(file), st.kind == .socket, st.groupID != 0 else { return nil }
        return st.groupID
    }

    /// Closes the socket, removes the file we made, and releases the lock.
    public func close() {
        kernel.close(fd)
        if let path { try? kernel.removeFile(path) }
        if let lock { kernel.close(lock) }
    }
}
