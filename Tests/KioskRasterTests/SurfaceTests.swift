@testable import KioskRaster
import KioskTestSupport
import Testing

@Suite("Surfaces and pixel formats")
struct SurfaceTests {
    // Rule: a stride wider than the row (e.g. 37 px XRGB with stride 37·4 + 24) draws the same pixels
    // as a packed bitmap and never writes the padding bytes between rows.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565], [(37, 21), (48, 40)])
    func paddedStrideDrawsSamePixelsAndKeepsPadding(_ format: PixelFormat, _ size: (Int, Int)) throws {
        let (w, h) = size
        let bpp = format.bytesPerPixel
        let f = Fixtures()
        let (packed, packedCanvas) = try makeCanvas(w, h, format, stride: w * bpp)
        let (padded, paddedCanvas) = try makeCanvas(w, h, format, stride: w * bpp + 24)
        let (source, _) = try makeCanvas(w, h, format, stride: w * bpp + 8)
        fillRandom(source.surface, seed: 51)
        let s = padded.surface
        for y in 0..<h { (s.base + y * s.stride + w * bpp).initializeMemory(as: UInt8.self, repeating: 0xA5, count: 24) }
        for (bitmap, canvas) in [(packed, packedCanvas), (padded, paddedCanvas)] {
            canvas.copy(from: source.surface, rect: IntRect(x: 0, y: 0, width: w, height: h), dim: Color(white: 0, a: 0.3))
            drawScene(canvas, f, blur: true)
            canvas.fillArcBand(center: Point(18.5, 10.5), inner: 4, outer: 9, start: 1, sweep: 3, color: Color(rgb: 0xFF00FF, a: 0.7))
            canvas.blur(bitmap.surface.bounds, radius: 1)
        }
        #expect(pixels(packed.surface) == pixels(padded.surface))
        var touched = 0
        for y in 0..<h {
            for i in 0..<24 where (s.base + y * s.stride + w * bpp + i).load(as: UInt8.self) != 0xA5 { touched += 1 }
        }
        #expect(touched == 0, "padding bytes written")
    }

    // Rule: every XRGB8888 draw writes 0xFF in the X byte of each pixel it touches.
    @Test(arguments: DrawOp.allCases)
    func xrgbWritesFFInXByte(_ op: DrawOp) throws {
        let (bitmap, canvas) = try makeCanvas(48, 40, .xrgb8888)
        let (source, _) = try makeCanvas(48, 40, .xrgb8888)
        canvas.clear(to: Color(rgb: 0x204060))  // X = 0xFF everywhere
        fillRandom(source.surface, seed: 52)
        op.apply(canvas, Fixtures(), source: source.surface)
        let bytes = rawBytes(bitmap.surface)
        var bad: [(Int, Int)] = []
        for y in 0..<40 { for x in 0..<48 where bytes[y * bitmap.surface.stride + x * 4 + 3] != 0xFF { bad.append((x, y)) } }
        #expect(bad.isEmpty, "\(op): \(bad.count) pixels with X ≠ 0xFF, first \(bad.prefix(3))")
    }

    // Rule: on a zeroed XRGB8888 bitmap, pixels a draw leaves alone keep X = 0 and the ones it writes get 0xFF.
    @Test func xrgbFreshBitmapXByte() throws {
        let (bitmap, canvas) = try makeCanvas(16, 4, .xrgb8888)
        canvas.fill(.rect(Rect(x: 2.5, y: 0, width: 10, height: 4)), .solid(Color(white: 0, a: 0.5)))
        let bytes = rawBytes(bitmap.surface)
        for x in 0..<16 {
            #expect(bytes[x * 4 + 3] == (x >= 2 && x <= 12 ? 0xFF : 0), "x = \(x)")
            #expect(bitmap.surface.pixel(x: x, y: 0) >> 24 == 0xFF)  // XRGB reads as opaque
        }
    }

