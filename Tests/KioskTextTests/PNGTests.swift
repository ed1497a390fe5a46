import KioskPNG
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PNGTests {
    private func scratchPath(_ name: String) -> String {
        "/tmp/kiosktext-tests-\(getpid())-\(name).png"
    }

    private func sample() -> PNGImage {
        var pixels: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<5 {
                pixels += [UInt8(x * 50), UInt8(y * 100), 7, UInt8((x + y) * 40)]
            }
        }
        return PNGImage(width: 5, height: 3, rgba: pixels)
    }

    @Test func memoryRoundTrip() throws {
        let image = sample()
        let bytes = try PNG.encode(image)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try PNG.decode(bytes) == image)
    }

    @Test func opaqueRoundTripWritesRGB() throws {
        let image = PNGImage(width: 4, height: 2, fill: (10, 20, 30, 255))
        let bytes = try PNG.encode(image)
        #expect(bytes[25] == 2)  // IHDR colour type: RGB
        #expect(try PNG.decode(bytes) == image)
    }

    @Test func fileRoundTrip() throws {
        let path = scratchPath("roundtrip")
        defer { unlink(path) }
        let image = sample()
        try PNG.write(image, path: path)
        #expect(try PNG.read(path: path) == image)
    }

    /// Written by rows, small (libpng's defaults) and large (the Sub filter and Z_RLE), with
    /// and without alpha: read back the same.
    @Test func rowsRoundTrip() throws {
        let path = scratchPath("rows")
        defer { unlink(path) }
        for (w, h) in [(13, 11), (2100, 2001)] {
            for alpha in [false, true] {
                let channels = alpha ? 4 : 3
                func value(_ x: Int, _ y: Int, _ c: Int) -> UInt8 { UInt8(truncatingIfNeeded: (x / 7) * 3 + (y / 5) * 5 + c * 80) }
                try PNG.write(width: w, height: h, alpha: alpha, path: path) { y, row in
                    for x in 0..<w { for c in 0..<channels { row[x * channels + c] = value(x, y, c) } }
                }
                let image = try PNG.read(path: path)
                var same = image.width == w && image.height == h
                for y in stride(from: 0, to: h, by: 97) where same {
                    for x in 0..<w where same {
                        let i = (y * w + x) * 4
                        same = image.rgba[i] == value(x, y, 0) && image.rgba[i + 1] == value(x, y, 1) && image.rgba[i + 2] == value(x, y, 2)
                            && image.rgba[i + 3] == (alpha ? value(x, y, 3) : 255)
                    }
                }
                #expect(same, "\(w)x\(h) alpha \(alpha)")
            }
        }
    }

    @Test func decodesGray() throws {
        let bytes = TinyPNG.make(width: 2, height: 2, bitDepth: 8, colorType: 0,
                                 rows: [[0, 128], [255, 64]])
        let image = try PNG.decode(bytes)
        #expect(image.width == 2 && image.height == 2)
        #expect(image.rgba == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 64, 64, 64, 255])
    }

    @Test func decodesGrayAlpha() throws {
        let bytes = TinyPNG.make(width: 1, height: 1, bitDepth: 8, colorType: 4, rows: [[200, 100]])
        #expect(try PNG.decode(bytes).rgba == [200, 200, 200, 100])
    }

    @Test func decodesPaletteWithTransparency() throws {
        // 2-bit indices 0, 1, 2 packed MSB first.
        let bytes = TinyPNG.make(width: 3, height: 1, bitDepth: 2, colorType: 3, rows: [[0b00_01_10_00]],
                                 extraChunks: [("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255]),
                                               ("tRNS", [255, 128])])
        #expect(try PNG.decode(bytes).rgba == [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255])
    }

    @Test func decodes16BitRGB() throws {
        let bytes = TinyPNG.make(width: 1, height: 1, bitDepth: 16, colorType: 2,
                                 rows: [[0xAB, 0xAB, 0x12, 0x12, 0xFF, 0xFF]])
        #expect(try PNG.decode(bytes).rgba == [0xAB, 0x12, 0xFF, 255])
    }

    @Test func missingFileError() {
        let path = "/nonexistent/dir/missing.png"
        #expect {
            _ = try PNG.read(path: path)
        } throws: { error in
            guard let error = error as? PNGError else { return false }
            return error.path == path && error.description.contains(path) && !error.message.isEmpty
        }
    }

    @Test func garbageBytesError() {
        #expect(throws: PNGError.self) { try PNG.decode([0x41, 0x42, 0x43, 0x00, 0xFF, 0x13, 0x37, 0x00, 0x01]) }
        #expect(throws: PNGError.self) { try PNG.decode([]) }
        // A valid header with truncated image data.
        let good = TinyPNG.make(width: 2, height: 2, bitDepth: 8, colorType: 0, rows: [[0, 1], [2, 3]])
        #expect(throws: PNGError.self) { try PNG.decode(Array(good.prefix(good.count - 20))) }
        do {
            _ = try PNG.decode(Array("not a png".utf8))
        } catch {
            #expect(error.operation == "decode")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func invalidImagesAreRejected() {
        #expect(throws: PNGError.self) { try PNG.encode(PNGImage(width: 2, height: 2, rgba: [1, 2, 3])) }
        #expect(throws: PNGError.self) { try PNG.encode(PNGImage(width: 0, height: 0, rgba: [])) }
        #expect(throws: PNGError.self) { try PNG.write(sample(), path: "/nonexistent/dir/out.png") }
    }
}

/// Writes minimal PNGs (zlib "stored" blocks, no compression) so decoding of
/// formats KioskPNG never writes can be tested without fixtures.
enum TinyPNG {
    static func make(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8,
                     rows: [[UInt8]], extraChunks: [(String, [UInt8])] = []) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0], into: &png)
        for (type, data) in extraChunks { chunk(type, data, into: &png) }
        let raw: [UInt8] = rows.flatMap { [UInt8(0)] + $0 }  // filter type 0 per row
        chunk("IDAT", zlibStored(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let body = Array(type.utf8) + data
        png += be32(data.count) + body + be32(Int(crc32(body)))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(Int(b << 16 | a))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
