import Glibc
import KioskDaemon
import KioskSeams
import KioskTestDoubles

/// `dbus`: what `daemon --rauc` reads from the system bus, in process, the whole way the daemon
/// reads it: a `RaucFollower` (on an `EmbeddedEventLoop`) connects to a bus this worker plays
/// (FakeBus, DBusWire.swift: the SASL exchange, Hello, AddMatch and GetNameOwner answered with
/// RAUC's owner), then the case's bytes arrive as what the bus delivers; sd-bus parses them,
/// and the follower's matches hand them to KioskDaemon's walker (`DBusMessageReader`: an
/// `sd_bus_message` into `DBusValue`s) and `RaucDecoding`, then `RaucMachine`. The walker is
/// internal and takes sd-bus's messages, so this is the way in; it is also the way a peer's
/// bytes come.
///
/// Inputs: well-formed messages in either byte order — PropertiesChanged (`sa{sv}as`) with
/// RAUC's properties (Operation, Progress `(isi)`, LastError, others), Completed(i),
/// NameOwnerChanged(sss), GetAll's and Get's replies and errors —, their values of the wrong
/// types (any type tree, in variants), big arrays and strings; then mutated: body, header and
/// array lengths set to boundaries (the 64 MiB array and 128 MiB message caps and past them),
/// string lengths, padding bytes set or shifted, signatures broken (unknown codes, unbalanced,
/// over 255, arrays and structs nested past 32), byte order flipped, truncated bodies, bytes
/// havocked; recursion bombs (variants in variants, `av` in `av`, to 10^5 levels, built
/// without recursion). The check: the worker never traps, ends each case within the time limit
/// and the memory budget (no unbounded recursion or allocation); the follower's log lines stay
/// within `logLineLimit`. At the start the run checks that a well-formed GetAll reply and
/// PropertiesChanged reach the walker and the machine (the bus played still speaks what the
/// follower expects, its sender checks included) and that a variant nested 40 deep is refused by
/// the walker's depth limit (`selfTest`).
final class DBusTarget: InProcessTarget {
    let name = "dbus"
    let fileExtension = "bin"
    var canvasBytes: Int { 800 * 480 * 4 }
    /// A log line the follower writes may be at most this long: D-Bus names are at most 255
    /// bytes, so a line naming two of them stays well under it; a longer one quotes what a
    /// peer sent (a log flood as large as a message).
    static let logLineLimit = 1024
    /// The serial of the follower's GetAll call (Hello 1, AddMatch 2–4, GetNameOwner 5) and of its Get(LastError).
    static let getAllSerial: UInt32 = 6, getSerial: UInt32 = 7

    private var bus: FakeBus?
    /// Bytes of values a case may still generate (reset by `input`): inputs stay small, the harness too.
    private var budget = 0
    static let caseBudget = 1 << 20

    var warmUp: [UInt8] { Self.wellFormed(big: false) }

    /// What a case did: the follower's log and actions, its machine once it had read the case
    /// (before the connection's end).
    struct Outcome {
        var logs: [String] = []
        var actions: [RaucAction] = []
        var machine = RaucMachine()
        var setup: String?
    }

    final class Record {
        var logs: [String] = []
        var actions: [RaucAction] = []
    }

    func check(_ input: [UInt8], index: Int) -> Violation? {
        let o = deliver(input)
        if verboseCases { for l in o.logs { warn("  log: \(cut(l, 300))") } }
        if let s = o.setup { return Violation(kind: "setup", detail: s, key: "fake bus: " + gist(s)) }
        if let long = o.logs.max(by: { $0.utf8.count < $1.utf8.count }), long.utf8.count > Self.logLineLimit {
            return Violation(kind: "log-line", detail: "a log line of \(long.utf8.count) bytes (limit \(Self.logLineLimit)): \(cut(long, 120))",
                             key: "long log line " + gist(String(long.prefix(60))))
        }
        return nil
    }

