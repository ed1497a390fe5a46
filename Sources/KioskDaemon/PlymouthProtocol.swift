import KioskBoards

// Plymouth's boot protocol, as plymouthd and its clients speak it on the abstract Unix socket
// "\0/org/freedesktop/plymouthd" (read from Debian 12's plymouth 22.02 client with strace, and
// from what systemd's PID 1 writes). docs/plymouth.md has the table of requests.
//
// A request is a command byte, then either a NUL (no argument), or 0x02, one length byte that
// counts the argument's bytes and its trailing NUL, the bytes and the NUL:
//
//     "P\0"                              ping
//     "U\x02\x17NetworkManager.service\0"  a boot status (what PID 1 writes for each unit)
//     "Q\x02\x01\0"  quit, "Q\x02\x02\x01\0"  quit and retain the splash
//
// A reply is one byte — ACK 0x06, NAK 0x15, no answer 0x05 — or an answer: 0x02, its length as
// 4 bytes little-endian, its bytes (no NUL); several answers: 0x09, the length, the answers
// each ending with a NUL. Requests may follow each other on one connection without waiting
// for replies; the replies come in order.
//
// Strict and bounded: a request is at most 3 + 255 bytes, so a decoder keeps at most that of a
// request that is not complete yet. Framing that cannot be followed (a command byte that is not
// printable ASCII, a second byte that is neither NUL nor 0x02, a length of 0, an argument that
// does not end with its NUL) ends the stream; a request that is framed right but means nothing
// (an unknown command, a missing or extra argument, text that is not UTF-8, an unknown mode) is
// refused on its own and the stream goes on.

/// The wire's constants.
public enum PlymouthWire {
    /// The abstract socket's name (without the leading NUL), plymouthd's and its clients'.
    public static let defaultSocketName = "/org/freedesktop/plymouthd"
    /// The longest argument (without its NUL): the length byte counts the NUL too.
    public static let maxArgument = 254
    /// The longest answer a client accepts (the daemon never sends one this long).
    public static let maxAnswer = 65536

    static let argumentMark: UInt8 = 0x02
    static let ack: UInt8 = 0x06, nak: UInt8 = 0x15, noAnswer: UInt8 = 0x05, answer: UInt8 = 0x02, answers: UInt8 = 0x09
}

/// One request as framed on the wire: its command byte, and its argument without the NUL.
public struct PlymouthFrame: Equatable, Sendable {
    /// The command byte (`P`, `U`, …).
    public var command: UInt8
    /// The argument's bytes without the trailing NUL; nil: the request has none.
    public var argument: [UInt8]?

    /// A frame of `command` with `argument` (nil: none).
    public init(command: UInt8, argument: [UInt8]? = nil) { self.command = command; self.argument = argument }

    /// The frame's bytes. An argument is cut at `PlymouthWire.maxArgument` bytes (the length
    /// byte cannot say more); `PlymouthRequest` refuses such text before it gets here.
    public var bytes: [UInt8] {
        guard let a = argument else { return [command, 0] }
        let body = a.prefix(PlymouthWire.maxArgument)
        return [command, PlymouthWire.argumentMark, UInt8(body.count + 1)] + body + [0]
    }
}

/// Framing that cannot be followed: the stream ends after it.
public enum PlymouthFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command byte is not printable ASCII.
    case badCommand(UInt8)
    /// The byte after the command is neither NUL (no argument) nor 0x02 (an argument).
    case badSeparator(UInt8)
    /// An argument's length byte is 0 (it always counts the NUL).
    case emptyLength
    /// An argument's last byte is not its NUL.
    case unterminated

    public var description: String {
        switch self {
        case let .badCommand(b): "command byte \(hex(b)) is not a printable character"
        case let .badSeparator(b): "after the command, \(hex(b)) instead of NUL or 0x02"
        case .emptyLength: "an argument of length 0 (the length counts the NUL)"
        case .unterminated: "an argument that does not end with a NUL"
        }
    }
}

func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
}

