// Plymouth's wire format: every request and reply round-trips (whole, byte by byte, pipelined),
// the bytes Debian 12's plymouth client and systemd's PID 1 write are read as they mean, every
// kind of bad framing is refused, and generated input (mutations of valid streams, random
// chunking) never crashes, hangs or grows a buffer.
import KioskBoards
import KioskDaemon
import KioskTestSupport
import Testing

/// Decodes `bytes` fed in `chunks` (sizes, cycled): the frames, and the framing error if any.
func decode(_ bytes: [UInt8], chunks: [Int] = [Int.max]) -> (frames: [PlymouthFrame], error: PlymouthFramingError?, maxPending: Int) {
    var d = PlymouthRequestDecoder()
    var frames: [PlymouthFrame] = []
    var i = 0, c = 0, maxPending = 0
    while i < bytes.count {
        let n = min(max(1, chunks[c % chunks.count]), bytes.count - i)
        c += 1
        d.append(bytes[i..<(i + n)])
        i += n
        do {
            while let f = try d.next() { frames.append(f) }
        } catch {
            return (frames, error, maxPending)
        }
        maxPending = max(maxPending, d.pending)
    }
    return (frames, nil, maxPending)
}

@Suite struct PlymouthCodecTests {
    static let requests: [PlymouthRequest] = [
        .ping, .status("NetworkManager.service"), .status(""), .status("Démarrage — ünïcode ✓"), .status(String(repeating: "x", count: 254)),
        .systemUpdate(0), .systemUpdate(42), .systemUpdate(100), .systemInitialized, .newRoot("/sysroot"), .deactivate, .reactivate,
        .quit(retain: false), .quit(retain: true), .showMessage("Hello"), .showMessage(""), .hideMessage("Hello"), .showSplash, .hideSplash,
        .pauseProgress, .unpauseProgress, .hasActiveVT, .reportError, .reload, .password(prompt: nil), .password(prompt: "Passphrase for /dev/sda2"),
        .cachedPassword, .question(prompt: nil), .question(prompt: "Continue?"), .watchKeystroke(keys: nil), .watchKeystroke(keys: "\u{3}"),
        .ignoreKeystroke(keys: "x"), .ignoreKeystroke(keys: nil),
    ] + PlymouthMode.allCases.map { .changeMode($0) }

    @Test func everyRequestRoundTrips() throws {
        var all: [UInt8] = []
        for r in Self.requests {
            let bytes = try r.frame().bytes
            all += bytes
            let whole = decode(bytes)
            #expect(whole.error == nil && whole.frames.count == 1)
            #expect(try PlymouthRequest(#require(whole.frames.first)) == r, "\(r)")
            let byByte = decode(bytes, chunks: [1])
            #expect(byByte.frames == whole.frames)
        }
        // Pipelined on one connection, in odd chunks: the same requests, in order.
        for chunks in [[1], [2, 3], [7], [Int.max]] {
            let d = decode(all, chunks: chunks)
            #expect(d.error == nil)
            #expect(try d.frames.map { try PlymouthRequest($0) } == Self.requests)
        }
    }

    /// The bytes Debian 12's plymouth 22.02 wrote (strace of `plymouth …` against a test
    /// server), and PID 1's unit status (systemd's manager_send_unit_plymouth).
    static let realClient: [([UInt8], PlymouthRequest)] = [
        (Array("P\0".utf8), .ping),
        (Array("U\u{2}\u{17}NetworkManager.service\0".utf8), .status("NetworkManager.service")),
        (Array("Q\u{2}\u{1}\0".utf8), .quit(retain: false)),
        ([0x51, 0x02, 0x02, 0x01, 0x00], .quit(retain: true)),
        (Array("V\0".utf8), .hasActiveVT),
        (Array("C\u{2}\u{8}updates\0".utf8), .changeMode(.updates)),
        (Array("C\u{2}\u{9}shutdown\0".utf8), .changeMode(.shutdown)),
        (Array("u\u{2}\u{3}42\0".utf8), .systemUpdate(42)),
        (Array("M\u{2}\u{c}Hello world\0".utf8), .showMessage("Hello world")),
        (Array("m\u{2}\u{2}x\0".utf8), .hideMessage("x")),
        (Array("D\0".utf8), .deactivate), (Array("r\0".utf8), .reactivate), (Array("$\0".utf8), .showSplash),
        (Array("H\0".utf8), .hideSplash), (Array("A\0".utf8), .pauseProgress), (Array("a\0".utf8), .unpauseProgress),
        (Array("S\0".utf8), .systemInitialized), (Array("R\u{2}\u{9}/sysroot\0".utf8), .newRoot("/sysroot")),
        (Array("!\0".utf8), .reportError), (Array("*\u{2}\u{3}pw\0".utf8), .password(prompt: "pw")), (Array("*\0".utf8), .password(prompt: nil)),
        (Array("c\0".utf8), .cachedPassword), (Array("W\u{2}\u{2}q\0".utf8), .question(prompt: "q")),
        (Array("K\u{2}\u{2}\u{3}\0".utf8), .watchKeystroke(keys: "\u{3}")), (Array("L\u{2}\u{2}x\0".utf8), .ignoreKeystroke(keys: "x")),
    ]

