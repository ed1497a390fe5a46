// A very large picture (issue #24): what docs/protocol.md says of it is what the reader does.
import KioskPNG
import KioskSys
import KioskTestSupport
import Testing

/// 10000x10000 8-bit gray, all black: 100 MB of rows in a ~100 kB zlib stream (made once).
private let tenThousand = PNGForge.file(width: 10000, height: 10000, bitDepth: 8, colorType: 0,
                                        idat: PNGForge.zeroBomb(count: 10000 * (1 + 10000)))

/// The daemon's limit for an 800x480 screen (kiosk-hud's pictureLimit).
private let screenLimit = PNGReadLimit(maxPixels: 4 * 800 * 480, maxWidth: 1600, maxHeight: 960)

@Suite struct PNGLargePictureTests {
    /// Non-interlaced and over the decoding work bound: refused from its header (nothing is
    /// decoded), and the message says scaling does not help.
    @Test func tenThousandSquareIsRefusedByItsHeaderWithTheDocumentedReason() throws {
        #expect(tenThousand.count < 200_000)
        let header = try PNG.header(tenThousand)
        #expect(!header.interlaced && header.pixels == 100_000_000)
        let bound = PNGReadLimit.maxWorkBytes / header.workBytesPerPixel
        let message = caught(PNGError.self) { _ = try PNG.decode(tenThousand, limit: screenLimit) }?.message
        #expect(message == "image is 10000x10000 (100000000 pixels); at most \(bound) pixels are decoded, even to be scaled down")
        // Within the bound, the same picture is scaled down while read (8192x8192: 960x960).
        switch screenLimit.decodedSize(of: PNGHeader(width: 8192, height: 8192, bitDepth: 8, colorType: 0, interlaced: false)) {
        case let .success(size): #expect(size.width == 960 && size.height == 960)
        case let .failure(e): Issue.record("\(e)")
        }
    }

    /// docs/protocol.md states the same bound, in the same words.
    @Test func theProtocolDocStatesTheBound() throws {
        let path = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")) + "/docs/protocol.md"
        let doc = String(decoding: try readFileBytes(path, limit: 1 << 20), as: UTF8.self)
        let flat = doc.split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
        #expect(flat.contains("at most \(PNGReadLimit.maxWorkBytes / 4) pixels are decoded, even to be scaled down"))
        #expect(flat.contains("scaled down while read"))
    }
}
