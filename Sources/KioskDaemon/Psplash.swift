import Glibc
import KioskSeams
import KioskSys

/// psplash's FIFO, so that scripts that call psplash-write work unchanged: commands as
/// psplash-write sends them (each ends with a NUL; a newline ends one too): `PROGRESS n`
/// (0–100), `MSG text`, `QUIT`.
public final class PsplashFIFO {
    /// What a command asks for.
    public enum Command: Equatable, Sendable {
        case progress(Double)
        case message(String)
        case quit
    }

    /// The FIFO's path: $PSPLASH_FIFO_DIR/psplash_fifo, else /run/psplash_fifo (psplash's rule).
    public static var defaultPath: String {
        (environmentValue("PSPLASH_FIFO_DIR") ?? "/run") + "/psplash_fifo"
    }

    /// The longest command kept (psplash reads 1 KiB at most).
    static let maxCommand = 1024
    /// The longest `MSG` text, in bytes of UTF-8 (the label's limit): a longer one is cut to
    /// it, whole characters (an invalid byte decodes to U+FFFD, three bytes, so 1020 bytes of
    /// psplash's command may be 3060 of text).
    public static let maxMessage = 1024

    /// `text`'s first characters that fit in `limit` bytes of UTF-8.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = "", bytes = 0
        for c in text {
            let n = c.utf8.count
            if bytes + n > limit { break }
            out.append(c)
            bytes += n
        }
        return out
    }

    let kernel: Kernel
    let loop: EventLoop
    public let path: String
    /// The FIFO, opened for reading and writing: our own writer keeps it from ever reporting end
    /// of file between writers (which would make poll report it readable for ever), and being
    /// one descriptor it needs no second open by path that another file could be put under.
    private let fd: Int32
    private var token: LoopToken?
    private var pending: [UInt8] = []
    private let handle: (Command) -> Void
    private let log: (String) -> Void
    /// Bad commands: one line, then a count (`ControlServer.logWindow`).
    private let badLines: RepeatLog<Bool>

    /// Makes the FIFO at `path` (0600) if needed and reads it on `loop`; `handle` gets each
    /// command. A FIFO found there is read only when it is trusted (`Distrust`; one in a
    /// directory that is the daemon's alone is replaced instead); `user` is the daemon's (its
    /// effective user id; nil: `kernel`'s answer), whose FIFOs are trusted as root's are.
    public init(path: String, kernel: Kernel, loop: EventLoop, user: UInt32? = nil, log: @escaping (String) -> Void,
                handle: @escaping (Command) -> Void) throws(PsplashFIFOError) {
        let user = user ?? kernel.effectiveUserID()
        self.kernel = kernel; self.loop = loop; self.path = path; self.handle = handle; self.log = log
        badLines = RepeatLog(loop: loop, window: ControlServer.logWindow, log: log) { _ in "psplash: not a command" }
        fd = try PsplashFIFO.openTrusted(path, kernel: kernel, user: user, log: log)
        token = loop.watch(fd, .readable) { [unowned self] _ in self.read() }
    }

    /// Stops reading and closes the FIFO (the file stays, as psplash leaves it); bad commands
    /// still being counted are logged.
    public func close() {
        if let token { loop.cancel(token) }
        token = nil
        kernel.close(fd)
        badLines.close()
    }

    // MARK: Trust

    /// Why a FIFO found at the path is not read. Whoever can write psplash's FIFO can end the
    /// daemon (`QUIT`) and write its label (`MSG`); psplash-write runs as root, so the FIFO is
    /// to be written by root (and the daemon's user) alone.
    public enum Distrust: Equatable, Sendable, CustomStringConvertible {
        /// A symbolic link: what it names may be anyone's, and may change after the check.
        case symbolicLink
        /// Not a FIFO at all (a file, a directory, a socket …).
        case notFIFO(FileKind)
        /// Owned by another user than root and the daemon's: its owner may write it, and may
        /// make it writable by anyone at any time.
        case owner(UInt32)
        /// Writable by every user (mode & 0o002). Group write is left alone: only root or the
        /// daemon's user can have granted it to a group, as `--group` grants the control socket.
        case writableByOthers(permissions: UInt32)

        public var description: String {
            switch self {
            case .symbolicLink: "a symbolic link"
            case let .notFIFO(kind): "not a FIFO (\(kind))"
            case let .owner(uid): "owned by uid \(uid), not root or the daemon's user"
            case let .writableByOthers(p): "writable by every user (mode \(String(p, radix: 8)))"
            }
        }
    }

    /// Why a file with `status` (lstat's or fstat's) may not be read as psplash's FIFO, if it may not.
    public static func distrust(_ status: FileStatus, user: UInt32) -> Distrust? {
        if status.kind == .symbolicLink { return .symbolicLink }
        if status.kind != .fifo { return .notFIFO(status.kind) }
        if status.ownerID != 0 && status.ownerID != user { return .owner(status.ownerID) }
        if status.permissions & 0o002 != 0 { return .writableByOthers(permissions: status.permissions) }
        return nil
    }

    /// Whether a directory with `status` (stat's, links followed: /var/run is /run) is the
    /// daemon's alone: owned by root or the daemon's user and writable by no one else. Only
    /// they can have put anything in it, so a FIFO there that is not trusted (left by a run as
    /// another user, or made with a loose mode) can be replaced without a race. A directory
    /// others may write — sticky (/tmp) or not — is not: its names are anyone's first, another
    /// user could put a new FIFO back as soon as the old one went, and a daemon that removes
    /// other users' files there would only be fighting them. There the FIFO is refused, and
    /// the log says to give the daemon a directory of its own.
    public static func isDaemonsDirectory(_ status: FileStatus, user: UInt32) -> Bool {
        status.kind == .directory && status.isWritableOnly(byRootOr: user)
    }

    /// The directory `path` is in ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Opens the FIFO at `path` (made first when missing, replaced when untrusted in the
    /// daemon's own directory) and checks what was opened. The check that counts is the
    /// descriptor's (fstat): open(2) does not follow a link (O_NOFOLLOW) and does not block
    /// (O_NONBLOCK; O_NOCTTY: a terminal put there never becomes the daemon's), so whatever
    /// was swapped in between the look by path and the open is what fstat describes.
    static func openTrusted(_ path: String, kernel: Kernel, user: UInt32, log: (String) -> Void) throws(PsplashFIFOError) -> Int32 {
        try prepare(path, kernel: kernel, user: user, log: log)
        let fd: Int32
        do throws(SysError) {
            fd = try kernel.open(path, flags: O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        } catch where error.errno == ELOOP {
            throw .refused(path: path, .symbolicLink, directory: parentDirectory(of: path))
        } catch {
            throw .system(error)
        }
        let status: FileStatus
        do throws(SysError) { status = try kernel.status(fd) } catch {
            kernel.close(fd)
            throw .system(error)
        }
        if let why = distrust(status, user: user) {
            kernel.close(fd)
            throw .refused(path: path, why, directory: parentDirectory(of: path))
        }
        return fd
    }

    /// Makes the FIFO when nothing is at `path`; leaves a trusted one as it is; replaces an
    /// untrusted FIFO in the daemon's own directory (`isDaemonsDirectory`); refuses the rest.
    /// A link or something that is not a FIFO is never removed: it is not a FIFO the daemon
    /// made, and may be something of the system's (`--psplash-fifo` given a wrong path).
    static func prepare(_ path: String, kernel: Kernel, user: UInt32, log: (String) -> Void) throws(PsplashFIFOError) {
        let found: FileStatus
        do throws(SysError) { found = try kernel.linkStatus(path) } catch where error.errno == ENOENT {
            try make(path, kernel: kernel)
            return
        } catch {
            throw .system(error)
        }
        guard let why = distrust(found, user: user) else { return }
        let dir = parentDirectory(of: path)
        guard found.kind == .fifo, let d = try? kernel.fileStatus(dir), isDaemonsDirectory(d, user: user) else {
            throw .refused(path: path, why, directory: dir)
        }
        do throws(SysError) { try kernel.removeFile(path) } catch { throw .system(error) }
        try make(path, kernel: kernel)
        log("psplash: replaced \(path): it was \(why), in \(dir), a directory only root and the daemon's user may write")
    }

    /// mkfifo(2), 0600 (as psplash makes it).
    private static func make(_ path: String, kernel: Kernel) throws(PsplashFIFOError) {
        do throws(SysError) { try kernel.makeFIFO(path, mode: 0o600) } catch { throw .system(error) }
    }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do { n = try kernel.read(fd, into: &buffer) } catch { return }
            if n <= 0 { return }
            for byte in buffer[..<n] {
                if byte == 0 || byte == 0x0A {
                    if !pending.isEmpty { command(pending) }
                    pending.removeAll(keepingCapacity: true)
                } else if pending.count < PsplashFIFO.maxCommand {
                    pending.append(byte)
                }
            }
        }
    }

    private func command(_ bytes: [UInt8]) {
        guard let c = PsplashFIFO.parse(bytes) else {
            badLines.write(true, "psplash: not a command (PROGRESS 0-100, MSG text, QUIT): \(String(decoding: bytes.prefix(80), as: UTF8.self))")
            return
        }
        handle(c)
    }

    /// One command's bytes (without its terminator), or nil when it is not one.
    public static func parse(_ bytes: [UInt8]) -> Command? {
        let text = String(decoding: bytes, as: UTF8.self)
        let word = text.prefix { $0 != " " }
        let rest = text.dropFirst(word.count).drop { $0 == " " }
        switch word {
        case "PROGRESS":
            guard let n = Int(rest.prefix { $0 != " " }), (0...100).contains(n) else { return nil }
            return .progress(Double(n) / 100)
        case "MSG": return .message(cut(String(rest), toBytes: maxMessage))
        case "QUIT": return .quit
        default: return nil
        }
    }
}

