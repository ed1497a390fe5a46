// D-Bus's wire format, written by the fuzzer (the dbus target's messages), and a bus played by
// it: a listening socket that a `RaucFollower` connects to as to dbus-daemon, the SASL
// exchange and the replies to Hello, AddMatch and GetNameOwner answered, then the case's bytes
// written as what the bus delivers. Nothing here reads D-Bus for the daemon: sd-bus parses what
// the follower receives, and KioskDaemon's walker reads it.
import Glibc
import KioskSys

/// A value to marshal, with what its signature needs (an array's element type).
indirect enum Wire {
    case y(UInt8), b(UInt32), n(Int16), q(UInt16), i(Int32), u(UInt32), x(Int64), t(UInt64), d(Double), h(UInt32)
    case s([UInt8]), o([UInt8]), g([UInt8])
    case v(Wire)
    /// An array of values of the element signature given.
    case a(String, [Wire])
    case r([Wire])
    case e(Wire, Wire)

    static func str(_ s: String) -> Wire { .s(Array(s.utf8)) }

    var signature: String {
        switch self {
        case .y: "y"
        case .b: "b"
        case .n: "n"
        case .q: "q"
        case .i: "i"
        case .u: "u"
        case .x: "x"
        case .t: "t"
        case .d: "d"
        case .h: "h"
        case .s: "s"
        case .o: "o"
        case .g: "g"
        case .v: "v"
        case let .a(element, _): "a" + element
        case let .r(fields): "(" + fields.map(\.signature).joined() + ")"
        case let .e(k, v): "{" + k.signature + v.signature + "}"
        }
    }

    /// The alignment of a type starting with `code`.
    static func alignment(_ code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"): 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 1
        }
    }
}

/// Where a marshalled message's lengths, padding and signatures are (for targeted mutations).
struct WireMark {
    enum Kind { case bodyLength, arrayLength, stringLength, padding, signature }
    var offset: Int
    var kind: Kind
}

/// Marshals values, aligned from the message's first byte, in either byte order.
struct Marshaller {
    var bytes: [UInt8] = []
    var marks: [WireMark] = []
    let big: Bool

    init(big: Bool) { self.big = big }

    mutating func align(_ n: Int) {
        while bytes.count % n != 0 {
            marks.append(WireMark(offset: bytes.count, kind: .padding))
            bytes.append(0)
        }
    }

    mutating func int(_ v: UInt64, _ width: Int) {
        align(width)
        for k in 0..<width {
            let shift = big ? (width - 1 - k) * 8 : k * 8
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
        }
    }

    /// Writes a 32-bit number at `at` (a length written after its contents).
    mutating func patch32(_ at: Int, _ v: UInt32) {
        for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: v >> UInt32(big ? (3 - k) * 8 : k * 8)) }
    }

    mutating func put(_ w: Wire) {
        switch w {
        case let .y(v): bytes.append(v)
        case let .b(v): int(UInt64(v), 4)
        case let .n(v): int(UInt64(UInt16(bitPattern: v)), 2)
        case let .q(v): int(UInt64(v), 2)
        case let .i(v): int(UInt64(UInt32(bitPattern: v)), 4)
        case let .u(v), let .h(v): int(UInt64(v), 4)
        case let .x(v): int(UInt64(bitPattern: v), 8)
        case let .t(v): int(v, 8)
        case let .d(v): int(v.bitPattern, 8)
        case let .s(t), let .o(t):
            align(4)
            marks.append(WireMark(offset: bytes.count, kind: .stringLength))
            int(UInt64(t.count), 4)
            bytes += t
            bytes.append(0)
        case let .g(t):
            marks.append(WireMark(offset: bytes.count, kind: .signature))
            bytes.append(UInt8(truncatingIfNeeded: t.count))
            bytes += t
            bytes.append(0)
        case let .v(inner):
            put(.g(Array(inner.signature.utf8)))
            put(inner)
        case let .a(element, items):
            align(4)
            let at = bytes.count
            marks.append(WireMark(offset: at, kind: .arrayLength))
            int(0, 4)
            align(Wire.alignment(element.utf8.first ?? 0))
            let start = bytes.count
            for item in items { put(item) }
            patch32(at, UInt32(truncatingIfNeeded: bytes.count - start))
        case let .r(fields):
            align(8)
            for f in fields { put(f) }
        case let .e(k, v):
            align(8)
            put(k)
            put(v)
        }
    }
}

/// One message: its header's fields and its body (values, or raw bytes with their signature).
struct BusMessage {
    static let methodCall: UInt8 = 1, methodReturn: UInt8 = 2, error: UInt8 = 3, signal: UInt8 = 4

    var type: UInt8
    var flags: UInt8 = 0
    var serial: UInt32 = 1
    var path: String?
    var interface: String?
    var member: String?
    var errorName: String?
    var replySerial: UInt32?
    var destination: String?
    var sender: String?
    var body: [Wire] = []
    /// Raw body bytes (written as they are after the header's padding), with this signature.
    var rawBody: (signature: [UInt8], bytes: [UInt8])?
    /// The SIGNATURE field as these bytes instead of the body's.
    var signatureOverride: [UInt8]?

