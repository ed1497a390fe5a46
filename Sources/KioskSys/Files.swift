// Whole-file reads and atomic replacement, for caches kept between runs (the glyph cache).
import Glibc

/// What identifies one version of a file: device, inode, size and modification time. A file
/// replaced by a package upgrade (new inode) or rewritten in place (new size or time) gets a
/// different identity.
public struct FileIdentity: Equatable, Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    /// Modification time in nanoseconds since the epoch.
    public var modified: UInt64

    public init(device: UInt64, inode: UInt64, size: UInt64, modified: UInt64) {
        self.device = device; self.inode = inode; self.size = size; self.modified = modified
    }

    /// Whether `other` (the file's identity now) is the file this identity was taken of, as the
    /// caches match it: the same size and modification second, and the same nanoseconds unless
    /// either side has none — not the same device and inode, so that a copy made with its times
    /// (the initramfs-tools hook's `cp -p`, unpacked from a cpio archive that keeps whole
    /// seconds) is the same file. The frame cache's C reader has the same rule
    /// (`kiosk_file_identity_same`, with a program's build ID besides).
    public func isSame(as other: FileIdentity) -> Bool {
        let (s1, n1) = modified.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (s2, n2) = other.modified.quotientAndRemainder(dividingBy: 1_000_000_000)
        return size == other.size && s1 == s2 && (n1 == n2 || n1 == 0 || n2 == 0)
    }

    /// The identity `status` describes (its device, inode, size and modification time).
    public init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, size: UInt64(max(0, status.size)), modified: status.modified)
    }

    /// The identity of the file at `path` (symbolic links followed), nil when it cannot be
    /// stat'ed (missing, no permission).
    @available(*, deprecated, message: "use Kernel's fileIdentity(_:) (the call through the kernel seam)")
    public init?(path: String) {
        guard let status = try? fileStatus(path) else { return nil }
        self.init(status)
    }
}

/// What a path names, from stat's st_mode.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, symbolicLink, socket, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// E.g. "a FIFO", "a directory", for messages such as "not a regular file (a FIFO)".
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
        case .socket: "a socket"
        case .unknown: "of an unknown kind"
        }
    }
}

/// What stat(2) says about a file: its kind and size.
public struct FileStatus: Sendable, Equatable {
    public var kind: FileKind
    /// st_size in bytes (meaningful for regular files).
    public var size: Int
    /// A device's numbers (st_rdev), for character and block devices; 0 otherwise.
    public var deviceMajor = 0, deviceMinor = 0
    /// The group that owns it (st_gid).
    public var groupID: UInt32 = 0
    /// The user that owns it (st_uid).
    public var ownerID: UInt32 = 0
    /// The permission bits (st_mode & 0o7777: set-id, sticky, rwx for owner, group, others).
    public var permissions: UInt32 = 0
    /// When it was last modified (st_mtim), in nanoseconds since the epoch; 0 where not known
    /// (a fake kernel's file that does not say).
    public var modified: UInt64 = 0
    /// The file system's device (st_dev) and the file's inode (st_ino): with `size` and
    /// `modified`, one version of one file (`FileIdentity`); 0 where not known.
    public var device: UInt64 = 0, inode: UInt64 = 0

    public init(kind: FileKind, size: Int) { self.kind = kind; self.size = size }

    /// Whether only root or `user` can have written it: owned by one of them, and neither its
    /// group nor others may write it. For a directory: only they can have put anything in it
    /// (what a root daemon trusts a marker or a FIFO by).
    public func isWritableOnly(byRootOr user: UInt32) -> Bool {
        (ownerID == 0 || ownerID == user) && permissions & 0o022 == 0
    }

    init(_ st: stat) {
        self.init(kind: FileKind(mode: st.st_mode), size: Int(st.st_size))
        groupID = st.st_gid
        ownerID = st.st_uid
        permissions = UInt32(st.st_mode) & 0o7777
        modified = UInt64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(st.st_mtim.tv_nsec)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        if kind == .characterDevice || kind == .blockDevice {
            let d = UInt64(st.st_rdev)  // glibc's gnu_dev_major/minor
            deviceMajor = Int((d >> 8) & 0xFFF | (d >> 32) & ~0xFFF)
            deviceMinor = Int(d & 0xFF | (d >> 12) & ~0xFF)
        }
    }
}

/// stat(2) of `path`, symbolic links followed: what is there, without opening it (a FIFO or a
/// device is never opened by asking).
public func fileStatus(_ path: String) throws(SysError) -> FileStatus {
    var st = stat()
    _ = try retrying("stat", path) { fstatat(AT_FDCWD, path, &st, 0) }
    return FileStatus(st)
}

/// The directory `path` names a file in: "." for a bare name, "/" for a file at the root.
public func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// lstat(2) of `path`: a symbolic link itself is described (`.symbolicLink`), not what it names.
public func linkStatus(_ path: String) throws(SysError) -> FileStatus {
    var st = stat()
    _ = try retrying("lstat", path) { fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) }
    return FileStatus(st)
}