    @Test func theRealClientsBytesAreRead() throws {
        for (bytes, expected) in Self.realClient {
            let d = decode(bytes)
            #expect(d.error == nil && d.frames.count == 1)
            #expect(try PlymouthRequest(#require(d.frames.first)) == expected)
            #expect(try expected.frame().bytes == bytes, "\(expected) encodes as the real client writes it")
        }
    }

    static let replies: [PlymouthReply] = [
        .ack, .nak, .noAnswer, .answer([]), .answer(Array("secret".utf8)), .answer([0, 1, 2, 255]), .answer(Array(repeating: 7, count: 70000 / 2)),
        .answers([]), .answers([[]]), .answers([Array("a".utf8), Array("bc".utf8)]), .answers([[], []]),
    ]

    @Test func everyReplyRoundTrips() throws {
        var all: [UInt8] = []
        for r in Self.replies {
            var d = PlymouthReplyDecoder()
            d.append(r.bytes)
            #expect(try d.next() == r)
            #expect(try d.next() == nil && d.pending == 0)
            var b = PlymouthReplyDecoder()
            var got: [PlymouthReply] = []
            for byte in r.bytes {
                b.append([byte])
                if let x = try b.next() { got.append(x) }
            }
            #expect(got == [r])
            all += r.bytes
        }
        var d = PlymouthReplyDecoder()
        d.append(all)
        var got: [PlymouthReply] = []
        while let r = try d.next() { got.append(r) }
        #expect(got == Self.replies)
        // plymouthd's answer: 0x02, the length little-endian, the bytes (the client printed "secre").
        #expect(PlymouthReply.answer(Array("secre".utf8)).bytes == [0x02, 5, 0, 0, 0] + Array("secre".utf8))
    }

    static let badFraming: [([UInt8], PlymouthFramingError)] = [
        ([0x00, 0x00], .badCommand(0x00)), ([0x1F, 0x00], .badCommand(0x1F)), ([0x20, 0x00], .badCommand(0x20)),
        ([0x7F, 0x00], .badCommand(0x7F)), ([0xFF, 0x00], .badCommand(0xFF)), ([0x0A], .badCommand(0x0A)),
        (Array("P\u{1}".utf8), .badSeparator(0x01)), (Array("Px".utf8), .badSeparator(0x78)), (Array("P\u{3}".utf8), .badSeparator(0x03)),
        ([0x55, 0xFF], .badSeparator(0xFF)),
        (Array("U\u{2}\0".utf8), .emptyLength),
        (Array("U\u{2}\u{2}ab".utf8), .unterminated), (Array("U\u{2}\u{1}x".utf8), .unterminated),
        (Array("Q\u{2}\u{2}\u{1}\u{1}".utf8), .unterminated),
    ]

    /// Each kind of framing that cannot be followed is refused — whole or byte by byte, after
    /// good requests (which are still read) — and the decoder refuses everything after it.
    @Test(arguments: badFraming)
    func badFramingIsRefused(_ bytes: [UInt8], _ error: PlymouthFramingError) throws {
        let good = Array("P\0U\u{2}\u{2}a\0".utf8)
        for chunks in [[Int.max], [1]] {
            let d = decode(good + bytes + good, chunks: chunks)
            #expect(d.error == error)
            #expect(d.frames == [PlymouthFrame(command: 0x50), PlymouthFrame(command: 0x55, argument: Array("a".utf8))])
        }
        var dec = PlymouthRequestDecoder()
        dec.append(bytes)
        #expect(throws: error) { _ = try dec.next() }
        dec.append(Array("P\0".utf8))
        #expect(throws: error) { _ = try dec.next() }
        #expect(!error.description.isEmpty)
    }

    static let refused: [([UInt8], String)] = [
        (Array("z\0".utf8), "unknown command 'z'"),
        (Array("U\0".utf8), "update needs an argument"),
        (Array("P\u{2}\u{2}x\0".utf8), "ping takes no argument"),
        (Array("C\u{2}\u{6}sleep\0".utf8), "change-mode: unknown mode \"sleep\"; expected boot-up, shutdown, reboot, updates, system-upgrade, firmware-upgrade"),
        (Array("u\u{2}\u{4}101\0".utf8), "system-update: \"101\" is not a percentage from 0 to 100"),
        (Array("u\u{2}\u{3}-1\0".utf8), "system-update: \"-1\" is not a percentage from 0 to 100"),
        (Array("u\u{2}\u{1}\0".utf8), "system-update: \"\" is not a percentage from 0 to 100"),
        (Array("u\u{2}\u{5}0042\0".utf8), "system-update: \"0042\" is not a percentage from 0 to 100"),
        (Array("Q\u{2}\u{2}\u{2}\0".utf8), "quit: the argument is empty, or 0x01 to retain the splash"),
        (Array("Q\0".utf8), "quit: the argument is empty, or 0x01 to retain the splash"),
        ([0x55, 0x02, 0x03, 0xC3, 0x28, 0x00], "update: the argument is not UTF-8 text without NUL"),
        ([0x4D, 0x02, 0x04, 0x61, 0x00, 0x62, 0x00], "show-message: the argument is not UTF-8 text without NUL"),
    ]

