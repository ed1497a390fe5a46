@testable import KioskRaster
import Testing

@Suite("Copy")
struct CopyTests {
    // Rule: copy(from:rect:dim:) is byte-for-byte a plain copy followed by a solid fill of the dim colour,
    // for every width (SIMD groups of eight plus the scalar tail) and start column.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888], [1, 5, 7, 8, 9, 15, 16, 17, 23, 24, 31, 40])
    func copyDimEqualsCopyThenFill(_ format: PixelFormat, _ width: Int) throws {
        for (x0, dim) in [(0, Color(white: 0, a: 0.4)), (3, Color(rgb: 0x3366FF, a: 0.55)), (5, Color(white: 0)),
                          (2, Color(white: 1, a: 0.02))] {
            let (source, _) = try makeCanvas(48, 6, format)
            let (a, ca) = try makeCanvas(48, 6, format)
            let (b, cb) = try makeCanvas(48, 6, format)
            fillRandom(source.surface, seed: UInt64(100 + width))
            fillRandom(a.surface, seed: 7); fillRandom(b.surface, seed: 7)
            let r = IntRect(x: x0, y: 1, width: width, height: 4)
            ca.copy(from: source.surface, rect: r, dim: dim)
            cb.copy(from: source.surface, rect: r)
            cb.fill(r, .solid(dim))
            #expect(rawBytes(a.surface) == rawBytes(b.surface), "x0 \(x0), width \(width)")
            #expect(ca.damage == cb.damage)
            // And per pixel it is SrcOver of the dim colour on the source.
            let s = dim.premultiplied.argb
            for y in 0..<6 {
                for x in 0..<48 where r.contains(x: x, y: y) {
                    var expected = Blend.over(s, source.surface.pixel(x: x, y: y))
                    if format == .xrgb8888 { expected |= 0xFF00_0000 }
                    #expect(a.surface.pixel(x: x, y: y) == expected)
                }
            }
        }
    }

    // Rule: RGB565 copy with dim is the copy followed by the dim fill too.
    @Test(arguments: [1, 8, 13])
    func rgb565CopyDim(_ width: Int) throws {
        let (source, _) = try makeCanvas(20, 4, .rgb565)
        let (a, ca) = try makeCanvas(20, 4, .rgb565)
        let (b, cb) = try makeCanvas(20, 4, .rgb565)
        fillRandom(source.surface, seed: 101)
        let r = IntRect(x: 2, y: 0, width: width, height: 3)
        ca.copy(from: source.surface, rect: r, dim: Color(white: 0, a: 0.5))
        cb.copy(from: source.surface, rect: r)
        cb.fill(r, .solid(Color(white: 0, a: 0.5)))
        #expect(rawBytes(a.surface) == rawBytes(b.surface))
    }

    // Rule: copy without dim (or with a fully transparent dim) copies the bytes of the rect, clipped, and
    // nothing else.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func plainCopyCopiesRectOnly(_ format: PixelFormat) throws {
        let (source, _) = try makeCanvas(30, 10, format)
        let (dest, canvas) = try makeCanvas(30, 10, format)
        fillRandom(source.surface, seed: 102)
        fillRandom(dest.surface, seed: 103)
        let before = pixels(dest.surface)
        canvas.clip = IntRect(x: 0, y: 0, width: 25, height: 10)
        canvas.copy(from: source.surface, rect: IntRect(x: 4, y: -3, width: 40, height: 8))
        canvas.copy(from: source.surface, rect: IntRect(x: 0, y: 8, width: 3, height: 2), dim: .clear)
        let copied1 = IntRect(x: 4, y: 0, width: 21, height: 5), copied2 = IntRect(x: 0, y: 8, width: 3, height: 2)
        for y in 0..<10 {
            for x in 0..<30 {
                let inside = copied1.contains(x: x, y: y) || copied2.contains(x: x, y: y)
                #expect(dest.surface.pixel(x: x, y: y) == (inside ? source.surface.pixel(x: x, y: y) : before[y * 30 + x]))
            }
        }
        #expect(canvas.damage.rects.contains(copied1) && canvas.damage.rects.contains(copied2))
    }

    // Rule: copying from a source with a different stride reads each source row at its own stride.
    @Test func copyBetweenStrides() throws {
        let (source, _) = try makeCanvas(13, 7, .argb8888, stride: 13 * 4 + 20)
        let (dest, canvas) = try makeCanvas(13, 7, .argb8888, stride: 13 * 4)
        fillRandom(source.surface, seed: 104)
        canvas.copy(from: source.surface, dim: Color(white: 0, a: 0.25))
        for y in 0..<7 {
            for x in 0..<13 {
                #expect(dest.surface.pixel(x: x, y: y) == Blend.over(Color(white: 0, a: 0.25).premultiplied.argb,
                                                                      source.surface.pixel(x: x, y: y)))
            }
        }
    }
}