/// Reads requests from a stream of bytes as they arrive, in any pieces. Keeps at most one
/// incomplete request (258 bytes) between calls once every complete one is taken.
///
///     var d = PlymouthRequestDecoder()
///     d.append(bytes)
///     while let frame = try d.next() { … }
public struct PlymouthRequestDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Set once framing failed: nothing more is read.
    public private(set) var failed: PlymouthFramingError?

    public init() {}

    /// Bytes received and not yet taken as a request.
    public var pending: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, nil when more bytes are needed. Throws at framing that cannot
    /// be followed, and again at every later call.
    public mutating func next() throws(PlymouthFramingError) -> PlymouthFrame? {
        if let failed { throw failed }
        let n = buffer.count - start
        guard n >= 1 else { return compact(nil) }
        let command = buffer[start]
        guard command > 0x20 && command < 0x7F else { return try fail(.badCommand(command)) }
        guard n >= 2 else { return compact(nil) }
        switch buffer[start + 1] {
        case 0:
            start += 2
            return compact(PlymouthFrame(command: command))
        case PlymouthWire.argumentMark:
            guard n >= 3 else { return compact(nil) }
            let length = Int(buffer[start + 2])
            guard length > 0 else { return try fail(.emptyLength) }
            guard n >= 3 + length else { return compact(nil) }
            guard buffer[start + 2 + length] == 0 else { return try fail(.unterminated) }
            let argument = Array(buffer[(start + 3)..<(start + 2 + length)])
            start += 3 + length
            return compact(PlymouthFrame(command: command, argument: argument))
        case let other:
            return try fail(.badSeparator(other))
        }
    }

    private mutating func fail(_ e: PlymouthFramingError) throws(PlymouthFramingError) -> PlymouthFrame? {
        failed = e
        buffer = []; start = 0
        throw e
    }

    /// Drops what was taken once it is more than half the buffer (amortised O(1) per byte).
    private mutating func compact(_ f: PlymouthFrame?) -> PlymouthFrame? {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return f
    }
}

/// A request, read for what it asks. Every command plymouth 22.02 sends.
public enum PlymouthRequest: Equatable, Sendable {
    /// `P`: is the daemon there?
    case ping
    /// `U`: a boot status — each unit PID 1 starts, `plymouth update --status=TEXT`.
    case status(String)
    /// `C`: `plymouth change-mode --boot-up` …
    case changeMode(PlymouthMode)
    /// `u`: `plymouth system-update --progress=N`, a percentage.
    case systemUpdate(Int)
    /// `S`: the root file system is writable (`--sysinit`, `update-root-fs --read-write`).
    case systemInitialized
    /// `R`: a new root is mounted at the path (`--newroot=`, `update-root-fs --new-root-dir=`).
    case newRoot(String)
    /// `D`: let another program have the display; `r`: take it back.
    case deactivate, reactivate
    /// `Q`: quit, leaving the splash on screen with `retain`.
    case quit(retain: Bool)
    /// `M`, `m`: show and hide a message.
    case showMessage(String), hideMessage(String)
    /// `$`, `H`: show and hide the splash.
    case showSplash, hideSplash
    /// `A`, `a`: pause and unpause the progress.
    case pauseProgress, unpauseProgress
    /// `V`: does the daemon have the active VT?
    case hasActiveVT
    /// `!`: an error during boot (`report-error`, `--details`).
    case reportError
    /// `l`: reload the theme.
    case reload
    /// `*`: ask for a password (with a prompt); `c`: the cached passwords.
    case password(prompt: String?)
    case cachedPassword
    /// `W`: ask a question.
    case question(prompt: String?)
    /// `K`: tell the client when one of `keys` is pressed; `L`: stop.
    case watchKeystroke(keys: String?)
    case ignoreKeystroke(keys: String?)

    /// The command bytes, as the protocol names them.
    public static let commands: [UInt8: String] = [
        0x50: "ping", 0x55: "update", 0x43: "change-mode", 0x75: "system-update", 0x53: "system-initialized",
        0x52: "newroot", 0x44: "deactivate", 0x72: "reactivate", 0x51: "quit", 0x4D: "show-message", 0x6D: "hide-message",
        0x24: "show-splash", 0x48: "hide-splash", 0x41: "pause-progress", 0x61: "unpause-progress", 0x56: "has-active-vt",
        0x21: "report-error", 0x6C: "reload", 0x2A: "password", 0x63: "cached-password", 0x57: "question",
        0x4B: "watch-keystroke", 0x4C: "ignore-keystroke",
    ]