    /// The start-of-run check: a GetAll reply and a PropertiesChanged reach the machine, a
    /// variant nested 40 deep is refused for its depth and one nested 31 deep read (a Completed
    /// signal, in both byte orders). nil when all held, else what did not.
    func selfTest() -> String? {
        var o = deliver(Self.wellFormed(big: false))
        if let s = o.setup { return s }
        guard o.machine.present, o.machine.operation == .installing, !o.actions.isEmpty else {
            return "a well-formed GetAll reply did not reach the machine (present \(o.machine.present), operation \(o.machine.operation.name), \(o.actions.count) actions; log: \(o.logs.joined(separator: " | ")))"
        }
        guard o.machine.view?.progress == 0.57 else {
            return "a well-formed PropertiesChanged (Progress 57) did not reach the machine (its view: \(String(describing: o.machine.view)); log: \(o.logs.joined(separator: " | ")))"
        }
        for big in [false, true] {
            o = deliver(Self.completedBomb(depth: 40, big: big))
            guard o.logs.contains(where: { $0.contains("nested too deep") }) else {
                return "no depth limit: Completed with a variant nested 40 deep was not refused for its depth (log: \(o.logs.joined(separator: " | ")))"
            }
            o = deliver(Self.completedBomb(depth: 31, big: big))
            guard o.logs.contains(where: { $0.contains("Completed is not (i)") }) else {
                return "Completed with a variant nested 31 deep was not read (log: \(o.logs.joined(separator: " | ")))"
            }
        }
        bus = nil
        return nil
    }

    // MARK: The bus, played

    /// Connects a new follower to this process's bus, answers its start, writes `input`, closes
    /// the connection, and runs the follower until it has read everything.
    func deliver(_ input: [UInt8]) -> Outcome {
        var out = Outcome()
        if bus == nil || bus!.pid != getpid() { bus = FakeBus() }
        guard let bus else { out.setup = "cannot listen on an abstract socket: errno \(errno)"; return out }
        let loop = EmbeddedEventLoop()
        let record = Record()
        let follower: RaucFollower
        do {
            follower = try RaucFollower(address: bus.address, loop: loop, log: { record.logs.append($0) }, perform: { record.actions.append($0) })
        } catch {
            out.setup = error.description
            return out
        }
        exchange(input, bus, loop, follower, record, &out)
        follower.close()
        out.logs = record.logs
        out.actions = record.actions
        return out
    }

