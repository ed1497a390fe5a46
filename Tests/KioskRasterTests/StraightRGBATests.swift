import KioskRaster
import Testing

/// A picture decoded straight into its bitmap and premultiplied there is the same as one made
/// from an RGBA array (`init(width:height:rgba:)`), for every alpha and odd sizes.
@Suite struct StraightRGBATests {
    @Test func inPlaceEqualsTheArrayPath() throws {
        let width = 37, height = 5
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 0x9E37_79B9
        for i in rgba.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            rgba[i] = UInt8(truncatingIfNeeded: seed >> 24)
        }
        // Every alpha at least once, 0 and 255 included.
        for a in 0..<min(256, width * height) { rgba[4 * a + 3] = UInt8(a % 256) }
        let expected = try Bitmap(width: width, height: height, rgba: rgba)
        let bitmap = try Bitmap.forStraightRGBA(width: width, height: height)
        #expect(bitmap.rawBytes.count == width * height * 4)
        for i in rgba.indices { bitmap.rawBytes[i] = rgba[i] }
        bitmap.premultiplyStraightRGBA()
        var same = true
        for y in 0..<height { for x in 0..<width where bitmap.surface.pixel(x: x, y: y) != expected.surface.pixel(x: x, y: y) { same = false } }
        #expect(same)
    }
}
