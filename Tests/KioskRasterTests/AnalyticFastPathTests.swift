@testable import KioskRaster
import Testing

/// A canvas 45 px wide with rows padded to an odd pixel count (49 for 32-bit, 47 for RGB565), filled
/// with the same random pixels every time.
private func oddCanvas(_ format: PixelFormat, seed: UInt64) throws -> (Bitmap, Canvas) {
    let pitch = format == .rgb565 ? 47 : 49
    let (b, c) = try makeCanvas(45, 30, format, stride: pitch * format.bytesPerPixel)
    fillRandom(b.surface, seed: seed)
    return (b, c)
}

@Suite("Analytic fast paths against their per-pixel versions")
struct AnalyticFastPathTests {
    // Rule: fillRoundedRect (coverage four pixel centres per step, zones in a fixed buffer) draws
    // exactly what the per-pixel version draws: random rectangles at fractional positions, radii from
    // 0 to a pill, with and without an inner shape (a border) and a cut, partly clipped, on every
    // format, for every alpha 0…255.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func roundedRectEqualsPerPixel(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 41)
        var bad: [String] = []
        for a in 0...255 {
            let x = Double.random(in: -6...20, using: &rng), y = Double.random(in: -4...12, using: &rng)
            let w = Double.random(in: 0.5...40, using: &rng), h = Double.random(in: 0.5...24, using: &rng)
            let r = [0, 1.5, 5, min(w, h) / 2, Double.random(in: 0...12, using: &rng)][a % 5]
            let outer = RoundedRectShape(Rect(x: x, y: y, width: w, height: h), radius: r)
            let bw = [1.0, 2, 0.7][a % 3]
            let inner = a % 4 == 0 ? nil
                : RoundedRectShape(Rect(x: x + bw, y: y + bw, width: w - 2 * bw, height: h - 2 * bw), radius: max(0, r - bw))
            let maxX = a % 3 == 0 ? Double.infinity : x + Double.random(in: 0...w, using: &rng)
            let color = Color(r: Double.random(in: 0...1, using: &rng), g: Double.random(in: 0...1, using: &rng),
                              b: Double.random(in: 0...1, using: &rng), a: Double(a) / 255)
            let (fast, cf) = try oddCanvas(format, seed: UInt64(a)), (ref, cr) = try oddCanvas(format, seed: UInt64(a))
            if a % 7 == 0 { cf.clip = IntRect(x: 3, y: 2, width: 30, height: 20); cr.clip = cf.clip }
            cf.fillRoundedRect(outer, minus: inner, maxX: maxX, color: color)
            cr.fillRoundedRectReference(outer, minus: inner, maxX: maxX, color: color)
            if rawBytes(fast.surface) != rawBytes(ref.surface) || cf.damage != cr.damage {
                bad.append("alpha \(a): \(outer) minus \(String(describing: inner)) maxX \(maxX)")
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(2))")
    }