    /// The connection's life, from accepting it to its end.
    private func exchange(_ input: [UInt8], _ bus: FakeBus, _ loop: EmbeddedEventLoop, _ follower: RaucFollower, _ record: Record, _ out: inout Outcome) {
        func pump() {
            for w in loop.watchedDescriptors { loop.fire(w.fd, [.readable, .writable]) }
        }
        var connection: Int32?
        for _ in 0..<50 where connection == nil {
            connection = bus.accept()
            if connection == nil { pump() }
        }
        guard let c = connection else {
            out.setup = "the follower did not connect (log: \(record.logs.joined(separator: " | ")))"
            return
        }
        defer { close(c) }
        var received: [UInt8] = []
        // SASL: the client's lines up to BEGIN, answered as dbus-daemon does.
        var begin: Int?
        for _ in 0..<200 where begin == nil {
            pump()
            guard FakeBus.readAvailable(c, into: &received) else { break }
            begin = Self.find(Array("BEGIN\r\n".utf8), in: received).map { $0 + 7 }
        }
        guard let authEnd = begin else {
            out.setup = "no BEGIN from the client (\(describeBytes(received)))"
            return
        }
        let auth = String(decoding: received[..<authEnd], as: UTF8.self)
        var answer = ""
        if auth.contains("AUTH EXTERNAL\r\n") || auth.contains("\r\nDATA\r\n") { answer += "DATA\r\n" }
        answer += "OK 0123456789abcdef0123456789abcdef\r\n"
        if auth.contains("NEGOTIATE_UNIX_FD") { answer += "AGREE_UNIX_FD\r\n" }
        _ = FakeBus.send(c, Array(answer.utf8), from: 0)
        received.removeFirst(authEnd)
        // Hello, AddMatch ×3, GetNameOwner: answered (GetAll and Get are the case's to answer).
        var ownSerial: UInt32 = 1
        var answeredOwner = false
        for _ in 0..<200 where !answeredOwner {
            pump()
            guard FakeBus.readAvailable(c, into: &received) else { break }
            while let m = BusMessage.peek(received, at: 0) {
                received.removeFirst(m.size)
                guard m.type == BusMessage.methodCall, m.flags & 1 == 0 else { continue }
                let body: [Wire]
                switch m.member {
                case "Hello": body = [.str(FakeBus.client)]
                case "GetNameOwner": body = [.str(FakeBus.service)]; answeredOwner = true
                case "AddMatch": body = []
                default: continue
                }
                _ = FakeBus.send(c, FakeBus.reply(to: m.serial, from: "org.freedesktop.DBus", body, serial: ownSerial), from: 0)
                ownSerial += 1
            }
        }
        guard answeredOwner else {
            out.setup = "the follower did not ask for RAUC's owner (log: \(record.logs.joined(separator: " | ")))"
            return
        }
        pump()
        // The case's bytes, as fast as the follower reads them; then the end of the connection.
        var at = 0, stalls = 0
        while at < input.count && stalls < 1000 {
            guard let n = FakeBus.send(c, input, from: at) else { break }
            at += n
            stalls = n == 0 ? stalls + 1 : 0
            pump()
            _ = FakeBus.readAvailable(c, into: &received)
            received.removeAll(keepingCapacity: true)
        }
        out.machine = follower.machine
        shutdown(c, Int32(SHUT_WR))
        for _ in 0..<100 where follower.connected {
            pump()
            _ = FakeBus.readAvailable(c, into: &received)
            received.removeAll(keepingCapacity: true)
        }
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    // MARK: Well-formed messages

    static let installer = "de.pengutronix.rauc.Installer"

    static func signal(_ member: String, interface: String, path: String = "/", sender: String = FakeBus.service, _ body: [Wire]) -> BusMessage {
        BusMessage(type: BusMessage.signal, path: path, interface: interface, member: member, sender: sender, body: body)
    }

    static func propertiesChanged(_ dict: [Wire], invalidated: [String] = [], interface: String = installer) -> BusMessage {
        signal("PropertiesChanged", interface: "org.freedesktop.DBus.Properties",
               [.str(interface), .a("{sv}", dict), .a("s", invalidated.map { .str($0) })])
    }

    static func completed(_ body: [Wire]) -> BusMessage { signal("Completed", interface: installer, body) }

    static func nameOwnerChanged(_ name: String, old: String, new: String) -> BusMessage {
        signal("NameOwnerChanged", interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", sender: "org.freedesktop.DBus",
               [.str(name), .str(old), .str(new)])
    }

    static func getAllReply(_ dict: [Wire], serial: UInt32 = getAllSerial) -> BusMessage {
        BusMessage(type: BusMessage.methodReturn, replySerial: serial, destination: FakeBus.client, sender: FakeBus.service, body: [.a("{sv}", dict)])
    }

    static func property(_ name: String, _ v: Wire) -> Wire { .e(.str(name), .v(v)) }
    static func progress(_ p: Int32, _ m: String, _ d: Int32) -> Wire { .r([.i(p), .str(m), .i(d)]) }

    /// The start-of-run input: GetAll's reply (installing, 42 %), then a PropertiesChanged (57 %).
    static func wellFormed(big: Bool) -> [UInt8] {
        let ms = [getAllReply([property("Operation", .str("installing")), property("Progress", progress(42, "Copying image to rootfs.0", 2)),
                               property("LastError", .str(""))]),
                  propertiesChanged([property("Progress", progress(57, "Copying image to rootfs.0 done.", 2))], invalidated: ["Compatible"])]
        return serialize(ms, big: big)
    }

    static func serialize(_ ms: [BusMessage], big: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for (k, var m) in ms.enumerated() {
            m.serial = 0x100 + UInt32(k)
            out += m.encode(big: big).bytes
        }
        return out
    }

    // MARK: Recursion bombs (built without recursion: this process must not overflow either)

    /// The data of a `v` holding a `v` … `depth` variants deep, an `i` inside (or, `arrays`,
    /// `av` in `av`), written at `m`'s end (aligned from its first byte).
    static func writeVariantBomb(_ m: inout Marshaller, depth: Int, arrays: Bool) {
        var lengths: [(at: Int, start: Int)] = []
        for _ in 0..<depth {
            if arrays {
                m.bytes += [2, UInt8(ascii: "a"), UInt8(ascii: "v"), 0]
                m.int(0, 4)
                lengths.append((m.bytes.count - 4, m.bytes.count))
            } else {
                m.bytes += [1, UInt8(ascii: "v"), 0]
            }
        }
        m.bytes += [1, UInt8(ascii: "i"), 0]
        m.int(0x2A, 4)
        for l in lengths.reversed() { m.patch32(l.at, UInt32(m.bytes.count - l.start)) }
    }

    /// A body `v` (see `writeVariantBomb`).
    static func variantBomb(depth: Int, arrays: Bool, big: Bool) -> (signature: [UInt8], bytes: [UInt8]) {
        var m = Marshaller(big: big)
        writeVariantBomb(&m, depth: depth, arrays: arrays)
        return ([UInt8(ascii: "v")], m.bytes)
    }

    static func completedBomb(depth: Int, big: Bool) -> [UInt8] {
        var m = completed([])
        m.rawBody = variantBomb(depth: depth - 1, arrays: false, big: big)
        return serialize([m], big: big)
    }

    // MARK: Inputs

    func input(_ rng: inout Rng, index: Int) -> [UInt8] {
        budget = Self.caseBudget
        let big = rng.chance(0.5)
        switch rng.weighted([16, 26, 8, 10, 6, 8, 4]) {
        case 0: return Self.serialize((0..<rng.int(1...4)).map { _ in randomMessage(&rng) }, big: big)
        case 1:  // one message mutated where its lengths, padding and signatures are
            var ms = (0..<rng.int(1...3)).map { _ in randomMessage(&rng) }
            for k in ms.indices { ms[k].serial = 0x100 + UInt32(k) }
            let victim = rng.below(ms.count)
            var out: [UInt8] = []
            for (k, m) in ms.enumerated() {
                let e = m.encode(big: big)
                out += k == victim ? mutate(e, &rng, big: big) : e.bytes
            }
            return out
        case 2: return bomb(&rng, big: big)
        case 3: return Mutate.havoc(Self.serialize((0..<rng.int(1...3)).map { _ in randomMessage(&rng) }, big: big), &rng,
                                    count: 1 + rng.length(16), tokens: Self.tokens)
        case 4:  // truncated anywhere (the last message's body cut)
            let s = Self.serialize((0..<rng.int(1...3)).map { _ in randomMessage(&rng) }, big: big)
            return Array(s.prefix(rng.below(s.count + 1)))
        case 5: return badSignature(&rng, big: big)
        default: return bigArray(&rng, big: big)
        }
    }

    /// A signal or reply the follower reads with one big array of bytes, integers or strings
    /// (64 KiB to 4 MiB; 256 KiB at most with `--skip dbus-big-array`).
    func bigArray(_ rng: inout Rng, big: Bool) -> [UInt8] {
        var bytes = rng.pick([64 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20])
        if KnownFailures.skips("dbus-big-array") { bytes = min(bytes, 256 << 10) }
        let array: Wire
        switch rng.below(3) {
        case 0: array = .a("y", [Wire](repeating: .y(7), count: bytes))
        case 1: array = .a("i", [Wire](repeating: .i(7), count: bytes / 4))
        default: array = .a("s", [Wire](repeating: .str("abc"), count: bytes / 8))
        }
        let m: BusMessage
        switch rng.below(4) {
        case 0: m = Self.completed([array])
        case 1: m = Self.propertiesChanged([Self.property("Progress", array)])
        case 2: m = Self.getAllReply([Self.property("Operation", array)])
        default: m = Self.propertiesChanged([], invalidated: [String](repeating: "Progress", count: bytes / 16))
        }
        return Self.serialize([m], big: big)
    }

    static let tokens: [[UInt8]] = [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 4], [4, 0, 0, 0], [0, 0, 0, 8], [1, 0x76, 0], [2, 0x61, 0x76, 0], [5, 0x61, 0x7B, 0x73, 0x76, 0x7D, 0],
                                    Array("de.pengutronix.rauc.Installer".utf8), Array("Progress".utf8), Array("Operation".utf8), [0x6C, 4, 1, 1], [0x42, 4, 1, 1]]

