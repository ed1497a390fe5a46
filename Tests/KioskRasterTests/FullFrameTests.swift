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
}
