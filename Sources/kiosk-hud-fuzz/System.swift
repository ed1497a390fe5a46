// The few system calls the harness makes, straight from Glibc (no Foundation): files, FIFOs and
// directories for generated inputs, time, and memory figures.
import Glibc

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanos() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Milliseconds between two `monotonicNanos()` readings.
func millis(_ from: UInt64, _ to: UInt64) -> Double { Double(to &- from) / 1e6 }

/// Writes `text` to descriptor `fd` at once (write(2): nothing is buffered, so nothing is written
/// twice by a forked worker).
func emit(_ text: String, to fd: Int32 = 1) {
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0 { if errno == EINTR { continue }; return }
        done += n
    }
    bytes.removeAll()
}

/// A line on stdout.
func say(_ line: String) { emit(line + "\n") }

/// A line on stderr.
func warn(_ line: String) { emit(line + "\n", to: 2) }

/// A new directory /tmp/PREFIX.XXXXXX.
func makeTempDir(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { p in
        guard let made = mkdtemp(p.baseAddress!) else { fatalError("mkdtemp /tmp/\(prefix): errno \(errno)") }
        return String(cString: made)
    }
}

/// `path` and its missing parents (errors ignored: a generated tree may be meant to fail).
// mkdir(2) itself, not through a `Kernel`: the fuzzer is a driving tool, not product code.
func makeDirectories(_ path: String) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        mkdir(current, 0o755)
    }
}

/// Writes `bytes` to a new regular file at `path` (replacing one). Something else already there
/// (a FIFO a generated tree put at the same name) is left as it is: opened without blocking,
/// and never written unless it is a regular file.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, ftruncate(fd, 0) == 0 else { return }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
        done += n
    }
}

func writeFile(_ path: String, _ text: String) { writeFile(path, Array(text.utf8)) }

/// A FIFO at `path`.
func makeFIFO(_ path: String) { mkfifo(path, 0o644) }

/// A symbolic link at `path` to `target`.
func makeSymlink(_ target: String, at path: String) { symlink(target, path) }

/// Whether something (even a dangling link) is at `path`.
func pathExists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
}

/// Removes `path` and everything under it, never following a symbolic link.
func removeTree(_ path: String) {
    var st = stat()
    guard lstat(path, &st) == 0 else { return }
    if st.st_mode & S_IFMT == S_IFDIR {
        chmod(path, 0o755)
        if let d = opendir(path) {
            var names: [String] = []
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(d)
            for n in names { removeTree(path + "/" + n) }
        }
        rmdir(path)
    } else {
        unlink(path)
    }
}

/// The bytes of the regular file at `path` (at most `limit`), opened without blocking: nil for
/// anything that is not a regular file or cannot be read.
func readFile(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while out.count < limit {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, Swift.min($0.count, limit - out.count)) }
        if n < 0 { if errno == EINTR { continue }; return nil }
        if n == 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    return out
}

/// The names in directory `path` (sorted), or nil.
func listDirectory(_ path: String) -> [String]? {
    guard let d = opendir(path) else { return nil }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Whether `path` is a directory.
func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
}

/// This executable's path (/proc/self/exe).
func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The directory part of `path`.
func directoryOf(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// This process's peak resident set so far, in bytes (getrusage's ru_maxrss: the kernel's
/// high-water mark, which a short allocation freed again still raises).
func peakRSSBytes() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss * 1024
}

/// This process's resident set now, in bytes: all of it and the anonymous part (/proc/self/statm's
/// resident and resident − shared fields × the page size), read without allocating (the soak
/// reads it between frames and must not disturb what it measures).
func residentBytes() -> (total: Int, anonymous: Int) {
    let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return (0, 0) }
    defer { close(fd) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
        let n = read(fd, buffer.baseAddress, buffer.count)
        guard n > 0 else { return (0, 0) }
        var field = 0, value = 0, resident = 0
        for i in 0..<n {
            let c = buffer[i]
            if c == 0x20 {
                if field == 1 { resident = value }
                if field == 2 { break }
                field += 1
                value = 0
            } else if c >= 0x30, c <= 0x39 {
                value = value * 10 + Int(c - 0x30)
            }
        }
        return (resident * pageSize, (resident - value) * pageSize)
    }
}

/// This process's resident set now, in bytes (see `residentBytes`).
func currentRSSBytes() -> Int { residentBytes().total }

/// The page size in bytes.
let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

/// Megabytes with one decimal.
func mb(_ bytes: Int) -> String { decimal(Double(bytes) / 1_048_576, 1) + " MB" }

/// `v` with `digits` decimals (no Foundation formatting).
func decimal(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return String(v) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (abs(v) * scale).rounded()
    let whole = Int(r / scale), frac = Int(r - Double(whole) * scale)
    var s = (v < 0 && r != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        s += "." + f
    }
    return s
}

/// The name of signal `n` (SIGSEGV …) or "signal N".
func signalName(_ n: Int32) -> String {
    switch n {
    case SIGHUP: "SIGHUP"
    case SIGINT: "SIGINT"
    case SIGQUIT: "SIGQUIT"
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGBUS: "SIGBUS"
    case SIGFPE: "SIGFPE"
    case SIGKILL: "SIGKILL"
    case SIGSEGV: "SIGSEGV"
    case SIGPIPE: "SIGPIPE"
    case SIGALRM: "SIGALRM"
    case SIGTERM: "SIGTERM"
    case SIGXCPU: "SIGXCPU"
    case SIGXFSZ: "SIGXFSZ"
    case SIGSYS: "SIGSYS"
    default: "signal \(n)"
    }
}

/// glibc's malloc_trim(0): free heap memory given back to the kernel, so what a case allocated
/// and freed does not stay resident (not in Swift's Glibc module: found with dlsym).
func trimHeap() {
    guard let f = mallocTrim else { return }
    _ = f(0)
}

private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let p = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }  // RTLD_DEFAULT
    return unsafeBitCast(p, to: (@convention(c) (Int) -> Int32).self)
}()
