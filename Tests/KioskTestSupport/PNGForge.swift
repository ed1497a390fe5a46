/// PNG files built byte by byte, for the decoder's tests and kiosk-hud-fuzz's png target: chunks
/// with right or wrong CRCs, zlib streams of stored blocks, and zlib bombs (a dynamic-Huffman block that
/// inflates to a run of one byte value at ~1030:1).
public enum PNGForge {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// IHDR's 13 bytes.
    public static func ihdr(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, compression: UInt8 = 0, filter: UInt8 = 0,
                     interlace: UInt8 = 0) -> [UInt8] {
        be32(width) + be32(height) + [bitDepth, colorType, compression, filter, interlace]
    }

    /// A chunk: length, type, data, CRC of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// Where each chunk is: (type, offset of its length field, data length), as far as lengths make sense.
    public static func chunks(_ png: [UInt8]) -> [(type: String, offset: Int, length: Int)] {
        var out: [(String, Int, Int)] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            out.append((String(decoding: png[i + 4..<i + 8], as: UTF8.self), i, length))
            guard length <= png.count - i - 12 else { break }
            i += 12 + length
        }
        return out
    }

    /// Recomputes the CRC of the chunk at `offset` (its length field must fit in `png`).
    public static func fixCRC(_ png: inout [UInt8], chunkAt offset: Int) {
        let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
        guard offset + 12 + length <= png.count else { return }
        let crc = crc32(Array(png[offset + 4..<offset + 8 + length]))
        png.replaceSubrange(offset + 8 + length..<offset + 12 + length, with: be32(Int(crc)))
    }

    /// Every chunk's CRC recomputed (so a mutation inside a chunk reaches the decoder).
    public static func fixAllCRCs(_ png: inout [UInt8]) {
        for c in chunks(png) { fixCRC(&png, chunkAt: c.offset) }
    }

    /// A zlib stream of stored (uncompressed) blocks.
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out.append(contentsOf: data[offset..<offset + count])
            offset += count
        } while offset < data.count
        return out + be32(Int(adler32(data)))
    }

    public static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < data.count {
            let n = min(5552, data.count - i)
            for j in i..<i + n { a &+= UInt32(data[j]); b &+= a }
            a %= 65521; b %= 65521
            i += n
        }
        return b << 16 | a
    }

    /// The Adler-32 of `count` copies of `byte`, without making them.
    public static func adler32(repeating byte: UInt8, count: Int) -> UInt32 {
        let v = UInt64(byte), m: UInt64 = 65521, n = UInt64(count)
        let a = (1 + v * n) % m
        // b = Σ_{k=1..n} (1 + v·k) = n + v·n(n+1)/2
        let tri = n * (n + 1) / 2 % m
        let b = (n % m + v * tri) % m
        return UInt32(b << 16 | a)
    }

    /// A zlib stream that inflates to `count` bytes `byte` (≥ 1) at ~1030:1: one dynamic block
    /// whose codes are 1 bit for "length 258", 1 bit for "distance 1" and 2 bits for the literal.
    /// With `lie`, the Adler-32 at the end is wrong.
    public static func bomb(count: Int, byte: UInt8 = 0, lie: Bool = false) -> [UInt8] {
        precondition(count >= 1)
        var w = BitWriter()
        w.reserve(count / 258 / 4 + 64)
        w.bits(1, 1)           // BFINAL
        w.bits(2, 2)           // BTYPE = dynamic
        w.bits(286 - 257, 5)   // HLIT
        w.bits(2 - 1, 5)       // HDIST
        w.bits(18 - 4, 4)      // HCLEN
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        let clLength: [Int: Int] = [18: 1, 1: 2, 2: 2]
        for symbol in order { w.bits(clLength[symbol] ?? 0, 3) }
        let clCode: [Int: (code: Int, length: Int)] = [18: (0b0, 1), 1: (0b10, 2), 2: (0b11, 2)]
        func lengthSymbol(_ s: Int) { w.code(clCode[s]!.code, clCode[s]!.length) }
        func zeros(_ n: Int) {  // n in 11...138, symbol 18
            lengthSymbol(18); w.bits(n - 11, 7)
        }
        // Literal/length code lengths: `byte` → 2, 256 → 2, 285 → 1, the rest 0 (runs of 11…138
        // zeros, so every gap must be 0 or ≥ 11: bytes 0, 11…244 and 255); distances 0, 1 → 1.
        let b = [0, 255].contains(Int(byte)) || (11...244).contains(Int(byte)) ? Int(byte) : 0
        func gap(_ n: Int) {
            var left = n
            while left > 0 {
                let take = left <= 138 ? left : min(138, left - 11)
                zeros(take)
                left -= take
            }
        }
        gap(b)
        lengthSymbol(2)
        gap(255 - b)
        lengthSymbol(2)   // 256
        gap(28)           // 257…284
        lengthSymbol(1)
        lengthSymbol(1); lengthSymbol(1)
        // Canonical codes: 285 → "0"; the literal → "10"; 256 → "11"; distance 0 → "0".
        w.code(0b10, 2)
        var left = count - 1
        while left >= 258 {
            w.code(0, 1)
            w.code(0, 1)
            left -= 258
        }
        for _ in 0..<left { w.code(0b10, 2) }
        w.code(0b11, 2)
        let adler = adler32(repeating: UInt8(b), count: count) ^ (lie ? 0x5A5A : 0)
        return [0x78, 0xDA] + w.bytes() + be32(Int(adler))
    }

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { t in
            for byte in bytes { crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    /// A file: signature, IHDR, `before` chunks, one IDAT of `idat`, IEND.
    public static func file(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false,
                     idat: [UInt8], before: [(String, [UInt8])] = []) -> [UInt8] {
        var png = signature
        png += chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
        for (type, data) in before { png += chunk(type, data) }
        png += chunk("IDAT", idat)
        png += chunk("IEND", [])
        return png
    }

    /// The offset just past chunk `type` (its CRC included).
    public static func end(of type: String, in png: [UInt8]) -> Int {
        let c = chunks(png).first { $0.type == type }!
        return c.offset + 12 + c.length
    }

    /// `png` with the length field of the first chunk `type` replaced (CRC left as it was).
    public static func withLength(_ length: UInt32, of type: String, in png: [UInt8]) -> [UInt8] {
        var p = png
        let o = chunks(png).first { $0.type == type }!.offset
        p.replaceSubrange(o..<o + 4, with: be32(Int(length)))
        return p
    }

    /// `png` with the CRC of the first chunk `type` flipped.
    public static func withBadCRC(of type: String, in png: [UInt8]) -> [UInt8] {
        var p = png
        let c = chunks(png).first { $0.type == type }!
        p[c.offset + 8 + c.length] ^= 0x55
        return p
    }

    /// `png` (whose IHDR is its first chunk) marked interlaced, IHDR's CRC fixed; the image data
    /// is left as it was (not valid Adam7: only the header is meant to be read).
    public static func markedInterlaced(_ png: [UInt8]) -> [UInt8] {
        var p = png
        p[28] = 1
        p.replaceSubrange(29..<33, with: be32(Int(crc32(Array(p[12..<29])))))
        return p
    }

    /// The filtered (filter type 0) image data of an 8-bit image with `channels` samples per
    /// pixel, in Adam7's seven passes; `pixels` is the whole image, rows top-down.
    public static func adam7(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            guard x0 < width, y0 < height else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                out.append(0)
                for x in stride(from: x0, to: width, by: dx) {
                    let i = (y * width + x) * channels
                    out.append(contentsOf: pixels[i..<i + channels])
                }
            }
        }
        return out
    }

    /// A zlib stream that inflates to `count` zero bytes at ~1030:1 (`bomb` of zeros).
    public static func zeroBomb(count: Int) -> [UInt8] { bomb(count: count) }
}

/// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
public struct BitWriter {
    public init() {}
    private var out: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    public mutating func reserve(_ n: Int) { out.reserveCapacity(n) }

    public mutating func bit(_ b: Int) {
        if b != 0 { current |= 1 << UInt8(used) }
        used += 1
        if used == 8 { out.append(current); current = 0; used = 0 }
    }

    public mutating func bits(_ value: Int, _ count: Int) {
        for i in 0..<count { bit((value >> i) & 1) }
    }

    public mutating func code(_ code: Int, _ length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { bit((code >> i) & 1) }
    }

    public func bytes() -> [UInt8] { used > 0 ? out + [current] : out }
}