    /// A message the follower listens for (or a neighbour of one), with values of the right
    /// types mostly, any types sometimes.
    func randomMessage(_ rng: inout Rng) -> BusMessage {
        switch rng.weighted([30, 12, 10, 14, 5, 5, 4]) {
        case 0:
            let interface = rng.chance(0.9) ? Self.installer : rng.pick(["org.example.Other", "de.pengutronix.rauc.Installer2", ""])
            var m = Self.propertiesChanged(properties(&rng), invalidated: (0..<rng.length(4)).map { _ in rng.pick(["Progress", "Operation", "LastError", "Compatible", "Nope", ""]) },
                                           interface: interface)
            if rng.chance(0.1) { m.body = wrongBody(&rng, first: .str(interface)) }
            return m
        case 1:
            return Self.completed(rng.chance(0.75) ? [.i(Int32(truncatingIfNeeded: interestingInteger(&rng)))] : wrongBody(&rng, first: nil))
        case 2:
            let new = rng.pick([FakeBus.service, "", ":1.9", ":1." + String(repeating: "9", count: rng.length(300))])
            var m = Self.nameOwnerChanged(rng.chance(0.85) ? "de.pengutronix.rauc" : "org.example.other", old: rng.pick([FakeBus.service, "", ":1.3"]), new: new)
            if rng.chance(0.1) { m.body = wrongBody(&rng, first: .str("de.pengutronix.rauc")) }
            return m
        case 3:
            var m = Self.getAllReply(properties(&rng))
            if rng.chance(0.15) { m.body = wrongBody(&rng, first: nil) }
            return m
        case 4:  // Get(LastError)'s reply: (v)
            return BusMessage(type: BusMessage.methodReturn, replySerial: Self.getSerial, destination: FakeBus.client, sender: FakeBus.service,
                              body: rng.chance(0.7) ? [.v(text(&rng))] : wrongBody(&rng, first: nil))
        case 5:  // an error for GetAll or Get
            var message = textBytes(&rng)
            if KnownFailures.skips("dbus-error-text") { message = Array(message.prefix(200)) }
            return BusMessage(type: BusMessage.error, errorName: rng.pick(["org.freedesktop.DBus.Error.Failed", "org.freedesktop.DBus.Error.NameHasNoOwner", "a.b"]),
                              replySerial: rng.pick([Self.getAllSerial, Self.getSerial, 5, 99]), destination: FakeBus.client, sender: FakeBus.service,
                              body: rng.chance(0.8) ? [.s(message)] : [])
        default:  // a signal on another path or member, or a call to the follower
            var m = Self.signal(rng.pick(["Completed", "PropertiesChanged", "Other"]), interface: rng.pick([Self.installer, "org.freedesktop.DBus.Properties"]),
                                path: rng.pick(["/", "/other", "/de/pengutronix/rauc"]), [anyValue(&rng, depth: 0)])
            if rng.chance(0.3) { m.type = BusMessage.methodCall; m.destination = FakeBus.client }
            return m
        }
    }

