/// What a PNG's IHDR says, read without decoding anything (`PNG.header`).
public struct PNGHeader: Sendable, Equatable {
    /// Width and height in pixels (1 … 2^31 − 1 each, as the PNG format allows).
    public var width: Int
    public var height: Int
    /// Bits per sample (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    public var colorType: Int
    /// Adam7 interlacing.
    public var interlaced: Bool

    public init(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool) {
        self.width = width; self.height = height
        self.bitDepth = bitDepth; self.colorType = colorType; self.interlaced = interlaced
    }

    /// width × height.
    public var pixels: Int { width * height }

    /// The bytes one pixel costs to decode: its size in the file (channels × bit depth / 8) or
    /// as RGBA8 (4), whichever is more; `PNGReadLimit.maxWorkBytes` bounds pixels × this.
    public var workBytesPerPixel: Int {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
        return max(4, channels * bitDepth / 8)
    }

    /// The bytes a file needs for its signature and IHDR chunk.
    static let byteCount = 33
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Parses the signature and the IHDR chunk (length, type, fields and CRC) from the first
    /// bytes of a file; the message says what is wrong.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<PNGHeader, PNGHeaderProblem> {
        let b = Array(bytes.prefix(byteCount))
        guard b.count >= 8, Array(b[0..<8]) == signature else { return .failure(.init("not a PNG file")) }
        guard b.count == byteCount else { return .failure(.init("truncated: the file ends in the PNG header")) }
        func be32(_ i: Int) -> UInt32 { UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]) }
        guard Array(b[12..<16]) == Array("IHDR".utf8) else { return .failure(.init("damaged PNG: the first chunk is not IHDR")) }
        guard be32(8) == 13 else { return .failure(.init("damaged PNG: IHDR length is \(be32(8)), not 13")) }
        guard crc32(b[12..<29]) == be32(29) else { return .failure(.init("damaged PNG: IHDR CRC error")) }
        let width = be32(16), height = be32(20)
        let depth = Int(b[24]), color = Int(b[25])
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            return .failure(.init("damaged PNG: image size \(width)x\(height)"))
        }
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[color]?.contains(depth) == true else {
            return .failure(.init("damaged PNG: colour type \(color) with bit depth \(depth)"))
        }
        guard b[26] == 0, b[27] == 0, b[28] <= 1 else {
            return .failure(.init("damaged PNG: compression \(b[26]), filter \(b[27]), interlace \(b[28])"))
        }
        return .success(PNGHeader(width: Int(width), height: Int(height), bitDepth: depth, colorType: color,
                                  interlaced: b[28] == 1))
    }
}

/// Why bytes are not a usable PNG header.
struct PNGHeaderProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// CRC-32 (ISO 3309, as PNG chunks use it).
func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