    // Rule: ARGB8888 keeps premultiplied alpha: untouched transparent pixels stay 0, translucent draws
    // give alpha sa + MUL(da, 255 − sa), and no colour channel ever exceeds alpha.
    @Test func argbKeepsPremultipliedAlpha() throws {
        let (bitmap, canvas) = try makeCanvas(48, 40, .argb8888)
        drawScene(canvas, Fixtures(), blur: true)
        let px = pixels(bitmap.surface)
        #expect(px[39 * 48 + 47] == 0 && px[0] == 0)
        #expect(px.allSatisfy { p in channel(p, 16) <= channel(p, 24) && channel(p, 8) <= channel(p, 24) && channel(p, 0) <= channel(p, 24) })

        let (b2, c2) = try makeCanvas(8, 2, .argb8888)
        c2.fill(IntRect(x: 0, y: 0, width: 8, height: 2), .solid(Color(white: 1, a: 0.5)))
        #expect(b2.surface.pixel(x: 3, y: 1) == 0x8080_8080)
        c2.fill(IntRect(x: 0, y: 0, width: 4, height: 1), .solid(Color(white: 0, a: 0.5)))
        let expectedAlpha = 128 + Blend.mul(128, 127)
        #expect(b2.surface.pixel(x: 1, y: 0) == expectedAlpha << 24 | Blend.mul(128, 127) * 0x01_0101)
        c2.clear(IntRect(x: 6, y: 0, width: 2, height: 2))
        #expect(b2.surface.pixel(x: 7, y: 1) == 0)
    }

    // Rule: an RGB565 scene equals the XRGB8888 scene quantised to 565: every channel within one 565
    // level (±8 in 8 bits; adjacent 5-bit levels expand 8 or 9 apart, e.g. 0x18 → 0x21), opaque.
    @Test func rgb565MatchesQuantisedXRGB() throws {
        let f = Fixtures()
        let (x, xc) = try makeCanvas(48, 40, .xrgb8888)
        let (r, rc) = try makeCanvas(48, 40, .rgb565)
        for c in [xc, rc] {
            c.clear(to: Color(rgb: 0x102030))
            drawScene(c, f, blur: true)
        }
        var worst = 0, worstLevels = 0, exact = 0
        for (p565, p888) in zip(pixels(r.surface), pixels(x.surface)) {
            #expect(p565 >> 24 == 0xFF)
            let q = Blend.expand565(Blend.pack565(p888))
            worst = max(worst, [0, 8, 16].map { abs(channel(p565, UInt32($0)) - channel(q, UInt32($0))) }.max()!)
            let a = Int(Blend.pack565(p565)), b = Int(Blend.pack565(p888))
            worstLevels = max(worstLevels, abs((a >> 11) - (b >> 11)), abs((a >> 5 & 63) - (b >> 5 & 63)), abs((a & 31) - (b & 31)))
            if p565 == q { exact += 1 }
        }
        #expect(worstLevels <= 1, "565 levels differ by \(worstLevels)")
        #expect(worst <= 9, "worst channel difference \(worst)")
        #expect(exact * 4 >= 48 * 40 * 3, "only \(exact) of \(48 * 40) pixels are exactly the quantised XRGB pixel")
    }