    /// RAUC's properties as a{sv} entries: the followed ones, others, some of wrong types.
    func properties(_ rng: inout Rng) -> [Wire] {
        var entries: [Wire] = []
        let names = ["Operation", "Progress", "LastError", "Compatible", "Variant", "BootSlot"]
        for _ in 0..<rng.int(0...5) {
            let n = rng.chance(0.9) ? rng.pick(names) : rng.pick(["", "operation", "Progress ", String(repeating: "P", count: rng.length(2000))])
            let value: Wire
            if rng.chance(0.2) {
                value = anyValue(&rng, depth: 0)
            } else {
                switch n {
                case "Operation": value = .str(rng.pick(["installing", "idle", "installing", "downloading", ""]))
                case "Progress":
                    value = Self.progress(Int32(truncatingIfNeeded: rng.chance(0.7) ? Int64(rng.int(0...100)) : interestingInteger(&rng)),
                                          rng.chance(0.7) ? rng.pick(["Installing", "Checking bundle", "Checking bundle done.", "Installing failed.", ""]) : String(decoding: textBytes(&rng), as: UTF8.self),
                                          Int32(truncatingIfNeeded: rng.chance(0.8) ? Int64(rng.int(1...4)) : interestingInteger(&rng)))
                default: value = text(&rng)
                }
            }
            entries.append(Self.property(n, n == "Operation" && KnownFailures.skips("rauc-operation-name") ? Self.shortStrings(value) : value))
        }
        return entries
    }

    /// `w` with its strings (in variants) cut to 200 bytes.
    static func shortStrings(_ w: Wire) -> Wire {
        switch w {
        case let .s(t): .s(Array(t.prefix(200)))
        case let .v(inner): .v(shortStrings(inner))
        default: w
        }
    }

    /// A body of other types (a first argument kept, so that arg0 matches still match).
    func wrongBody(_ rng: inout Rng, first: Wire?) -> [Wire] {
        (first.map { [$0] } ?? []) + (0..<rng.int(0...3)).map { _ in anyValue(&rng, depth: 0) }
    }

