import Glibc
import KioskDevices
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
    private let reader: Int32
    /// Our own writer, so that the FIFO never reports end of file between writers (which would
    /// make poll report it readable for ever).
    private let keeper: Int32
    private var token: LoopToken?
    private var pending: [UInt8] = []
    private let handle: (Command) -> Void
    private let log: (String) -> Void
    /// Bad commands: one line, then a count (`ControlServer.logWindow`).
    private let badLines: RepeatLog<Bool>

    /// Makes the FIFO at `path` (0600) if needed and reads it on `loop`; `handle` gets each command.
    public init(path: String, kernel: Kernel, loop: EventLoop, log: @escaping (String) -> Void,
                handle: @escaping (Command) -> Void) throws(SysError) {
        self.kernel = kernel; self.loop = loop; self.path = path; self.handle = handle; self.log = log
        badLines = RepeatLog(loop: loop, window: ControlServer.logWindow, log: log) { _ in "psplash: not a command" }
        try makeFIFO(path, mode: 0o600)
        reader = try kernel.open(path, flags: O_RDONLY | O_NONBLOCK)
        do { keeper = try kernel.open(path, flags: O_WRONLY | O_NONBLOCK) } catch {
            kernel.close(reader)
            throw error
        }
        token = loop.watch(reader, .readable) { [unowned self] _ in self.read() }
    }

    /// Stops reading and closes the FIFO (the file stays, as psplash leaves it); bad commands
    /// still being counted are logged.
    public func close() {
        if let token { loop.cancel(token) }
        token = nil
        kernel.close(reader)
        kernel.close(keeper)
        badLines.close()
    }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do { n = try kernel.read(reader, into: &buffer) } catch { return }
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
