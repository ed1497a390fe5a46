@testable import KioskRaster
import Testing

struct LinearCase: Sendable, CustomTestStringConvertible {
    let start: Point, end: Point
    var testDescription: String { "(\(start.x),\(start.y))→(\(end.x),\(end.y))" }
}

@Suite("Paint")
struct PaintTests {
    // Rule: an opaque two-stop linear gradient at pixel centres is floor(c0 + (c1 − c0)·t + 0.5) per channel,
    // t = ((x + ½ − sx)·dx + (y + ½ − sy)·dy)/(dx² + dy²), padded with the end colours beyond both ends.
    @Test(arguments: [LinearCase(start: Point(0, 0), end: Point(30, 20)), LinearCase(start: Point(0, 0), end: Point(40, 0)),
                      LinearCase(start: Point(0, 0), end: Point(0, 25)), LinearCase(start: Point(44, 30), end: Point(7, 3))],
          [false, true])
    func opaqueTwoStopLinearMatchesFormula(_ g: LinearCase, _ viaPath: Bool) throws {
        let c0 = (r: 255.0, g: 200.0, b: 20.0), c1 = (r: 0.0, g: 10.0, b: 220.0)
        let paint = Paint.linear(LinearGradient(start: g.start, end: g.end, stops: [
            GradientStop(0, Color(r: c0.r / 255, g: c0.g / 255, b: c0.b / 255)),
            GradientStop(1, Color(r: c1.r / 255, g: c1.g / 255, b: c1.b / 255)),
        ]))
        let (bitmap, canvas) = try makeCanvas(48, 32, .xrgb8888)
        if viaPath {
            canvas.fill(.rect(Rect(x: 0, y: 0, width: 48, height: 32)), paint)
        } else {
            canvas.fill(IntRect(x: 0, y: 0, width: 48, height: 32), paint)
        }
        let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
        var bad: [(Int, Int)] = []
        for y in 0..<32 {
            for x in 0..<48 {
                var t = ((Double(x) + 0.5 - g.start.x) * dx + (Double(y) + 0.5 - g.start.y) * dy) / (dx * dx + dy * dy)
                t = min(1, max(0, t))
                let p = bitmap.surface.pixel(x: x, y: y)
                // floor(v); where v is an exact tie (x.5 before the + 0.5) float rounding may go either way.
                func ok(_ a: Double, _ b: Double, _ got: Int) -> Bool {
                    let v = a + (b - a) * t + 0.5
                    if abs(v - v.rounded()) < 1e-9 { return got == Int(v.rounded()) || got == Int(v.rounded()) - 1 }
                    return got == Int(v.rounded(.down))
                }
                if !(p >> 24 == 0xFF && ok(c0.r, c1.r, channel(p, 16)) && ok(c0.g, c1.g, channel(p, 8))
                     && ok(c0.b, c1.b, channel(p, 0))) { bad.append((x, y)) }
            }
        }
        #expect(bad.isEmpty, "\(bad.count) pixels differ, first \(bad.prefix(4))")
    }

