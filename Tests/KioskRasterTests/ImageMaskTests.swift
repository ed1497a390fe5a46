@testable import KioskRaster
import Testing

@Suite("Images and masks")
struct ImageMaskTests {
    // Rule: an unscaled image on a whole-pixel origin is SrcOver of each source pixel (opaque = exact copy).
    @Test(arguments: [true, false], [PixelFormat.argb8888, .xrgb8888])
    func unscaledImageIsExactSrcOver(_ opaque: Bool, _ format: PixelFormat) throws {
        let img = makeImage(7, 5, seed: 71, opaque: opaque)
        let (bitmap, canvas) = try makeCanvas(16, 12, format)
        fillRandom(bitmap.surface, seed: 72)
        let before = pixels(bitmap.surface)
        canvas.draw(img, in: Rect(x: 6, y: -1, width: 7, height: 5))
        for y in 0..<12 {
            for x in 0..<16 {
                let d = before[y * 16 + x]
                let inside = x >= 6 && x < 13 && y < 4
                var expected = inside ? Blend.over(img.surface.pixel(x: x - 6, y: y + 1), d) : d
                if format == .xrgb8888 { expected |= 0xFF00_0000 }
                if inside && opaque { #expect(expected == img.surface.pixel(x: x - 6, y: y + 1)) }
                #expect(bitmap.surface.pixel(x: x, y: y) == expected, "(\(x),\(y))")
            }
        }
        #expect(canvas.damage.rects == [IntRect(x: 6, y: 0, width: 7, height: 4)])
    }

    // Rule: a 2× upscale of a 2×2 image is bilinear (pixel centres, edges clamped): values lie between
    // their neighbours, match the ideal interpolation within 1, and nothing is drawn outside the rect.
    @Test func twoTimesUpscaleIsSmooth() throws {
        let img = try Bitmap(width: 2, height: 2, format: .argb8888)
        let grey: [[UInt32]] = [[0, 200], [100, 255]]
        for y in 0..<2 { for x in 0..<2 { img.surface.row32(y)[x] = 0xFF00_0000 | grey[y][x] * 0x01_0101 } }
        let (bitmap, canvas) = try makeCanvas(12, 10, .argb8888)
        canvas.draw(img, in: Rect(x: 4, y: 3, width: 4, height: 4))
        // Destination pixel i samples source coordinate (i + ½)/2 − ½ = −¼, ¼, ¾, 1¼ (clamped to 0…1).
        let u = [0, 0.25, 0.75, 1]
        for y in 0..<10 {
            for x in 0..<12 {
                let p = bitmap.surface.pixel(x: x, y: y)
                guard (4..<8).contains(x) && (3..<7).contains(y) else { #expect(p == 0, "(\(x),\(y)) outside"); continue }
                let fx = u[x - 4], fy = u[y - 3]
                let ideal = (1 - fy) * ((1 - fx) * 0 + fx * 200) + fy * ((1 - fx) * 100 + fx * 255)
                #expect(p >> 24 == 0xFF)
                #expect(abs(Double(channel(p, 0)) - ideal) <= 1, "(\(x),\(y)): \(channel(p, 0)) vs \(ideal)")
                #expect(channel(p, 0) == channel(p, 8) && channel(p, 8) == channel(p, 16))
            }
        }
        // Strictly between the corner colours in the middle of each side.
        let top1 = channel(bitmap.surface.pixel(x: 5, y: 3), 0), top2 = channel(bitmap.surface.pixel(x: 6, y: 3), 0)
        #expect(0 < top1 && top1 < top2 && top2 < 200)
        let left1 = channel(bitmap.surface.pixel(x: 4, y: 4), 0), left2 = channel(bitmap.surface.pixel(x: 4, y: 5), 0)
        #expect(0 < left1 && left1 < left2 && left2 < 100)
    }

    // Rule: a fractional destination rectangle covers its edge pixels by their area.
    @Test func fractionalDestinationEdges() throws {
        let img = try Bitmap(width: 4, height: 2, format: .argb8888)
        for y in 0..<2 { for x in 0..<4 { img.surface.row32(y)[x] = 0xFFFF_FFFF } }
        let (bitmap, canvas) = try makeCanvas(10, 4, .argb8888)
        canvas.draw(img, in: Rect(x: 2.5, y: 1, width: 4, height: 2))
        #expect(bitmap.surface.pixel(x: 2, y: 1) == 0x8080_8080)
        #expect(bitmap.surface.pixel(x: 4, y: 2) == 0xFFFF_FFFF)
        #expect(bitmap.surface.pixel(x: 6, y: 1) == 0x8080_8080)
        #expect(bitmap.surface.pixel(x: 7, y: 1) == 0 && bitmap.surface.pixel(x: 4, y: 0) == 0)
    }

    // Rule: opacity o scales every image pixel by MUL(·, round(o·255)): 0.5 halves, 0 draws nothing.
    @Test func imageOpacity() throws {
        let img = makeImage(6, 4, seed: 73, opaque: true)
        let (bitmap, canvas) = try makeCanvas(8, 6, .argb8888)
        canvas.draw(img, in: Rect(x: 1, y: 1, width: 6, height: 4), opacity: 0.5)
        for y in 0..<4 {
            for x in 0..<6 {
                let s = img.surface.pixel(x: x, y: y), p = bitmap.surface.pixel(x: x + 1, y: y + 1)
                #expect(p == Blend.mul4(s, 128))
                for shift: UInt32 in [0, 8, 16, 24] { #expect(abs(Double(channel(p, shift)) - Double(channel(s, shift)) / 2) <= 1) }
            }
        }
        canvas.damage.removeAll()
        canvas.draw(img, in: Rect(x: 0, y: 0, width: 6, height: 4), opacity: 0)
        #expect(bitmap.surface.pixel(x: 0, y: 0) == 0 && canvas.damage.isEmpty)
    }

    // Rule: a mask of coverage 255 blends exactly like a solid fill of the same colour.
    @Test(arguments: [PixelFormat.argb8888, .xrgb8888, .rgb565], [Color(rgb: 0xFF8800), Color(rgb: 0x2288FF, a: 0.6)])
    func fullMaskEqualsSolidFill(_ format: PixelFormat, _ color: Color) throws {
        let (a, ca) = try makeCanvas(20, 8, format)
        let (b, cb) = try makeCanvas(20, 8, format)
        fillRandom(a.surface, seed: 74); fillRandom(b.surface, seed: 74)
        let mask = [UInt8](repeating: 255, count: 13 * 5)
        mask.withUnsafeBufferPointer { ca.drawMask($0.baseAddress!, width: 13, height: 5, pitch: 13, x: 4, y: 2, color: color) }
        cb.fill(IntRect(x: 4, y: 2, width: 13, height: 5), .solid(color))
        #expect(pixels(a.surface) == pixels(b.surface))
        #expect(ca.damage == cb.damage)
    }

    // Rule: drawMask(reportDamage: false) draws the same pixels but leaves the damage to the caller.
    @Test func maskWithoutDamageReport() throws {
        let (a, ca) = try makeCanvas(12, 8, .argb8888)
        let (b, cb) = try makeCanvas(12, 8, .argb8888)
        let mask = (0..<30).map { UInt8(truncatingIfNeeded: $0 * 37) }
        mask.withUnsafeBufferPointer {
            ca.drawMask($0.baseAddress!, width: 6, height: 5, pitch: 6, x: 2, y: 1, premultiplied: 0xC0C0_4020, reportDamage: false)
            cb.drawMask($0.baseAddress!, width: 6, height: 5, pitch: 6, x: 2, y: 1, premultiplied: 0xC0C0_4020)
        }
        #expect(pixels(a.surface) == pixels(b.surface))
        #expect(ca.damage.isEmpty && cb.damage.rects == [IntRect(x: 2, y: 1, width: 6, height: 5)])
    }

    // Rule: coverage 0 leaves every pixel as it was.
    @Test func zeroMaskLeavesPixels() throws {
        let (bitmap, canvas) = try makeCanvas(12, 8, .argb8888)
        fillRandom(bitmap.surface, seed: 75)
        let before = rawBytes(bitmap.surface)
        let mask = [UInt8](repeating: 0, count: 10 * 6)
        mask.withUnsafeBufferPointer { canvas.drawMask($0.baseAddress!, width: 10, height: 6, pitch: 10, x: 1, y: 1, color: .white) }
        #expect(rawBytes(bitmap.surface) == before)
    }

    // Rule: partial coverage m gives d' = MUL(s, m) + MUL(d, 255 − MUL(sa, m)) per channel, exactly.
    @Test func partialMaskIsRoundedSrcOver() throws {
        let (bitmap, canvas) = try makeCanvas(8, 1, .argb8888)
        let d: [UInt32] = [0xFFFF_FFFF, 0xFF00_0000, 0x8040_2010, 0, 0xFF12_3456, 0xC0A0_8060, 0x0101_0101, 0xFFFF_0000]
        for x in 0..<8 { bitmap.surface.row32(0)[x] = d[x] }
        let m: [UInt8] = [128, 1, 254, 77, 200, 33, 255, 64]
        let color = Color(r: 0.9, g: 0.3, b: 0.6, a: 0.8)
        let s = color.premultiplied.argb
        m.withUnsafeBufferPointer { canvas.drawMask($0.baseAddress!, width: 8, height: 1, pitch: 8, x: 0, y: 0, color: color) }
        for x in 0..<8 {
            let mm = UInt32(m[x])
            let ia = 255 - Blend.mul(s >> 24, mm)
            var expected: UInt32 = 0
            for shift: UInt32 in [0, 8, 16, 24] {
                expected |= (Blend.mul((s >> shift) & 0xFF, mm) + Blend.mul((d[x] >> shift) & 0xFF, ia)) << shift
            }
            #expect(bitmap.surface.pixel(x: x, y: 0) == expected, "x = \(x), m = \(mm)")
        }
    }

    // Rule: a mask clipped at the canvas edge uses the right mask bytes (offset by the clipped columns,
    // rows `pitch` apart), the same as the unclipped draw.
    @Test func clippedMaskUsesRightBytes() throws {
        var rng = SplitMix64(seed: 76)
        let pitch = 12, w = 9, h = 5
        let mask = (0..<(pitch * h)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let (big, bc) = try makeCanvas(20, 12, .argb8888)
        let (small, sc) = try makeCanvas(14, 9, .argb8888)  // sees big's (4…17, 3…11)
        mask.withUnsafeBufferPointer {
            bc.drawMask($0.baseAddress!, width: w, height: h, pitch: pitch, x: 1, y: 1, premultiplied: 0xFF33_66CC)
            sc.drawMask($0.baseAddress!, width: w, height: h, pitch: pitch, x: -3, y: -2, premultiplied: 0xFF33_66CC)
        }
        for y in 0..<9 { for x in 0..<14 { #expect(small.surface.pixel(x: x, y: y) == big.surface.pixel(x: x + 4, y: y + 3)) } }
        #expect(sc.damage.rects == [IntRect(x: 0, y: 0, width: 6, height: 3)])
    }
}
