// SWUpdate's progress messages from bytes, laid out as each generation's C struct puts them
// (offsets written out here from progress_ipc.h, not taken from the decoder): Debian 12's
// 2022.12 (no version, natural alignment), API 1 (2023.12), API 2 with its acknowledgement
// (2024.12, aligned; 2025.12 on, packed); whole, byte by byte, several in one read; an unknown
// version stops the decoder with one output.
import KioskDaemon
import Testing

/// One `struct progress_msg` as the C compiler lays it out (little-endian).
func progressBytes(first: UInt32, status: UInt32, dwlPercent: UInt32 = 0, dwlBytes: UInt64 = 0, steps: UInt32 = 0, step: UInt32 = 0,
                   percent: UInt32 = 0, image: String = "", handler: String = "", source: UInt32 = 0, info: String = "",
                   packed: Bool = false) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: packed ? 2408 : 2416)
    func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) } }
    func put64(_ v: UInt64, _ at: Int) { for i in 0..<8 { b[at + i] = UInt8((v >> (8 * UInt64(i))) & 0xFF) } }
    func text(_ s: String, _ at: Int) { for (i, c) in s.utf8.enumerated() { b[at + i] = c } }
    put(first, 0); put(status, 4); put(dwlPercent, 8)
    if packed {
        put64(dwlBytes, 12); put(steps, 20); put(step, 24); put(percent, 28); text(image, 32); text(handler, 288)
        put(source, 352); put(UInt32(info.utf8.count), 356); text(info, 360)
    } else {
        // 4 bytes of padding before the 64-bit count.
        put64(dwlBytes, 16); put(steps, 24); put(step, 28); put(percent, 32); text(image, 36); text(handler, 292)
        put(source, 356); put(UInt32(info.utf8.count), 360); text(info, 364)
    }
    return b
}

/// API 2's `struct progress_connect_ack`.
func progressAck(_ version: UInt32) -> [UInt8] {
    [UInt8(version & 0xFF), UInt8((version >> 8) & 0xFF), UInt8((version >> 16) & 0xFF), UInt8(version >> 24), 0x41, 0x43, 0x4B, 0]
}

/// Everything `bytes` decode to, fed `chunk` bytes a read.
func decodeSWUpdate(_ bytes: [UInt8], chunk: Int = Int.max) -> [SWUpdateDecoder.Output] {
    var d = SWUpdateDecoder()
    var out: [SWUpdateDecoder.Output] = []
    var i = 0
    while i < bytes.count {
        let n = min(chunk, bytes.count - i)
        out += d.feed(bytes[i..<(i + n)])
        i += n
    }
    return out
}

@Suite struct SWUpdateCodecTests {
    static let step = SWUpdateMessage(status: .progress, downloadBytes: 0x1_0000_0002, steps: 3, step: 2, stepPercent: 40,
                                      image: "rootfs.ext4", handler: "rawfile", source: .local)

    func bytes(first: UInt32, packed: Bool = false) -> [UInt8] {
        progressBytes(first: first, status: 8, dwlBytes: 0x1_0000_0002, steps: 3, step: 2, percent: 40, image: "rootfs.ext4",
                      handler: "rawfile", source: 4, packed: packed)
    }

