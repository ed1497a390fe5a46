// KioskSys — every system call the Linux backends make, wrapped once, swift-system style: a
// Swift-named throwing function over the one place that calls into C, retrying on EINTR, with
// the failing call's name (and path, where there is one) in the error. Backends call these, never
// Glibc directly, so that a test can see and fake the calls where a backend takes a `Kernel`.
import CKioskSys
import Glibc

/// A failed system call: which call, on what, and errno.
public struct SysError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The call, e.g. "open", "ioctl(DRM_IOCTL_MODE_CREATE_DUMB)".
    public var call: String
    public var errno: Int32
    /// The path or device concerned, if any.
    public var target: String?
    /// Why, when errno alone would mislead (e.g. "not a regular file (a FIFO)").
    public var detail: String?

    public init(call: String, errno: Int32, target: String? = nil, detail: String? = nil) {
        self.call = call; self.errno = errno; self.target = target; self.detail = detail
    }

    public var description: String {
        if let detail { return "\(target.map(shownPath) ?? call): \(detail)" }
        let what = target.map { " \(shownPath($0))" } ?? ""
        return "\(call)\(what) failed: \(reason) (errno \(errno))"
    }

    /// errno's text, e.g. "No such file or directory".
    public var reason: String { String(cString: strerror(errno)) }
}

/// A path for an error message: as given up to 80 characters, then "…" (a 4 KB path must not
/// make a 4 KB line; the rule every message of kiosk-hud follows for the values it echoes).
public func shownPath(_ path: String) -> String {
    var out = String.UnicodeScalarView()
    for (i, u) in path.unicodeScalars.enumerated() {
        if i == 80 { return String(out) + "…" }
        out.append(u)
    }
    return path
}

/// Runs `body` until it does not fail with EINTR; a result of -1 throws `SysError(call, errno)`.
@inline(__always)
func retrying<T: BinaryInteger>(_ call: @autoclosure () -> String, _ target: String? = nil, _ body: () -> T) throws(SysError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        throw SysError(call: call(), errno: e, target: target)
    }
}