    /// Reads a frame. Throws (the request is refused, the stream goes on) when the command is
    /// unknown or its argument is missing, extra or not what the command takes.
    public init(_ f: PlymouthFrame) throws(PlymouthRequestError) {
        let c = f.command
        guard let name = PlymouthRequest.commands[c] else { throw PlymouthRequestError("unknown command '\(Character(Unicode.Scalar(c)))'") }
        func none() throws(PlymouthRequestError) {
            if f.argument != nil { throw PlymouthRequestError("\(name) takes no argument") }
        }
        func text(optional: Bool = false) throws(PlymouthRequestError) -> String? {
            guard let a = f.argument else {
                if optional { return nil }
                throw PlymouthRequestError("\(name) needs an argument")
            }
            guard !a.contains(0), let s = String(validating: a, as: UTF8.self) else {
                throw PlymouthRequestError("\(name): the argument is not UTF-8 text without NUL")
            }
            return s
        }
        switch c {
        case 0x50: try none(); self = .ping
        case 0x55: self = .status(try text()!)
        case 0x43:
            let m = try text()!
            guard let mode = PlymouthMode(rawValue: m) else {
                throw PlymouthRequestError("change-mode: unknown mode \(shownText(m)); expected \(PlymouthMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .changeMode(mode)
        case 0x75:
            let s = try text()!
            guard !s.isEmpty, s.utf8.count <= 3, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(s), n <= 100 else {
                throw PlymouthRequestError("system-update: \(shownText(s)) is not a percentage from 0 to 100")
            }
            self = .systemUpdate(n)
        case 0x53: try none(); self = .systemInitialized
        case 0x52: self = .newRoot(try text()!)
        case 0x44: try none(); self = .deactivate
        case 0x72: try none(); self = .reactivate
        case 0x51:
            switch f.argument {
            case []?: self = .quit(retain: false)
            case [1]?: self = .quit(retain: true)
            default: throw PlymouthRequestError("quit: the argument is empty, or 0x01 to retain the splash")
            }
        case 0x4D: self = .showMessage(try text()!)
        case 0x6D: self = .hideMessage(try text()!)
        case 0x24: try none(); self = .showSplash
        case 0x48: try none(); self = .hideSplash
        case 0x41: try none(); self = .pauseProgress
        case 0x61: try none(); self = .unpauseProgress
        case 0x56: try none(); self = .hasActiveVT
        case 0x21: try none(); self = .reportError
        case 0x6C: try none(); self = .reload
        case 0x2A: self = .password(prompt: try text(optional: true))
        case 0x63: try none(); self = .cachedPassword
        case 0x57: self = .question(prompt: try text(optional: true))
        case 0x4B: self = .watchKeystroke(keys: try text(optional: true))
        default: self = .ignoreKeystroke(keys: try text(optional: true))
        }
    }

    /// The request's frame. Throws when a text is longer than the wire can carry (254 bytes)
    /// or has a NUL in it.
    public func frame() throws(PlymouthRequestError) -> PlymouthFrame {
        func t(_ c: UInt8, _ s: String?) throws(PlymouthRequestError) -> PlymouthFrame {
            guard let s else { return PlymouthFrame(command: c) }
            let b = Array(s.utf8)
            guard b.count <= PlymouthWire.maxArgument, !b.contains(0) else {
                throw PlymouthRequestError("\(PlymouthRequest.commands[c] ?? "?"): text of at most \(PlymouthWire.maxArgument) bytes without NUL expected")
            }
            return PlymouthFrame(command: c, argument: b)
        }
        switch self {
        case .ping: return PlymouthFrame(command: 0x50)
        case let .status(s): return try t(0x55, s)
        case let .changeMode(m): return try t(0x43, m.rawValue)
        case let .systemUpdate(n):
            guard (0...100).contains(n) else { throw PlymouthRequestError("system-update: \(n) is not a percentage from 0 to 100") }
            return try t(0x75, String(n))
        case .systemInitialized: return PlymouthFrame(command: 0x53)
        case let .newRoot(p): return try t(0x52, p)
        case .deactivate: return PlymouthFrame(command: 0x44)
        case .reactivate: return PlymouthFrame(command: 0x72)
        case let .quit(retain): return PlymouthFrame(command: 0x51, argument: retain ? [1] : [])
        case let .showMessage(s): return try t(0x4D, s)
        case let .hideMessage(s): return try t(0x6D, s)
        case .showSplash: return PlymouthFrame(command: 0x24)
        case .hideSplash: return PlymouthFrame(command: 0x48)
        case .pauseProgress: return PlymouthFrame(command: 0x41)
        case .unpauseProgress: return PlymouthFrame(command: 0x61)
        case .hasActiveVT: return PlymouthFrame(command: 0x56)
        case .reportError: return PlymouthFrame(command: 0x21)
        case .reload: return PlymouthFrame(command: 0x6C)
        case let .password(p): return try t(0x2A, p)
        case .cachedPassword: return PlymouthFrame(command: 0x63)
        case let .question(p): return try t(0x57, p)
        case let .watchKeystroke(k): return try t(0x4B, k)
        case let .ignoreKeystroke(k): return try t(0x4C, k)
        }
    }

    /// The protocol's name for the request (docs/plymouth.md, the log).
    public var name: String { (try? frame()).flatMap { PlymouthRequest.commands[$0.command] } ?? "?" }
}

/// Why a request was refused (it gets NAK; the log says this).
public struct PlymouthRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Text for a message, cut at 80 characters.
func shownText(_ s: String) -> String {
    "\"" + (s.count > 80 ? String(s.prefix(79)) + "…" : s) + "\""
}

/// A reply.
public enum PlymouthReply: Equatable, Sendable {
    /// Done (0x06).
    case ack
    /// Refused, or no (0x15).
    case nak
    /// Nothing to answer with (0x05): e.g. no splash that can ask for a password.
    case noAnswer
    /// An answer (0x02): a password, a key.
    case answer([UInt8])
    /// Several answers (0x09): cached passwords.
    case answers([[UInt8]])

    /// The reply's bytes. An answer's length is 4 bytes, little-endian (as plymouthd writes
    /// it); each of several answers ends with a NUL (a NUL inside one cannot be sent and ends it).
    public var bytes: [UInt8] {
        func length(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 24) & 0xFF)] }
        switch self {
        case .ack: return [PlymouthWire.ack]
        case .nak: return [PlymouthWire.nak]
        case .noAnswer: return [PlymouthWire.noAnswer]
        case let .answer(a): return [PlymouthWire.answer] + length(a.count) + a
        case let .answers(list):
            let body = list.flatMap { $0.prefix { $0 != 0 } + [0] }
            return [PlymouthWire.answers] + length(body.count) + body
        }
    }
}