/// The bytes of the regular file at `path` (anything else — a FIFO, a device, a directory — is
/// refused without blocking); a file of more than `limit` bytes is refused (EFBIG).
public func readFileBytes(_ path: String, limit: Int) throws(SysError) -> [UInt8] {
    let (fd, st) = try FileDescriptor.openRegularFile(path)
    defer { try? fd.close() }
    let size = st.size
    guard size <= limit else { throw SysError(call: "read", errno: EFBIG, target: path) }
    var bytes = [UInt8](repeating: 0, count: size + 1)  // one more: a file that grew is seen
    var done = 0
    while done < bytes.count {
        let r: Result<Int, SysError> = bytes.withUnsafeMutableBytes { b in
            Result { () throws(SysError) in try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: b[done...])) }
        }
        guard case let .success(n) = r else {
            if case let .failure(e) = r { throw SysError(call: e.call, errno: e.errno, target: path) }
            return []
        }
        if n == 0 { break }
        done += n
        guard done <= limit else { throw SysError(call: "read", errno: EFBIG, target: path) }
    }
    bytes.removeLast(bytes.count - done)
    return bytes
}

/// Replaces the file at `path` with `bytes` so that readers see the old file or the new one,
/// never a part: written to a temporary file beside it, then renamed over it. The temporary
/// file is removed on failure. The temporary file is made new (O_EXCL, after removing a stale
/// one of the same name), so it is a regular file of ours, never a FIFO or a link put there.
public func replaceFile(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(SysError) {
    try replaceFile(path, mode: mode) { (fd) throws(SysError) in
        let written: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try fd.write(b) } }
        try written.get()
    }
}

/// `replaceFile(_:with:mode:)` for content written as it is made: `body` writes to the new
/// file's descriptor (e.g. a PNG encoded row by row, never held whole); when it throws, the
/// new file is removed and `path` is left as it was.
public func replaceFile(_ path: String, mode: mode_t = 0o644, writing body: (FileDescriptor) throws(SysError) -> Void) throws(SysError) {
    let temporary = path + ".\(getpid()).tmp"
    unlink(temporary)
    let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY, mode: mode)
    let failure: SysError?
    do throws(SysError) {
        try body(fd)
        do throws(SysError) { try fd.close(); failure = nil } catch { failure = error }
    } catch {
        try? fd.close()
        failure = error
    }
    if let failure {
        unlink(temporary)
        throw SysError(call: failure.call, errno: failure.errno, target: failure.target ?? temporary)
    }
    if rename(temporary, path) != 0 {
        let e = Glibc.errno
        unlink(temporary)
        throw SysError(call: "rename", errno: e, target: path)
    }
}

/// Removes the file at `path` (unlink(2)).
public func removeFile(_ path: String) throws(SysError) {
    if unlink(path) != 0 { throw SysError(call: "unlink", errno: Glibc.errno, target: path) }
}

/// Creates the directory `path` and any missing parents (mode 0755); an existing directory is
/// fine.
public func makeDirectories(_ path: String) throws(SysError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
        prefix += "/" + part
        if mkdir(prefix, 0o755) != 0 {
            let e = Glibc.errno
            guard e == EEXIST else { throw SysError(call: "mkdir", errno: e, target: prefix) }
        }
    }
}

/// Whether the directory `path` can be written by this process.
public func isWritableDirectory(_ path: String) -> Bool { access(path, W_OK | X_OK) == 0 }

/// The value of the environment variable `name`, nil when unset or empty.
public func environmentValue(_ name: String) -> String? {
    guard let p = getenv(name), p.pointee != 0 else { return nil }
    return String(cString: p)
}

/// An exclusive lock on the file at `path` (created 0600 when missing), held while the returned
/// descriptor stays open; EWOULDBLOCK when another process holds it.
public func lockFile(_ path: String) throws(SysError) -> FileDescriptor {
    let fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOCTTY, mode: 0o600)
    if flock(fd.rawValue, LOCK_EX | LOCK_NB) == -1 {
        let e = Glibc.errno
        try? fd.close()
        throw SysError(call: "flock", errno: e, target: path)
    }
    return fd
}

/// chmod(2).
public func setMode(_ path: String, _ mode: mode_t) throws(SysError) {
    if chmod(path, mode) == -1 { throw SysError(call: "chmod", errno: Glibc.errno, target: path) }
}

/// chown(2) to `uid` (nil: unchanged) and `gid`.
public func setOwner(_ path: String, uid: UInt32?, gid: UInt32) throws(SysError) {
    if chown(path, uid ?? UInt32.max, gid) == -1 { throw SysError(call: "chown", errno: Glibc.errno, target: path) }
}

/// mkfifo(2) with `mode`; an existing FIFO is fine, anything else at `path` is an error.
public func makeFIFO(_ path: String, mode: mode_t) throws(SysError) {
    if mkfifo(path, mode) == 0 { return }
    let e = Glibc.errno
    if e == EEXIST, let st = try? fileStatus(path), st.kind == .fifo { return }
    throw SysError(call: "mkfifo", errno: e, target: path, detail: e == EEXIST ? "exists and is not a FIFO" : nil)
}

/// The group `name`'s id (getgrnam), or nil when there is no such group.
public func groupID(_ name: String) -> UInt32? {
    guard let g = getgrnam(name) else { return nil }
    return g.pointee.gr_gid
}

/// The process's effective user id.
public func effectiveUserID() -> UInt32 { geteuid() }