/// Why psplash's FIFO is not read (the daemon goes on without it).
public enum PsplashFIFOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is at `path` is not trusted (`PsplashFIFO.Distrust`), and was not replaced: it is
    /// not a FIFO, or `directory` is not the daemon's alone.
    case refused(path: String, PsplashFIFO.Distrust, directory: String)
    /// A call failed (lstat, mkfifo, unlink, open, fstat).
    case system(SysError)

    public var description: String {
        switch self {
        case let .refused(path, why, dir):
            "\(shownPath(path)) refused: \(why); " + (why.isReplaceable
                ? "its owner, or any user, could send QUIT and MSG through it. Not replaced: \(shownPath(dir)) is not the daemon's alone "
                    + "(owned by root or its user, writable by no one else); give the daemon a directory of its own, e.g. PSPLASH_FIFO_DIR=/run"
                : "not a FIFO the daemon made (nor one it replaces); give the daemon a path of its own, e.g. PSPLASH_FIFO_DIR=/run")
        case let .system(error): "\(error)"
        }
    }
}

extension PsplashFIFO.Distrust {
    /// Whether `prepare` replaces a file this distrusted in the daemon's own directory (a FIFO).
    var isReplaceable: Bool {
        switch self {
        case .owner, .writableByOthers: true
        case .symbolicLink, .notFIFO: false
        }
    }
}