    // Rule: a radial gradient is the first stop at its centre, the last stop at and beyond its radius.
    @Test func radialCentreAndOutside() throws {
        let (bitmap, canvas) = try makeCanvas(32, 32, .argb8888)
        let inner = Color(rgb: 0xFF8000), outer = Color(rgb: 0x0040FF, a: 0.5)
        canvas.fill(IntRect(x: 0, y: 0, width: 32, height: 32),
                    .radial(RadialGradient(center: Point(10.5, 12.5), radius: 8,
                                           stops: [GradientStop(0, inner), GradientStop(1, outer)])))
        #expect(bitmap.surface.pixel(x: 10, y: 12) == inner.premultiplied.argb)
        let outerPixel = bitmap.surface.pixel(x: 31, y: 31)
        #expect(channelDistance(outerPixel, outer.premultiplied.argb) <= 1)
        for y in 0..<32 {
            for x in 0..<32 {
                let dx = Double(x) - 10, dy = Double(y) - 12
                if dx * dx + dy * dy >= 64 { #expect(bitmap.surface.pixel(x: x, y: y) == outerPixel, "(\(x),\(y))") }
            }
        }
        // Halfway out, the colour is halfway (the alpha channel: 255 → 128).
        #expect(abs(channel(bitmap.surface.pixel(x: 14, y: 12), 24) - 191) <= 1)
    }

    // Rule: a multi-stop gradient is exactly the middle stop's colour at the middle stop's offset, in
    // either stop order, and the end stops beyond the ends.
    @Test(arguments: [false, true])
    func multiStopHitsMiddleStop(_ shuffled: Bool) throws {
        let red = Color(rgb: 0xFF0000), green = Color(rgb: 0x00FF00, a: 0.6), blue = Color(rgb: 0x0000FF)
        var stops = [GradientStop(0.2, red), GradientStop(0.5, green), GradientStop(0.8, blue)]
        if shuffled { stops = [stops[2], stops[0], stops[1]] }
        let (bitmap, canvas) = try makeCanvas(48, 4, .argb8888)
        // Start −0.5, end 40.5 → pixel x has t = (x + 1)/41: x = 19.5 is t = 0.5… use x = 20 with end 41.
        canvas.fill(IntRect(x: 0, y: 0, width: 48, height: 4),
                    .linear(LinearGradient(start: Point(0, 0), end: Point(41, 0), stops: stops)))
        let greenPremul = Color(rgb: 0x00FF00, a: 0.6)
        let g8 = Blend.mul(255, UInt32((0.6 * 255 + 0.5).rounded(.down)))
        #expect(bitmap.surface.pixel(x: 20, y: 2) == UInt32((0.6 * 255 + 0.5).rounded(.down)) << 24 | g8 << 8)
        #expect(channelDistance(bitmap.surface.pixel(x: 20, y: 2), greenPremul.premultiplied.argb) <= 1)
        #expect(bitmap.surface.pixel(x: 0, y: 0) == red.premultiplied.argb)   // t < 0.2: padded
        #expect(bitmap.surface.pixel(x: 5, y: 1) == red.premultiplied.argb)
        #expect(bitmap.surface.pixel(x: 47, y: 3) == blue.premultiplied.argb)
        #expect(bitmap.surface.pixel(x: 40, y: 3) == blue.premultiplied.argb)
    }

    // Rule: gradient opacity scales every pixel by MUL(·, round(opacity·255)).
    @Test func gradientOpacity() throws {
        let g = Paint.linear(LinearGradient(start: Point(0, 0), end: Point(20, 0),
                                            stops: [GradientStop(0, .white), GradientStop(1, Color(rgb: 0x3366CC))]))
        let (full, fc) = try makeCanvas(20, 2, .argb8888)
        let (half, hc) = try makeCanvas(20, 2, .argb8888)
        fc.fill(IntRect(x: 0, y: 0, width: 20, height: 2), g)
        hc.fill(IntRect(x: 0, y: 0, width: 20, height: 2), g, opacity: 0.5)
        for (a, b) in zip(pixels(full.surface), pixels(half.surface)) { #expect(b == Blend.mul4(a, 128)) }
    }

    // Rule: degenerate gradients do not crash: no stops is transparent, one stop is solid, start == end pads.
    @Test func degenerateGradients() throws {
        let (bitmap, canvas) = try makeCanvas(8, 2, .argb8888)
        canvas.fill(IntRect(x: 0, y: 0, width: 8, height: 2), .linear(LinearGradient(start: Point(0, 0), end: Point(8, 0), stops: [])))
        #expect(pixels(bitmap.surface).allSatisfy { $0 == 0 })
        canvas.fill(IntRect(x: 0, y: 0, width: 8, height: 1),
                    .radial(RadialGradient(center: Point(0, 0), radius: 0, stops: [GradientStop(0.3, Color(rgb: 0x112233))])))
        #expect(bitmap.surface.pixel(x: 5, y: 0) == 0xFF11_2233)
        canvas.fill(IntRect(x: 0, y: 1, width: 8, height: 1),
                    .linear(LinearGradient(start: Point(3, 3), end: Point(3, 3),
                                           stops: [GradientStop(0, .black), GradientStop(.nan, .white), GradientStop(1, .white)])))
        #expect(bitmap.surface.pixel(x: 5, y: 1) == 0xFF00_0000)
    }

    // Rule: .image paint places the bitmap unscaled with its top-left at the origin, transparent outside.
    @Test(arguments: [PixelFormat.argb8888, .xrgb8888])
    func imagePaintPlacesBitmap(_ format: PixelFormat) throws {
        let img = makeImage(8, 6, seed: 61, opaque: false)
        let (bitmap, canvas) = try makeCanvas(24, 16, format)
        fillRandom(bitmap.surface, seed: 62)
        let before = pixels(bitmap.surface)
        canvas.fill(IntRect(x: 0, y: 0, width: 24, height: 16), .image(img, originX: 5, originY: 3))
        for y in 0..<16 {
            for x in 0..<24 {
                let d = before[y * 24 + x]
                let inside = x >= 5 && x < 13 && y >= 3 && y < 9
                let expected = inside ? Blend.over(img.surface.pixel(x: x - 5, y: y - 3), d) : d
                #expect(bitmap.surface.pixel(x: x, y: y) == expected | (format == .xrgb8888 ? 0xFF00_0000 : 0), "(\(x),\(y))")
            }
        }
    }

    // Rule: .image paint through a path is the image times the path's coverage; opaque over anything copies.
    @Test func imagePaintThroughPath() throws {
        let img = makeImage(10, 10, seed: 63, opaque: true)
        let (bitmap, canvas) = try makeCanvas(16, 16, .argb8888)
        fillRandom(bitmap.surface, seed: 64)
        canvas.fill(.rect(Rect(x: 2, y: 2, width: 10, height: 10)), .image(img, originX: 2, originY: 2))
        for y in 0..<10 { for x in 0..<10 { #expect(bitmap.surface.pixel(x: x + 2, y: y + 2) == img.surface.pixel(x: x, y: y)) } }
        let (b2, c2) = try makeCanvas(16, 16, .argb8888)
        c2.fill(.rect(Rect(x: 2.5, y: 2, width: 4, height: 4)), .image(img, originX: 2, originY: 2))
        #expect(b2.surface.pixel(x: 2, y: 3) == Blend.mul4(img.surface.pixel(x: 0, y: 1), 128))
    }
}