    // Rule: a single rounded rectangle without a cut (the bezel) reuses its first straight row's
    // coverage on the other straight rows and still draws what the per-pixel version draws: tall
    // rectangles at fractional positions, radius 0 and fractions of a pixel included.
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func straightRowsReusedExactly(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 43)
        var bad: [String] = []
        for k in 0..<120 {
            let x = Double.random(in: -3...10, using: &rng).rounded(k % 3 == 0 ? .down : .toNearestOrEven) + [0, 0.5, 0.25, 0.999][k % 4]
            let y = Double.random(in: -3...5, using: &rng) + [0, 0.5, 0.1][k % 3]
            let w = Double.random(in: 1...40, using: &rng), h = Double.random(in: 4...30, using: &rng)
            let radius = [0, 0.3, 5, 1e-9, Double.random(in: 0...8, using: &rng)][k % 5]
            let shape = RoundedRectShape(Rect(x: x, y: y, width: w, height: h), radius: radius)
            let color = Color(r: 0.9, g: 0.4, b: 0.1, a: Double(k % 17) / 16)
            let (fast, cf) = try oddCanvas(format, seed: UInt64(k)), (ref, cr) = try oddCanvas(format, seed: UInt64(k))
            cf.fillRoundedRect(shape, color: color)
            cr.fillRoundedRectReference(shape, color: color)
            if rawBytes(fast.surface) != rawBytes(ref.surface) { bad.append("\(shape)") }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(2))")
    }

    // Rule: rows that mirror a row above (shapes at whole and half pixels: the bar, the button, the
    // bezel's corners) reuse its coverage and still draw what the per-pixel version draws: pills,
    // borders, cuts and plain rounded rectangles at whole and half-pixel positions and sizes, on a
    // canvas wide and tall enough that the kept rows run out (more than 64 rows, 8192 values).
    @Test(arguments: [PixelFormat.xrgb8888, .argb8888, .rgb565])
    func mirroredRowsReusedExactly(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 53)
        var bad: [String] = []
        for k in 0..<96 {
            let half = { (v: Double) in (v * 2).rounded() / 2 }
            let big = k % 8 == 0
            let x = half(Double.random(in: -4...(big ? 20 : 30), using: &rng)), y = half(Double.random(in: -3...(big ? 5 : 14), using: &rng))
            let w = half(big ? Double.random(in: 200...310, using: &rng) : Double.random(in: 2...60, using: &rng))
            let h = half(big ? Double.random(in: 70...95, using: &rng) : Double.random(in: 2...26, using: &rng))
            let r = [min(w, h) / 2, 5, 0, half(Double.random(in: 0...10, using: &rng))][k % 4]
            let outer = RoundedRectShape(Rect(x: x, y: y, width: w, height: h), radius: r)
            let bw = [1.0, 2, 0.5][k % 3]
            let inner = k % 3 == 0 ? nil
                : RoundedRectShape(Rect(x: x + bw, y: y + bw, width: w - 2 * bw, height: h - 2 * bw), radius: max(0, r - bw))
            let maxX = k % 5 == 0 ? x + half(Double.random(in: 0...w, using: &rng)) : .infinity
            let color = Color(r: 0.2, g: 0.7, b: 0.95, a: Double(k * 37 % 256) / 255)
            let pitch = format == .rgb565 ? 321 : 323
            let (fast, cf) = try makeCanvas(320, 100, format, stride: pitch * format.bytesPerPixel)
            let (ref, cr) = try makeCanvas(320, 100, format, stride: pitch * format.bytesPerPixel)
            fillRandom(fast.surface, seed: UInt64(k)); fillRandom(ref.surface, seed: UInt64(k))
            cf.fillRoundedRect(outer, minus: inner, maxX: maxX, color: color)
            cr.fillRoundedRectReference(outer, minus: inner, maxX: maxX, color: color)
            if rawBytes(fast.surface) != rawBytes(ref.surface) || cf.damage != cr.damage {
                bad.append("\(outer) minus \(String(describing: inner)) maxX \(maxX)")
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(2))")
    }

    // Rule: the lane-wise min, max and abs choose exactly as the standard library's, signed zeros,
    // infinities and NaN included.
    @Test func lanesMatchStandardLibrary() {
        let values: [Double] = [0, -0.0, 1, -1, 0.5, .infinity, -.infinity, .nan, 1e-300, -3.25]
        for a in values {
            for b in values {
                let va = SIMD4<Double>(repeating: a), vb = SIMD4<Double>(repeating: b)
                #expect(Lanes.min(va, vb)[0].bitPattern == min(a, b).bitPattern, "min(\(a), \(b))")
                #expect(Lanes.max(va, vb)[0].bitPattern == max(a, b).bitPattern, "max(\(a), \(b))")
            }
            #expect(Lanes.abs(SIMD4(repeating: a))[0].bitPattern == abs(a).bitPattern, "abs(\(a))")
        }
    }

    // Rule: Lanes.floor is ⌊x⌋ for every x in 0…2^31 it is used on: whole numbers, halves, values an
    // ulp either side of them, and random values.
    @Test func lanesFloorIsFloor() {
        var rng = SplitMix64(seed: 42)
        var xs: [Double] = []
        for k in 0...600 {
            let v = Double(k) / 2
            xs += [v, v.nextUp, v.nextDown, v + 0.25]
        }
        xs += (0..<5_000).map { _ in Double.random(in: 0...300, using: &rng) }
        xs += [2_147_483_647.5, 1e9 + 0.5, 0]
        var bad: [Double] = []
        for x in xs where x >= 0 {
            let f = Lanes.floor(SIMD4(repeating: x))[0] & 0xFFFF_FFFF
            if f != UInt64(x.rounded(.down)) { bad.append(x) }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(5))")
    }
}
