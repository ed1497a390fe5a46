// What the backends do with files, built on the `Kernel` seam's calls (so a fake kernel sees,
// and can fail, each open, read, write and close): a regular file opened without ever blocking,
// a small text file read or written whole, one write of all the bytes.
import Glibc

extension KernelFiles where Self: KernelDescriptors {
    /// A regular file opened for reading without ever blocking in open (O_RDONLY | O_NONBLOCK |
    /// O_NOCTTY: a FIFO without a writer opens at once), and its status; anything else is refused
    /// "not a regular file (a FIFO)". Errors name `path`.
    public func openRegularFile(_ path: String) throws(SysError) -> (fd: Int32, status: FileStatus) {
        let fd: Int32
        do { fd = try open(path, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch { throw error.on(path) }
        do throws(SysError) {
            let st = try status(fd)
            guard st.kind == .regular else {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            return (fd, st)
        } catch {
            close(fd)
            throw error.on(path)
        }
    }

    /// A regular file — a sysfs attribute, a small state file — opened for writing (O_WRONLY |
    /// `flags`) without ever blocking: O_NONBLOCK | O_NOCTTY, and refused by fstat unless regular.
    public func openRegularFileForWriting(_ path: String, _ flags: Int32 = 0) throws(SysError) -> Int32 {
        let fd: Int32
        do { fd = try open(path, flags: O_WRONLY | O_NONBLOCK | O_NOCTTY | flags) } catch {
            // A FIFO without a reader: ENXIO, said as what it is.
            if error.errno == ENXIO, let st = try? fileStatus(path), st.kind != .regular {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            throw error.on(path)
        }
        do throws(SysError) {
            let st = try status(fd)
            guard st.kind == .regular else {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            return fd
        } catch {
            close(fd)
            throw error.on(path)
        }
    }

    /// The whole of a small text file (a sysfs attribute) read with one pread from 0; a file of
    /// `limit` bytes or more is refused (EFBIG), never silently cut. Errors name `path`.
    public func readSmallFile(_ path: String, limit: Int = 4096) throws(SysError) -> String {
        let (fd, _) = try openRegularFile(path)
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: limit)
        let r: Result<Int, SysError> = buf.withUnsafeMutableBytes { b in Result { () throws(SysError) in try pread(fd, into: b, at: 0) } }
        switch r {
        case let .success(n):
            if n == limit { throw SysError(call: "read", errno: EFBIG, target: path) }
            return String(decoding: buf[0..<n], as: UTF8.self)
        case let .failure(e): throw e.on(path)
        }
    }

    /// write(2) of all of `bytes` (short writes continued; EINTR retried).
    public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SysError) {
        var done = 0
        while done < bytes.count {
            do { done += try write(fd, UnsafeRawBufferPointer(rebasing: bytes[done...])) } catch where error.errno == EINTR { continue }
        }
    }

    /// Writes a small text file that must be regular (a sysfs attribute): opened with
    /// `openRegularFileForWriting(path, flags)`, written whole, closed. Errors name `path`.
    public func writeSmallFile(_ path: String, _ text: String, flags: Int32 = 0) throws(SysError) {
        let fd = try openRegularFileForWriting(path, flags)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let r: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try writeAll(fd, b) } }
        if case let .failure(e) = r { throw e.on(path) }
    }
}

extension SysError {
    /// The same failure naming `path` (unless it names one already).
    public func on(_ path: String) -> SysError {
        SysError(call: call, errno: errno, target: target ?? path, detail: detail)
    }
}

extension KernelFiles where Self: KernelDescriptors {
    /// `replaceFile(_:mode:writing:)` through this kernel: `body` writes to the new file's
    /// descriptor (opened O_EXCL beside `path`, so a regular file of ours); when it throws, the
    /// new file is removed and `path` is left as it was; else it is renamed over `path` (the
    /// unlink and the rename through this kernel too).
    public func replaceFile(_ path: String, mode: UInt32 = 0o644, writing body: (Int32) throws(SysError) -> Void) throws(SysError) {
        let temporary = path + ".\(getpid()).tmp"
        try? removeFile(temporary)
        let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY, mode: mode)
        do throws(SysError) { try body(fd) } catch {
            close(fd)
            try? removeFile(temporary)
            throw error.on(temporary)
        }
        close(fd)
        do { try renameFile(temporary, to: path) } catch {
            try? removeFile(temporary)
            throw SysError(call: "rename", errno: error.errno, target: path)
        }
    }
}

extension KernelFiles where Self: KernelDescriptors {
    /// `replaceFile(_:with:mode:)` through this kernel: `bytes` written whole to a new file
    /// beside `path`, renamed over it (readers see the old file or the new one, never a part).
    public func replaceFile(_ path: String, with bytes: [UInt8], mode: UInt32 = 0o644) throws(SysError) {
        try replaceFile(path, mode: mode) { (fd) throws(SysError) in
            let r: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try writeAll(fd, b) } }
            try r.get()
        }
    }

    /// Whether something is at `path` (stat(2) through this kernel succeeds; links followed).
    public func fileExists(_ path: String) -> Bool { (try? fileStatus(path)) != nil }
}

extension KernelFiles {
    /// The identity of the file at `path` (stat(2) through this kernel, links followed): what
    /// the glyph cache and the frame cache tell versions of a file apart by; nil when it cannot
    /// be stat'ed (missing, no permission).
    public func fileIdentity(_ path: String) -> FileIdentity? {
        (try? fileStatus(path)).map(FileIdentity.init)
    }
}