    // Rule: sizes that are zero, negative or above 16384 throw invalidSize naming the size.
    @Test(arguments: [(0, 10), (10, 0), (-1, 5), (5, -7), (16385, 1), (1, 16385), (Int.max, 2), (Int.min, Int.min)])
    func invalidSizesThrow(_ w: Int, _ h: Int) throws {
        let e1 = caught(RasterError.self) { _ = try Bitmap(width: w, height: h, format: .xrgb8888) }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { storage.deallocate() }
        let e2 = caught(RasterError.self) { _ = try Surface(base: storage, width: w, height: h, stride: 64, format: .rgb565) }
        for e in [e1, e2] {
            #expect(e == .invalidSize(width: w, height: h))
            let message = String(describing: try #require(e))
            #expect(message.contains("\(w)x\(h)"), "message: \(message)")
            #expect(message.contains("16384"))
        }
    }

    // Rule: 1 and 16384 are valid sizes.
    @Test func extremeValidSizes() throws {
        #expect(try Bitmap(width: 1, height: 1).width == 1)
        #expect(try Bitmap(width: 16384, height: 1, format: .rgb565).width == 16384)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { storage.deallocate() }
        #expect(try Surface(base: storage, width: 16384, height: 16384, stride: 65536, format: .argb8888).height == 16384)
    }

    // Rule: a stride shorter than the row, or not a multiple of the pixel size, throws invalidStride.
    // (Typed here: Swift 6.0's type checker gives up on the literal inside @Test's arguments.)
    static let badStrides: [(PixelFormat, Int)] = [(.xrgb8888, 37 * 4 - 4), (.xrgb8888, 37 * 4 + 2), (.argb8888, 0), (.argb8888, -148),
                                                   (.rgb565, 37 * 2 - 2), (.rgb565, 37 * 2 + 1)]
    @Test(arguments: badStrides)
    func invalidStridesThrow(_ format: PixelFormat, _ stride: Int) throws {
        let e = caught(RasterError.self) { _ = try Bitmap(width: 37, height: 21, format: format, stride: stride) }
        #expect(e == .invalidStride(stride: stride, width: 37, format: format))
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { storage.deallocate() }
        #expect(throws: RasterError.invalidStride(stride: stride, width: 37, format: format)) {
            try Surface(base: storage, width: 37, height: 21, stride: stride, format: format)
        }
        let message = String(describing: try #require(e))
        #expect(message.contains("\(stride)") && message.contains(format.description))
    }

    // Rule: the default stride is the row rounded up to 64 bytes; an explicit exact stride is kept.
    @Test func defaultStride() throws {
        #expect(try Bitmap(width: 37, height: 2, format: .xrgb8888).surface.stride == 192)
        #expect(try Bitmap(width: 16, height: 2, format: .argb8888).surface.stride == 64)
        #expect(try Bitmap(width: 37, height: 2, format: .rgb565).surface.stride == 128)
        #expect(try Bitmap(width: 37, height: 2, format: .xrgb8888, stride: 148).surface.stride == 148)
        #expect(PixelFormat.rgb565.bytesPerPixel == 2 && PixelFormat.argb8888.bytesPerPixel == 4)
    }

    // Rule: a subsurface is clipped to its parent, shares its memory and stride, and is nil when empty.
    @Test func subsurfaceClips() throws {
        let parent = try Bitmap(width: 20, height: 10, format: .argb8888)
        let sub = try #require(parent.surface.subsurface(IntRect(x: -5, y: 3, width: 12, height: 100)))
        #expect(sub.width == 7 && sub.height == 7 && sub.stride == parent.surface.stride)
        #expect(parent.surface.subsurface(IntRect(x: 20, y: 0, width: 5, height: 5)) == nil)
        #expect(parent.surface.subsurface(IntRect(x: 3, y: 3, width: 0, height: 5)) == nil)
        let inner = try #require(parent.surface.subsurface(IntRect(x: 4, y: 2, width: 6, height: 5)))
        let canvas = Canvas(inner)
        canvas.fill(.rect(Rect(x: -10, y: -10, width: 100, height: 100)), .solid(.white))
        canvas.blur(IntRect(x: -3, y: -3, width: 50, height: 50), radius: 2)
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = x >= 4 && x < 10 && y >= 2 && y < 7
                #expect(parent.surface.pixel(x: x, y: y) == (inside ? 0xFFFF_FFFF : 0), "(\(x),\(y))")
            }
        }
        #expect(canvas.damage.bounds == IntRect(x: 0, y: 0, width: 6, height: 5))
    }

    // Rule: straight RGBA bytes premultiply into ARGB8888 and come back unchanged when opaque (PNG path).
    @Test func rgbaRoundTrip() throws {
        var rng = SplitMix64(seed: 53)
        var rgba = (0..<(7 * 5 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = i % 8 == 3 ? 255 : rgba[i] }
        let b = try Bitmap(width: 7, height: 5, rgba: rgba)
        let back = b.rgbaBytes()
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let a = Int(rgba[i + 3])
            #expect(Int(back[i + 3]) == a)
            let p = b.surface.pixel(x: (i / 4) % 7, y: i / 28)
            #expect(channel(p, 16) == Int(Blend.mul(UInt32(rgba[i]), UInt32(a))))
            if a == 255 { #expect(Array(back[i..<(i + 4)]) == Array(rgba[i..<(i + 4)])) }
            if a == 0 { #expect(Array(back[i..<(i + 4)]) == [0, 0, 0, 0]) }
        }
    }
}