/// An open file descriptor. Closed by `close()`; a `FileDescriptor` is a plain value (like
/// swift-system's), so the owner decides when.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// open(2). `flags` are O_* (O_CLOEXEC is always added).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SysError) -> FileDescriptor {
        let fd = try retrying("open", path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// open(2) for reading that cannot block whatever `path` is (O_RDONLY | O_NONBLOCK |
    /// O_NOCTTY): a FIFO without a writer opens at once, a terminal does not become the
    /// controlling one. The caller checks `status()` before reading (a FIFO's read would still
    /// find no data).
    public static func openForReading(_ path: String) throws(SysError) -> FileDescriptor {
        try open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
    }

    /// A regular file opened for reading without ever blocking in open (a FIFO or a device given
    /// where a file is expected is refused: "not a regular file (a FIFO)"), and its status.
    public static func openRegularFile(_ path: String) throws(SysError) -> (FileDescriptor, FileStatus) {
        let fd = try openForReading(path)
        do throws(SysError) {
            let st = try fd.status()
            guard st.kind == .regular else {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            return (fd, st)
        } catch {
            try? fd.close()
            throw SysError(call: error.call, errno: error.errno, target: path, detail: error.detail)
        }
    }

    /// open(2) for writing (O_WRONLY | `flags`) of a file that must be a regular file — a
    /// sysfs attribute, a small state file — that cannot block whatever `path` is: opened with
    /// O_NONBLOCK | O_NOCTTY (a FIFO without a reader fails at once, with one it opens) and
    /// refused by fstat unless regular: "not a regular file (a FIFO)".
    public static func openRegularFileForWriting(_ path: String, _ flags: Int32 = 0) throws(SysError) -> FileDescriptor {
        let fd: FileDescriptor
        do throws(SysError) { fd = try open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | flags) } catch {
            if error.errno == ENXIO, let st = try? fileStatus(path), st.kind != .regular {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            throw error
        }
        do throws(SysError) {
            let st = try fd.status()
            guard st.kind == .regular else {
                throw SysError(call: "open", errno: EINVAL, target: path, detail: "not a regular file (\(st.kind))")
            }
            return fd
        } catch {
            try? fd.close()
            throw SysError(call: error.call, errno: error.errno, target: path, detail: error.detail)
        }
    }

    /// fstat(2): what the descriptor is and its size.
    public func status() throws(SysError) -> FileStatus {
        var st = stat()
        _ = try retrying("fstat") { fstat(rawValue, &st) }
        return FileStatus(st)
    }

    /// close(2). Never retried (Linux closes the descriptor even when interrupted).
    public func close() throws(SysError) {
        if Glibc.close(rawValue) == -1 && Glibc.errno != EINTR {
            throw SysError(call: "close", errno: Glibc.errno)
        }
    }

    /// ioctl(2) with a pointer argument; `name` names the request in errors.
    @discardableResult
    public func ioctl(_ request: UInt, _ arg: UnsafeMutableRawPointer?, name: String) throws(SysError) -> Int32 {
        try retrying("ioctl(\(name))") { kiosk_ioctl(rawValue, request, arg) }
    }

    /// pread(2) into `buffer`; returns the bytes read.
    public func pread(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SysError) -> Int {
        try retrying("pread") { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// read(2) into `buffer`; returns the bytes read (0 at end of file).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SysError) -> Int {
        try retrying("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// One write(2) (EINTR retried); returns the bytes written, which may be fewer than given.
    public func writeOnce(_ bytes: UnsafeRawBufferPointer) throws(SysError) -> Int {
        try retrying("write") { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// write(2) of all of `bytes` (loops on short writes).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SysError) {
        var done = 0
        while done < bytes.count {
            let n = try retrying("write") { Glibc.write(rawValue, bytes.baseAddress! + done, bytes.count - done) }
            done += n
        }
    }

    /// mmap(2) of `length` bytes at `offset`, shared, read/write.
    public func mmap(length: Int, offset: Int, prot: Int32 = PROT_READ | PROT_WRITE) throws(SysError) -> UnsafeMutableRawPointer {
        let p = Glibc.mmap(nil, length, prot, MAP_SHARED, rawValue, off_t(offset))
        if p == MAP_FAILED || p == nil { throw SysError(call: "mmap", errno: Glibc.errno) }
        return p!
    }
}

/// munmap(2).
public func unmap(_ p: UnsafeMutableRawPointer, length: Int) throws(SysError) {
    if Glibc.munmap(p, length) == -1 { throw SysError(call: "munmap", errno: Glibc.errno) }
}

/// poll(2) on `fds` (events in, revents out) for up to `timeoutMs` (−1 = forever); EINTR counts
/// as a timeout with no events. Returns how many descriptors have events.
public func poll(_ fds: inout [pollfd], timeoutMs: Int32) throws(SysError) -> Int {
    let n = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMs) }
    if n == -1 {
        if Glibc.errno == EINTR { return 0 }
        throw SysError(call: "poll", errno: Glibc.errno)
    }
    return Int(n)
}

/// The whole of a small text file (sysfs attributes, board profiles), or a SysError naming the
/// path; a file of `limit` bytes or more is refused (EFBIG), never silently cut.
public func readSmallFile(_ path: String, limit: Int = 4096) throws(SysError) -> String {
    let (fd, _) = try FileDescriptor.openRegularFile(path)
    defer { try? fd.close() }
    var buf = [UInt8](repeating: 0, count: limit)
    let r: Result<Int, SysError> = buf.withUnsafeMutableBytes { b in Result { () throws(SysError) in try fd.pread(into: b, at: 0) } }
    switch r {
    case let .success(n):
        if n == limit { throw SysError(call: "read", errno: EFBIG, target: path) }
        return String(decoding: buf[0..<n], as: UTF8.self)
    case let .failure(e): throw SysError(call: e.call, errno: e.errno, target: path)
    }
}

/// Writes a small text file (a sysfs attribute).
public func writeSmallFile(_ path: String, _ text: String) throws(SysError) {
    let fd = try FileDescriptor.openRegularFileForWriting(path)
    defer { try? fd.close() }
    let bytes = Array(text.utf8)
    let r: Result<Void, SysError> = bytes.withUnsafeBytes { b in Result { () throws(SysError) in try fd.write(b) } }
    if case let .failure(e) = r { throw SysError(call: e.call, errno: e.errno, target: path) }
}

/// The names in a directory (without "." and ".."), sorted; nil if it cannot be opened.
public func listDirectory(_ path: String) -> [String]? {
    guard let d = opendir(path) else { return nil }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Whether `path` exists.
public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// The target of the symbolic link `path` (readlink(2)), nil when it is not one or cannot be
/// read. `/proc/self/exe` gives this program's path; a sysfs `device/driver` link, the driver.
public func readLink(_ path: String) -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = Glibc.readlink(path, &buf, buf.count)
    guard n > 0, n < buf.count else { return nil }
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Seconds on CLOCK_MONOTONIC.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// nanosleep(2) for `seconds` (restarted after signals until the time is up).
public func sleepFor(_ seconds: Double) {
    guard seconds > 0 else { return }
    var req = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var rem = timespec()
    while nanosleep(&req, &rem) == -1 && Glibc.errno == EINTR { req = rem }
}

/// Nanoseconds on CLOCK_MONOTONIC.
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// CLOCK_MONOTONIC nanoseconds when the program's C constructors ran: after the dynamic loader
/// and the shared libraries' own constructors, before `main`.
public func processStartNanoseconds() -> UInt64 { UInt64(kiosk_process_start_ns()) }

/// Page faults (minor + major, getrusage) of this process so far, and when its C constructors ran:
/// start-up cost that a profile of instructions does not show (each one is a trap, and a read of
/// the file on a cold page cache).
public func pageFaults() -> (now: Int, atStart: Int) {
    (kiosk_page_faults(), kiosk_process_start_page_faults())
}

/// Milliseconds since this process was exec'd, from /proc/self/stat's starttime (clock ticks
/// since boot, so 10 ms resolution) and CLOCK_BOOTTIME — the same rule as Tests/VM/ref/modeset.c.
public func millisecondsSinceExec() -> Double? {
    guard let stat = try? readSmallFile("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After ")": field 3 (state) is fields[0]; starttime is field 22.
    guard fields.count > 19, let start = Double(fields[19]) else { return nil }
    var now = timespec()
    clock_gettime(CLOCK_BOOTTIME, &now)
    let nowMs = Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
    return nowMs - start * 1e3 / Double(sysconf(Int32(_SC_CLK_TCK)))
}