/// A reply stream that is not the protocol.
public struct PlymouthReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Reads replies from a stream of bytes as they arrive (a client's side). Answers longer than
/// `PlymouthWire.maxAnswer` are refused before they are read.
public struct PlymouthReplyDecoder: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Bytes received and not yet taken as a reply.
    public var pending: Int { buffer.count }

    /// Adds bytes read from the stream.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 { buffer.append(contentsOf: bytes) }

    /// The next complete reply, nil when more bytes are needed.
    public mutating func next() throws(PlymouthReplyError) -> PlymouthReply? {
        guard let kind = buffer.first else { return nil }
        switch kind {
        case PlymouthWire.ack: buffer.removeFirst(); return .ack
        case PlymouthWire.nak: buffer.removeFirst(); return .nak
        case PlymouthWire.noAnswer: buffer.removeFirst(); return .noAnswer
        case PlymouthWire.answer, PlymouthWire.answers:
            guard buffer.count >= 5 else { return nil }
            let n = Int(buffer[1]) | Int(buffer[2]) << 8 | Int(buffer[3]) << 16 | Int(buffer[4]) << 24
            guard n <= PlymouthWire.maxAnswer else { throw PlymouthReplyError("an answer of \(n) bytes (at most \(PlymouthWire.maxAnswer))") }
            guard buffer.count >= 5 + n else { return nil }
            let body = Array(buffer[5..<(5 + n)])
            buffer.removeSubrange(0..<(5 + n))
            if kind == PlymouthWire.answer { return .answer(body) }
            guard body.isEmpty || body.last == 0 else { throw PlymouthReplyError("several answers that do not end with a NUL") }
            return .answers(body.split(separator: 0, omittingEmptySubsequences: false).dropLast().map(Array.init))
        default:
            throw PlymouthReplyError("reply byte \(hex(kind)) is not ACK, NAK, an answer or no answer")
        }
    }
}