    /// The message's bytes, where its lengths, padding and signatures are, and where its body starts.
    func encode(big: Bool) -> (bytes: [UInt8], marks: [WireMark], bodyStart: Int) {
        var m = Marshaller(big: big)
        m.bytes = [big ? UInt8(ascii: "B") : UInt8(ascii: "l"), type, flags, 1]
        m.marks.append(WireMark(offset: 4, kind: .bodyLength))
        m.int(0, 4)
        m.int(UInt64(serial), 4)
        var fields: [Wire] = []
        func field(_ code: UInt8, _ v: Wire) { fields.append(.r([.y(code), .v(v)])) }
        if let p = path { field(1, .o(Array(p.utf8))) }
        if let i = interface { field(2, .str(i)) }
        if let mb = member { field(3, .str(mb)) }
        if let e = errorName { field(4, .str(e)) }
        if let r = replySerial { field(5, .u(r)) }
        if let d = destination { field(6, .str(d)) }
        if let s = sender { field(7, .str(s)) }
        let signature = signatureOverride ?? rawBody?.signature ?? Array(body.map(\.signature).joined().utf8)
        if !signature.isEmpty || signatureOverride != nil { field(8, .g(signature)) }
        m.put(.a("(yv)", fields))
        m.align(8)
        let bodyStart = m.bytes.count
        if let raw = rawBody { m.bytes += raw.bytes } else { for w in body { m.put(w) } }
        m.patch32(4, UInt32(truncatingIfNeeded: m.bytes.count - bodyStart))
        return (m.bytes, m.marks, bodyStart)
    }

    /// The fixed header's fields of the message at `at` in `b` (nil: not all there yet):
    /// type, flags, serial, and its whole size.
    static func peek(_ b: [UInt8], at: Int) -> (type: UInt8, flags: UInt8, serial: UInt32, size: Int, member: String)? {
        guard b.count - at >= 16 else { return nil }
        let big = b[at] == UInt8(ascii: "B")
        func u32(_ o: Int) -> Int {
            let p = b[(at + o)..<(at + o + 4)].map(Int.init)
            return big ? p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] : p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0]
        }
        let bodyLength = u32(4), fieldsLength = u32(12)
        let headerEnd = (16 + fieldsLength + 7) & ~7
        let size = headerEnd + bodyLength
        guard b.count - at >= size else { return nil }
        // The MEMBER field (code 3, a string): enough to tell the calls apart.
        var member = ""
        var o = 16
        while o + 8 <= 16 + fieldsLength {
            let code = b[at + o], sigLength = Int(b[at + o + 1])
            var v = o + 2 + sigLength + 1
            let kind = b[at + o + 2]
            if kind == UInt8(ascii: "s") || kind == UInt8(ascii: "o") {
                v = (v + 3) & ~3
                let n = u32(v)
                if code == 3 { member = String(decoding: b[(at + v + 4)..<(at + v + 4 + n)], as: UTF8.self) }
                v += 4 + n + 1
            } else if kind == UInt8(ascii: "g") {
                v += Int(b[at + v]) + 2
            } else {
                v = (v + 3) & ~3 + 4
            }
            o = (v + 7) & ~7
        }
        return (b[at + 1], b[at + 2], UInt32(u32(8)), size, member)
    }
}

/// The bus, played: a listening socket in the abstract namespace (its name has this process's
/// id: each worker has its own), and one connection at a time from a `RaucFollower`.
final class FakeBus {
    let listener: Int32
    let name: String
    let pid: pid_t
    var address: String { "unix:abstract=\(name)" }
    /// The follower's unique name, and the one the service has (GetNameOwner's answer, the signals' sender).
    static let client = ":1.1", service = ":1.7"

    init?() {
        pid = getpid()
        name = "kiosk-hud-fuzz-dbus-\(pid)-\(monotonicNanos() % 1_000_000)"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let path = Array(name.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { p in
            p[0] = 0
            for (k, c) in path.enumerated() { p[1 + k] = c }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + path.count)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 16) == 0 else { close(listener); return nil }
    }

    deinit { close(listener) }

    /// The connection waiting to be accepted, if any.
    func accept() -> Int32? {
        // Through the kernel seam (accept4: non-blocking, close-on-exec), as the product's code.
        (try? LinuxKernel().accept(listener)) ?? nil
    }

    /// Appends what `fd` has to `into` (never waits); false at its end or an error.
    static func readAvailable(_ fd: Int32, into: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { into += buffer[0..<n]; continue }
            if n == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
    }

    /// Sends what fits of `bytes[from...]` now; how much went, nil when the peer is gone.
    static func send(_ fd: Int32, _ bytes: [UInt8], from: Int) -> Int? {
        guard from < bytes.count else { return 0 }
        // MSG_NOSIGNAL | MSG_DONTWAIT, through the kernel seam: what fits now (0: nothing), nil when gone.
        let r: Result<Int, SysError> = bytes[from...].withUnsafeBytes { b in Result { () throws(SysError) in try LinuxKernel().sendWithoutWaiting(fd, b) } }
        switch r {
        case let .success(n): return n
        case let .failure(e): return e.errno == EAGAIN || e.errno == EWOULDBLOCK || e.errno == EINTR ? 0 : nil
        }
    }

    /// A method return to `serial` with `body`, from the bus or the service.
    static func reply(to serial: UInt32, from sender: String, _ body: [Wire], serial own: UInt32) -> [UInt8] {
        BusMessage(type: BusMessage.methodReturn, serial: own, replySerial: serial, destination: client, sender: sender, body: body).encode(big: false).bytes
    }
}