    @Test func debian12sLayout() {
        let start = progressBytes(first: 0, status: 1, steps: 3, source: 1, info: "{\"0\": {\"VERSION\" : \"1.0.0\"}}")
        let out = decodeSWUpdate(start + bytes(first: 0))
        #expect(out == [.message(SWUpdateMessage(status: .start, steps: 3, source: .webServer, info: "{\"0\": {\"VERSION\" : \"1.0.0\"}}")),
                        .message(Self.step)])
    }

    @Test func api1Layout() {
        #expect(decodeSWUpdate(bytes(first: 0x0001_0000)) == [.message(Self.step)])
    }

    @Test func api2AlignedAndPacked() {
        #expect(decodeSWUpdate(progressAck(0x0002_0000) + bytes(first: 0x0002_0000)) == [.message(Self.step)])
        // Packed (2025.12 on): one message a read, or two together.
        var d = SWUpdateDecoder()
        let ack = d.feed(progressAck(0x0002_0000))
        let one = d.feed(bytes(first: 0x0002_0000, packed: true))
        #expect(ack == [])
        #expect(one == [.message(Self.step)])
        #expect(d.layout == .packed)
        let two = bytes(first: 0x0002_0000, packed: true) + bytes(first: 0x0002_0000, packed: true)
        #expect(decodeSWUpdate(progressAck(0x0002_0000) + two) == [.message(Self.step), .message(Self.step)])
    }

    @Test func byteByByteAndInPieces() {
        let stream = progressBytes(first: 0, status: 2, steps: 3, step: 1, image: "a") + bytes(first: 0) + progressBytes(first: 0, status: 3)
        let whole = decodeSWUpdate(stream)
        #expect(whole.count == 3)
        #expect(decodeSWUpdate(stream, chunk: 1) == whole)
        #expect(decodeSWUpdate(stream, chunk: 1000) == whole)
        var d = SWUpdateDecoder()
        let none = d.feed(stream.prefix(2000))
        #expect(none == [])
        #expect(d.pendingCount == 2000)
    }

    @Test func anUnknownVersionIsOneOutputAndTheRestIsDropped() {
        let v3: UInt32 = 0x0003_0100
        #expect(decodeSWUpdate(progressAck(v3) + bytes(first: v3)) == [.unsupported(version: v3)])
        #expect(decodeSWUpdate(bytes(first: v3) + bytes(first: v3)) == [.unsupported(version: v3)])
        #expect(decodeSWUpdate(bytes(first: v3) + bytes(first: v3), chunk: 3) == [.unsupported(version: v3)])
        // A message whose major differs from the acknowledged one.
        #expect(decodeSWUpdate(progressAck(0x0002_0000) + bytes(first: 0x0001_0000)) == [.unsupported(version: 0x0001_0000)])
    }

    @Test func fieldsAreBounded() {
        // An info length past the field, percents past 100, an unknown source.
        var b = progressBytes(first: 0, status: 8, steps: 2, step: 1, percent: 250, source: 99, info: "x")
        b[360] = 0xFF; b[361] = 0xFF
        guard case let .message(m)? = decodeSWUpdate(b).first else { Issue.record("no message"); return }
        #expect(m.stepPercent == 100)
        #expect(m.source == .unknown)
        #expect(m.info == "x")
        // A status SWUpdate does not send: skipped, the next read.
        let bad = progressBytes(first: 0, status: 42)
        #expect(decodeSWUpdate(bad + bytes(first: 0)) == [.message(Self.step)])
    }
}

/// SWUpdate's notification stream (its control socket): the acknowledgement, notifications,
/// a refusal; the subscription request's bytes.
@Suite struct SWUpdateNotificationCodecTests {
    func record(type: UInt32, status: Int32 = 0, level: Int32 = 0, text: String = "") -> [UInt8] {
        var b = [UInt8](repeating: 0, count: MemoryLayout<Int>.size == 8 ? 3120 : 3104)
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) } }
        put(0x1405_2001, 0); put(type, 4); put(UInt32(bitPattern: status), 8); put(UInt32(bitPattern: level), 16)
        for (i, c) in text.utf8.enumerated() { b[20 + i] = c }
        return b
    }

    @Test func ackNotificationsAndRefusal() {
        var d = SWUpdateNotificationDecoder()
        let stream = record(type: 1) + record(type: 11, status: 4, level: 1, text: "ERROR : HASH mismatch")
        let first = d.feed(stream.prefix(100))
        let rest = d.feed(stream.dropFirst(100))
        #expect(first == [])
        #expect(rest == [.acknowledged, .notification(SWUpdateNotification(status: .failure, level: 1, text: "ERROR : HASH mismatch"))])
        var n = SWUpdateNotificationDecoder()
        let nack = n.feed(record(type: 2) + record(type: 11))
        #expect(nack == [.refused])
        var bad = SWUpdateNotificationDecoder()
        let garbage = bad.feed([UInt8](repeating: 7, count: SWUpdateNotification.recordSize))
        #expect(garbage == [.refused])
        #expect(bad.stopped)
    }

    @Test func theSubscription() {
        let s = SWUpdateNotification.subscription
        #expect(s.count == SWUpdateNotification.recordSize)
        #expect(Array(s.prefix(8)) == [0x01, 0x20, 0x05, 0x14, 11, 0, 0, 0])
        #expect(s.dropFirst(8).allSatisfy { $0 == 0 })
    }
}