    /// Text: words, multi-byte, long; valid UTF-8 (sd-bus refuses the rest before the walker),
    /// or not, now and then.
    func textBytes(_ rng: inout Rng) -> [UInt8] {
        let t = anyText(&rng)
        let n = max(0, min(t.count, budget))
        budget -= n + 8
        return n == t.count ? t : Array(t.prefix(n))
    }

    private func anyText(_ rng: inout Rng) -> [UInt8] {
        switch rng.below(6) {
        case 0: return []
        case 1: return Array(rng.pick(["Installation error: Failed to check bundle: signature verification failed", "räksmörgås 🙂", "line\nbreak", "\u{202E}rtl"]).utf8)
        case 2: return [UInt8](repeating: 0x78, count: rng.pick([255, 256, 4095, 4096, 65536, rng.length(200_000)]))
        case 3: return Array(String(repeating: "é", count: rng.length(5000)).utf8)
        case 4: return rng.chance(0.5) ? [0xFF, 0x41] : [0x41, 0, 0x42]
        default: return (0..<rng.length(64)).map { _ in UInt8(rng.int(0x20...0x7E)) }
        }
    }

    func text(_ rng: inout Rng) -> Wire { .s(textBytes(&rng)) }

    /// A type tree, at most a few levels deep.
    indirect enum Shape {
        case basic(UInt8), variant, array(Shape), structure([Shape]), dict(UInt8, Shape)
    }

    static let basics = Array("ybnqiuxtdsogh".utf8)

    func shape(_ rng: inout Rng, depth: Int) -> Shape {
        if depth >= 4 || rng.chance(0.45) { return .basic(rng.pick(Self.basics)) }
        switch rng.below(4) {
        case 0: return .variant
        case 1: return .array(shape(&rng, depth: depth + 1))
        case 2: return .structure((0..<rng.int(1...4)).map { _ in shape(&rng, depth: depth + 1) })
        default: return .dict(rng.pick(Array("ysiuot".utf8)), shape(&rng, depth: depth + 1))
        }
    }

    func signature(_ s: Shape) -> String {
        switch s {
        case let .basic(c): String(UnicodeScalar(c))
        case .variant: "v"
        case let .array(e): "a" + signature(e)
        case let .structure(fs): "(" + fs.map(signature).joined() + ")"
        case let .dict(k, v): "{" + String(UnicodeScalar(k)) + signature(v) + "}"
        }
    }

    /// A value of `s`; arrays mostly short, sometimes thousands of elements (a million bytes at most).
    func value(_ s: Shape, _ rng: inout Rng, depth: Int) -> Wire {
        switch s {
        case let .basic(c):
            switch c {
            case UInt8(ascii: "y"): return .y(UInt8(truncatingIfNeeded: rng.next()))
            case UInt8(ascii: "b"): return .b(rng.chance(0.9) ? UInt32(rng.below(2)) : rng.pick([2, 0xFFFF_FFFF]))
            case UInt8(ascii: "n"): return .n(Int16(truncatingIfNeeded: interestingInteger(&rng)))
            case UInt8(ascii: "q"): return .q(UInt16(truncatingIfNeeded: interestingInteger(&rng)))
            case UInt8(ascii: "i"): return .i(Int32(truncatingIfNeeded: interestingInteger(&rng)))
            case UInt8(ascii: "u"): return .u(UInt32(truncatingIfNeeded: interestingInteger(&rng)))
            case UInt8(ascii: "x"): return .x(interestingInteger(&rng))
            case UInt8(ascii: "t"): return .t(UInt64(bitPattern: interestingInteger(&rng)))
            case UInt8(ascii: "d"): return .d(rng.chance(0.5) ? Double(bitPattern: rng.next()) : rng.pick([0, -0.0, .nan, .infinity, 1e308, .leastNonzeroMagnitude]))
            case UInt8(ascii: "o"): return .o(Array(rng.pick(["/", "/de/pengutronix/rauc", "//", "/a/", "x", ""]).utf8))
            case UInt8(ascii: "g"): return .g(Array(rng.pick(["", "s", "a{sv}", "(isi)", "a", "z", "((("]).utf8))
            case UInt8(ascii: "h"): return .h(rng.pick([0, 1, 0xFFFF_FFFF]))
            default: return text(&rng)
            }
        case .variant:
            return .v(depth >= 6 ? .i(1) : value(shape(&rng, depth: depth + 1), &rng, depth: depth + 1))
        case let .array(e):
            let n = rng.chance(0.04) ? rng.pick([1000, 10_000, 100_000]) / max(1, depth * 10) : rng.length(6)
            var items: [Wire] = []
            for _ in 0..<n where budget > 0 {
                items.append(value(e, &rng, depth: depth + 1))
                budget -= 8
            }
            return .a(signature(e), items)
        case let .structure(fs):
            return .r(fs.map { value($0, &rng, depth: depth + 1) })
        case let .dict(k, v):
            return .a("{" + String(UnicodeScalar(k)) + signature(v) + "}",
                      (0..<rng.length(6)).map { _ in .e(value(.basic(k), &rng, depth: depth + 1), value(v, &rng, depth: depth + 1)) })
        }
    }

