@testable import KioskRaster
import Testing

/// Canvases whose rows are padded to an odd number of pixels: 37 px wide, rows of 41 (32-bit) or
/// 39 (RGB565) pixels, so no row starts on a SIMD boundary and widths are not multiples of 8 or 16.
private func oddCanvas(_ format: PixelFormat, height: Int = 5) throws -> (Bitmap, Canvas) {
    let pitch = format == .rgb565 ? 39 : 41
    return try makeCanvas(37, height, format, stride: pitch * format.bytesPerPixel)
}

/// The rectangles the tests draw: a whole odd-width row, and ones starting at odd columns.
private let rects = [IntRect(x: 0, y: 0, width: 37, height: 5), IntRect(x: 3, y: 1, width: 33, height: 3),
                     IntRect(x: 5, y: 2, width: 9, height: 2), IntRect(x: 1, y: 0, width: 17, height: 4)]

/// What the scalar path writes for a solid colour `s` over `count` pixels of row `y` from `x`
/// (Row32/Row16.fill before the SIMD kernels).
private func scalarFill(_ surface: Surface, _ y: Int, _ x: Int, _ count: Int, _ s: UInt32) {
    switch surface.format {
    case .xrgb8888, .argb8888:
        let or: UInt32 = surface.format == .xrgb8888 ? 0xFF00_0000 : 0
        let p = surface.row32(y) + x
        if s >> 24 == 255 { p.update(repeating: s | or, count: count) } else if s != 0 {
            Blend.overSpanScalar(p, p, count, s, opaqueOr: or)
        }
    case .rgb565:
        let p = surface.row16(y) + x
        if s >> 24 == 255 { p.update(repeating: Blend.pack565(s), count: count) } else if s != 0 {
            Blend.over565SpanScalar(p, p, count, s)
        }
    }
}