    /// Requests framed right that mean nothing are refused one by one (the stream goes on).
    @Test(arguments: refused)
    func meaninglessRequestsAreRefused(_ bytes: [UInt8], _ why: String) throws {
        let d = decode(bytes + Array("P\0".utf8))
        #expect(d.error == nil && d.frames.count == 2)
        #expect(throws: PlymouthRequestError(why)) { _ = try PlymouthRequest(d.frames[0]) }
        #expect(try PlymouthRequest(d.frames[1]) == .ping)
    }

    @Test func textsTheWireCannotCarryAreNotSent() {
        #expect(throws: PlymouthRequestError.self) { _ = try PlymouthRequest.status(String(repeating: "x", count: 255)).frame() }
        #expect(throws: PlymouthRequestError.self) { _ = try PlymouthRequest.showMessage("a\0b").frame() }
        #expect(throws: PlymouthRequestError.self) { _ = try PlymouthRequest.systemUpdate(101).frame() }
    }

    static let badReplies: [([UInt8], String)] = [
        ([0x07], "reply byte 0x07 is not ACK, NAK, an answer or no answer"),
        ([0x00], "reply byte 0x00 is not ACK, NAK, an answer or no answer"),
        ([0x02, 0x01, 0x00, 0x01, 0x00], "an answer of 65537 bytes (at most 65536)"),
        ([0x09, 0xFF, 0xFF, 0xFF, 0xFF], "an answer of 4294967295 bytes (at most 65536)"),
        ([0x09, 0x02, 0x00, 0x00, 0x00, 0x61, 0x62], "several answers that do not end with a NUL"),
    ]

    @Test(arguments: badReplies)
    func badRepliesAreRefused(_ bytes: [UInt8], _ why: String) {
        var d = PlymouthReplyDecoder()
        d.append(bytes)
        #expect(throws: PlymouthReplyError(why)) { _ = try d.next() }
    }

    @Test func incompleteRepliesWait() throws {
        for r in Self.replies where r.bytes.count > 1 {
            var d = PlymouthReplyDecoder()
            d.append(r.bytes.dropLast())
            #expect(try d.next() == nil)
        }
    }

    /// Mutations of valid request streams (a byte changed, inserted, removed, a cut, a slice
    /// repeated), fed in random chunks: no crash, no hang, never more than one incomplete
    /// request kept, every frame read is one the encoder would write, and the chunking never
    /// changes what is read. The same for reply streams.
    @Test func generatedInputNeverHurts() throws {
        var rng = SeededGenerator(seed: 0x5EED_1718)
        let seeds: [[UInt8]] = try (0..<64).map { _ in
            var s: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) { s += try Self.requests.randomElement(using: &rng)!.frame().bytes }
            return s
        }
        let iterations = 25_000
        var framingErrors = 0, frames = 0, meaningful = 0
        for i in 0..<iterations {
            var b = seeds[i % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where !b.isEmpty: b[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: b.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                case 2 where !b.isEmpty: b.remove(at: at)
                case 3: b = Array(b.prefix(at))
                case 4 where !b.isEmpty: b.insert(contentsOf: b[at..<min(b.count, at + Int.random(in: 1...8, using: &rng))], at: at)
                default: break   // unchanged
                }
            }
            let whole = decode(b)
            let chunked = decode(b, chunks: [Int.random(in: 1...5, using: &rng), Int.random(in: 1...300, using: &rng)])
            #expect(whole.frames == chunked.frames && whole.error == chunked.error)
            #expect(chunked.maxPending <= 258)
            if whole.error != nil { framingErrors += 1 }
            for f in whole.frames {
                frames += 1
                #expect(f.bytes.count <= 258)
                if let r = try? PlymouthRequest(f) {
                    meaningful += 1
                    #expect(try r.frame() == f)
                }
            }
            // Replies: the same stream read as replies never crashes; an answer's declared
            // length past the limit is refused before anything is kept.
            var rd = PlymouthReplyDecoder()
            rd.append(b)
            while let _ = try? rd.next() {}
        }
        #expect(framingErrors > 1000 && meaningful > 10000, "the mutations reach both sides: \(framingErrors) framing errors, \(meaningful) of \(frames) frames meaningful")
    }
}