    func anyValue(_ rng: inout Rng, depth: Int) -> Wire { value(shape(&rng, depth: depth), &rng, depth: depth) }

    /// One encoded message changed where it matters: its lengths, padding, signatures, byte order.
    func mutate(_ e: (bytes: [UInt8], marks: [WireMark], bodyStart: Int), _ rng: inout Rng, big: Bool) -> [UInt8] {
        var b = e.bytes
        func put32(_ at: Int, _ v: UInt32) {
            guard at + 4 <= b.count else { return }
            for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> UInt32(big ? (3 - k) * 8 : k * 8)) }
        }
        func get32(_ at: Int) -> UInt32 {
            guard at + 4 <= b.count else { return 0 }
            var v: UInt32 = 0
            for k in 0..<4 {
                let shift = UInt32(big ? (3 - k) * 8 : k * 8)
                v |= UInt32(b[at + k]) << shift
            }
            return v
        }
        func marks(_ kind: WireMark.Kind) -> [WireMark] { e.marks.filter { $0.kind == kind } }
        for _ in 0..<rng.int(1...2) {
            switch rng.below(9) {
            case 0:  // the body's length
                let n = get32(4)
                put32(4, rng.pick([0, n &- 1, n &+ 1, n &+ 8, 0x0800_0000, 0x0800_0001, 0x7FFF_FFFF, 0xFFFF_FFFF, n / 2]))
            case 1:  // the header fields' length
                let n = get32(12)
                put32(12, rng.pick([0, n &- 1, n &+ 1, n &+ 8, 0x0400_0000, 0x0400_0001, 0xFFFF_FFFF]))
            case 2:  // an array's length: up to the 64 MiB cap, past it, off by one
                if let m = marks(.arrayLength).randomElement(&rng) {
                    let n = get32(m.offset)
                    put32(m.offset, rng.pick([0, 1, n &- 1, n &+ 1, n &+ 4, n &* 2, 0x0400_0000, 0x0400_0001, 0x7FFF_FFFF, 0xFFFF_FFFF]))
                }
            case 3:  // a string's length
                if let m = marks(.stringLength).randomElement(&rng) {
                    let n = get32(m.offset)
                    put32(m.offset, rng.pick([0, n &- 1, n &+ 1, 1 << 20, 0x7FFF_FFFF, 0xFFFF_FFFF]))
                }
            case 4:  // padding: not zero, or a byte more or less (everything after misaligned)
                if let m = marks(.padding).randomElement(&rng) {
                    switch rng.below(3) {
                    case 0: b[m.offset] = rng.pick([1, 0xFF, 0x80])
                    case 1: if m.offset < b.count { b.remove(at: m.offset) }
                    default: b.insert(0, at: m.offset)
                    }
                    if rng.chance(0.5) { return b }   // offsets after it moved
                }
            case 5:  // a signature's byte or length
                if let m = marks(.signature).randomElement(&rng), m.offset < b.count {
                    let length = Int(b[m.offset])
                    if rng.chance(0.3) || length == 0 {
                        b[m.offset] = rng.pick([0, 1, UInt8(truncatingIfNeeded: length + 1), 255])
                    } else {
                        let at = m.offset + 1 + rng.below(length + 1)
                        if at < b.count { b[at] = rng.pick(Array("ybnqiuxtdsogvhae(){}z!".utf8) + [0]) }
                    }
                }
            case 6:  // byte order, version, type, flags
                switch rng.below(4) {
                case 0: b[0] = rng.pick([UInt8(ascii: big ? "l" : "B"), 0, UInt8(ascii: "L")])
                case 1: b[3] = rng.pick([0, 2, 255])
                case 2: b[1] = rng.pick([0, 5, 255, BusMessage.methodCall])
                default: b[2] = UInt8(truncatingIfNeeded: rng.next())
                }
            case 7:  // the body cut short (its length still says the whole)
                if e.bodyStart < b.count { b.removeSubrange(rng.int(e.bodyStart...(b.count - 1))...) }
                return b
            default:  // bytes of the body changed
                if e.bodyStart < b.count {
                    let tail = Mutate.havoc(Array(b[e.bodyStart...]), &rng, count: 1 + rng.length(8), tokens: Self.tokens)
                    b = Array(b[..<e.bodyStart]) + tail
                }
                return b
            }
        }
        return b
    }

    /// Nesting past the limits: variants in variants, `av` in `av`, arrays and structs nested in
    /// the signature, in the signals the follower reads and GetAll's reply.
    func bomb(_ rng: inout Rng, big: Bool) -> [UInt8] {
        let depth = rng.pick([30, 31, 32, 33, 64, 127, 128, 129, 255, 256, 1000, 10_000, 100_000])
        var m: BusMessage
        switch rng.below(3) {
        case 0: m = Self.completed([])
        case 1: m = Self.getAllReply([])
        default: m = Self.propertiesChanged([])
        }
        switch rng.below(4) {
        case 0, 1:  // in the data: a variant's signature is one level at a time
            let arrays = rng.chance(0.4)
            if m.member == "PropertiesChanged" {
                // (s a{sv} as) with the bomb as Progress's value: arg0 still matches.
                var body = Marshaller(big: big)
                body.put(.str(Self.installer))
                body.int(0, 4)
                let at = body.bytes.count - 4
                body.align(8)
                let start = body.bytes.count
                body.put(.str("Progress"))
                Self.writeVariantBomb(&body, depth: depth, arrays: arrays)
                body.patch32(at, UInt32(body.bytes.count - start))
                body.int(0, 4)   // as: empty
                m.rawBody = (Array("sa{sv}as".utf8), body.bytes)
            } else if m.type == BusMessage.methodReturn {
                // a{sv} with the bomb as Operation's value.
                var body = Marshaller(big: big)
                body.int(0, 4)
                body.align(8)
                body.put(.str("Operation"))
                Self.writeVariantBomb(&body, depth: depth, arrays: arrays)
                body.patch32(0, UInt32(body.bytes.count - 8))
                m.rawBody = (Array("a{sv}".utf8), body.bytes)
            } else {
                m.rawBody = Self.variantBomb(depth: depth, arrays: arrays, big: big)
            }
        case 2:  // in the signature: arrays nested past 32
            let n = rng.pick([31, 32, 33, 64, 200])
            let sig = String(repeating: "a", count: n) + "i"
            var body = Marshaller(big: big)
            body.int(0, 4)   // the outer array empty
            m.rawBody = (Array(sig.utf8), body.bytes)
        default:  // structs nested past 32, or a signature over 255
            let n = rng.pick([31, 32, 33, 64, 127])
            let sig = rng.chance(0.7) ? String(repeating: "(", count: n) + "i" + String(repeating: ")", count: n) : String(repeating: "i", count: rng.pick([255, 256]))
            var body = Marshaller(big: big)
            for _ in 0..<(sig.hasPrefix("(") ? 1 : sig.count) { body.int(1, 4) }
            m.rawBody = (Array(sig.utf8.prefix(255)), body.bytes)
            if sig.utf8.count > 255 { m.signatureOverride = Array(sig.utf8) }
        }
        return Self.serialize([m], big: big)
    }

    /// A message whose SIGNATURE field says other than its body holds.
    func badSignature(_ rng: inout Rng, big: Bool) -> [UInt8] {
        var m = randomMessage(&rng)
        let wrong = rng.pick(["z", "a", "a{", "a{sv", "{sv}", "(", ")", "(isi", "a{vs}", "a{(i)s}", "v", "", "ss", "sa{sv}", "sa{sv}asz",
                              "ai", "h", "aaaaa", "(((((i)))))", "sa{sv}as" + String(repeating: "s", count: 250)])
        m.signatureOverride = Array(wrong.utf8)
        return Self.serialize([m], big: big)
    }
}

extension Array {
    /// An element chosen by the case's stream (nil when empty).
    func randomElement(_ rng: inout Rng) -> Element? { isEmpty ? nil : self[rng.below(count)] }
}