@Suite("Full-frame paths against the scalar path")
struct FullFrameTests {
    // Rule: a solid fill of a rectangle (the dim) equals the scalar fill byte for byte, for every
    // alpha 0…255, on XRGB8888, ARGB8888 and RGB565, odd widths, odd strides and odd start columns.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func solidFillEqualsScalar(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 21)
        var bad: [String] = []
        for a in 0...255 {
            let colour = Color(r: Double.random(in: 0...1, using: &rng), g: Double.random(in: 0...1, using: &rng),
                               b: Double.random(in: 0...1, using: &rng), a: Double(a) / 255)
            let black = Color(white: 0, a: Double(a) / 255)
            for (k, r) in rects.enumerated() {
                let c = k % 2 == 0 ? colour : black
                let (fast, cf) = try oddCanvas(format), (ref, _) = try oddCanvas(format)
                fillRandom(fast.surface, seed: UInt64(a * 8 + k)); fillRandom(ref.surface, seed: UInt64(a * 8 + k))
                cf.fill(r, .solid(c))
                let s = c.premultiplied.argb
                for y in r.minY..<r.maxY { scalarFill(ref.surface, y, r.minX, r.width, s) }
                if rawBytes(fast.surface) != rawBytes(ref.surface) { bad.append("alpha \(a) rect \(r)") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: the blit + dim in one pass equals a plain copy followed by the scalar fill, for every
    // alpha, every format, odd widths and strides.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func blitDimEqualsCopyThenScalarFill(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 22)
        var bad: [String] = []
        let (source, _) = try oddCanvas(format)
        fillRandom(source.surface, seed: 99)
        for a in 0...255 {
            let dim = Color(r: Double.random(in: 0...1, using: &rng), g: 0, b: Double.random(in: 0...1, using: &rng),
                            a: Double(a) / 255)
            for (k, r) in rects.enumerated() {
                let c = k == 1 ? Color(white: 0, a: Double(a) / 255) : dim
                let (fast, cf) = try oddCanvas(format), (ref, cr) = try oddCanvas(format)
                fillRandom(fast.surface, seed: 5); fillRandom(ref.surface, seed: 5)
                cf.copy(from: source.surface, rect: r, dim: c)
                cr.copy(from: source.surface, rect: r)
                for y in r.minY..<r.maxY { scalarFill(ref.surface, y, r.minX, r.width, c.premultiplied.argb) }
                if rawBytes(fast.surface) != rawBytes(ref.surface) { bad.append("alpha \(a) rect \(r)") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: the opaque two-stop linear gradient computed four pixels per step equals the scalar
    // per-pixel evaluation bit for bit: for many directions (steep, flat, reversed, a point — both
    // ends equal — and NaN ends), start columns and run lengths, on rows far from the origin too.
    @Test func linearGradientEqualsScalar() throws {
        var rng = SplitMix64(seed: 23)
        var out = [UInt32](repeating: 0, count: 1300), ref = out
        var bad: [String] = []
        for k in 0..<400 {
            func coord() -> Double { Double.random(in: -300...1500, using: &rng) }
            var start = Point(coord(), coord()), end = Point(coord(), coord())
            if k % 50 == 1 { end = start }
            if k % 50 == 2 { end = Point(.nan, 3) }
            if k % 50 == 3 { end = Point(start.x + 1e-9, start.y) }
            if k % 50 == 4 { start = Point(0, 0); end = Point(800, 480) }
            func stop() -> Color {
                Color(r: Double.random(in: 0...1, using: &rng), g: Double.random(in: 0...1, using: &rng),
                      b: Double.random(in: 0...1, using: &rng))
            }
            let g = LinearGradient(start: start, end: end, stops: [GradientStop(0, stop()), GradientStop(1, stop())])
            let shader = try #require(Shader(.linear(g), opacity: 1))
            #expect(shader.isOpaque)
            let x = Int.random(in: -50...900, using: &rng), y = Int.random(in: -50...1100, using: &rng)
            let n = Int.random(in: 0...1299, using: &rng)
            out.withUnsafeMutableBufferPointer { shader.shade(x: x, y: y, count: n, into: $0.baseAddress!) }
            ref.withUnsafeMutableBufferPointer { shader.shadeScalar(x: x, y: y, count: n, into: $0.baseAddress!) }
            if out.prefix(n) != ref.prefix(n) { bad.append("gradient \(g) x \(x) y \(y) n \(n)") }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(2))")
    }

    // Rule: only the opaque two-stop linear gradient takes the direct path: a translucent stop, a
    // third stop, stops not at 0 and 1, an opacity, a radial gradient or an image do not.
    @Test func onlyOpaqueLinearIsOpaque() throws {
        let a = Color(rgb: 0x102030), b = Color(rgb: 0xF0E0D0)
        func linear(_ stops: [GradientStop]) -> Paint { .linear(LinearGradient(start: Point(0, 0), end: Point(9, 4), stops: stops)) }
        #expect(try #require(Shader(linear([GradientStop(0, a), GradientStop(1, b)]), opacity: 1)).isOpaque)
        #expect(try !#require(Shader(linear([GradientStop(0, a), GradientStop(1, b)]), opacity: 0.99)).isOpaque)
        #expect(try !#require(Shader(linear([GradientStop(0, a), GradientStop(1, b.withOpacity(0.9))]), opacity: 1)).isOpaque)
        #expect(try !#require(Shader(linear([GradientStop(0, a), GradientStop(0.5, b), GradientStop(1, a)]), opacity: 1)).isOpaque)
        #expect(try !#require(Shader(linear([GradientStop(0.1, a), GradientStop(1, b)]), opacity: 1)).isOpaque)
        #expect(try !#require(Shader(.radial(RadialGradient(center: Point(3, 3), radius: 4, stops: [GradientStop(0, a), GradientStop(1, b)])),
                                     opacity: 1)).isOpaque)
        #expect(try !#require(Shader(.image(makeImage(3, 3, seed: 1, opaque: true), originX: 0, originY: 0), opacity: 1)).isOpaque)
    }

    // Rule: a gradient fill of a rectangle or a path equals the scalar shading blended by the scalar
    // span (SrcOver, X byte set), on every format, odd widths and strides — the opaque gradient
    // written straight into the row included.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func gradientFillEqualsScalar(_ format: PixelFormat) throws {
        let opaque = LinearGradient(start: Point(-3, 1), end: Point(40, 9),
                                    stops: [GradientStop(0, Color(rgb: 0x1A4D99)), GradientStop(1, Color(rgb: 0xF2A633))])
        let translucent = LinearGradient(start: Point(2, 0), end: Point(30, 5),
                                         stops: [GradientStop(0, Color(rgb: 0xFF0000, a: 0.3)), GradientStop(1, Color(rgb: 0x00FF00))])
        let radial = RadialGradient(center: Point(18, 2), radius: 20, stops: [GradientStop(0, .clear), GradientStop(1, Color(white: 0, a: 0.75))])
        for (paint, opacity) in [(Paint.linear(opaque), 1.0), (.linear(opaque), 0.6), (.linear(translucent), 1.0), (.radial(radial), 0.8)] {
            for r in rects {
                let (fast, cf) = try oddCanvas(format), (ref, _) = try oddCanvas(format)
                fillRandom(fast.surface, seed: 31); fillRandom(ref.surface, seed: 31)
                cf.fill(r, paint, opacity: opacity)
                let shader = try #require(Shader(paint, opacity: opacity))
                var row = [UInt32](repeating: 0, count: r.width)
                for y in r.minY..<r.maxY {
                    row.withUnsafeMutableBufferPointer { shader.shadeScalar(x: r.minX, y: y, count: r.width, into: $0.baseAddress!) }
                    row.withUnsafeBufferPointer { src in
                        switch format {
                        case .rgb565: Blend.blend565SpanScalar(ref.surface.row16(y) + r.minX, src.baseAddress!, r.width, coverage: 255)
                        default: Blend.blendSpanScalar(ref.surface.row32(y) + r.minX, src.baseAddress!, r.width, coverage: 255,
                                                       opaqueOr: format == .xrgb8888 ? 0xFF00_0000 : 0)
                        }
                    }
                }
                #expect(rawBytes(fast.surface) == rawBytes(ref.surface), "\(format) \(paint) opacity \(opacity) rect \(r)")
                // A path covering whole pixels of the same rectangle draws the same.
                let (path, cp) = try oddCanvas(format)
                fillRandom(path.surface, seed: 31)
                cp.fill(Path.rect(r.rect), paint, opacity: opacity)
                #expect(rawBytes(path.surface) == rawBytes(ref.surface), "path: \(format) \(paint) rect \(r)")
            }
        }
    }
}
