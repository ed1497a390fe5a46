@testable import KioskRaster
import Testing

/// One kind of canvas draw.
enum DrawOp: String, CaseIterable, Sendable {
    case fillOpaquePath, fillTranslucentPath, fillRect, fillTranslucentRect, fillLinear, fillRadial, fillImagePaint,
         clear, drawMask, copy, copyDim, drawImageExact, drawImageScaled, blur, arcBand

    /// Draws this op onto `c` (48 × 40), using `source` (same format) for copies.
    func apply(_ c: Canvas, _ f: Fixtures, source: Surface) {
        switch self {
        case .fillOpaquePath: c.fill(.circle(center: Point(20.3, 17.6), radius: 9.2), .solid(Color(rgb: 0xCC2211)))
        case .fillTranslucentPath:
            c.fill(.roundedRect(Rect(x: 3.5, y: 5.25, width: 33, height: 21.5), radius: 7), .solid(Color(white: 0, a: 0.7)))
        case .fillRect: c.fill(IntRect(x: 4, y: 6, width: 21, height: 9), .solid(Color(rgb: 0x00FF00)))
        case .fillTranslucentRect: c.fill(IntRect(x: 3, y: 6, width: 30, height: 9), .solid(Color(white: 1, a: 0.3)))
        case .fillLinear:
            c.fill(.arc(center: Point(24, 20), radius: 13, lineWidth: 4, start: 0, sweep: 4, cap: .round),
                   .linear(LinearGradient(start: Point(10, 0), end: Point(40, 30),
                                          stops: [GradientStop(0, Color(rgb: 0xFF0000)), GradientStop(1, Color(rgb: 0x0000FF, a: 0.5))])))
        case .fillRadial:
            c.fill(IntRect(x: 10, y: 4, width: 25, height: 30),
                   .radial(RadialGradient(center: Point(22, 19), radius: 10,
                                          stops: [GradientStop(0, .white), GradientStop(1, Color(white: 0, a: 0.2))])))
        case .fillImagePaint: c.fill(.pie(center: Point(20, 20), radius: 10, start: 1, sweep: 3), .image(f.image, originX: 15, originY: 14))
        case .clear: c.clear(IntRect(x: 30, y: 2, width: 14, height: 30), to: Color(rgb: 0x123456, a: 0.5))
        case .drawMask:
            f.mask.withUnsafeBufferPointer {
                c.drawMask($0.baseAddress!, width: 9, height: 7, pitch: 9, x: 40, y: 35, color: Color(rgb: 0xFFEE00))
            }
        case .copy: c.copy(from: source, rect: IntRect(x: 6, y: 9, width: 19, height: 13))
        case .copyDim: c.copy(from: source, rect: IntRect(x: 1, y: 2, width: 30, height: 20), dim: Color(white: 0, a: 0.4))
        case .drawImageExact: c.draw(f.image, in: Rect(x: 12, y: 30, width: 8, height: 6))
        case .drawImageScaled: c.draw(f.image, in: Rect(x: 30.25, y: 3.5, width: 17.5, height: 12.75), opacity: 0.7)
        case .blur: c.blur(IntRect(x: 8, y: 8, width: 30, height: 25), radius: 3)
        case .arcBand:
            c.fillArcBand(center: Point(22.4, 18.7), inner: 6, outer: 11, start: 2, sweep: -4.5, color: Color(rgb: 0x88FF00, a: 0.75))
        }
    }

    /// Whether this op runs a translucent SrcOver span of ≥ 8 pixels through Blend.overSpan's SIMD body.
    var usesSIMDOverSpan: Bool { self == .fillTranslucentPath || self == .fillTranslucentRect || self == .copyDim }
}

@Suite("Damage")
struct DamageTests {
    // Rule: every draw adds a damage rectangle containing every pixel it changed, and nothing outside the clip.
    @Test(arguments: DrawOp.allCases, [nil, IntRect(x: 9, y: 7, width: 20, height: 15)])
    func drawDamageContainsEveryChangedPixel(_ op: DrawOp, _ clip: IntRect?) throws {
        for format in [PixelFormat.argb8888, .rgb565] {
            let (bitmap, canvas) = try makeCanvas(48, 40, format)
            let (source, _) = try makeCanvas(48, 40, format)
            fillRandom(bitmap.surface, seed: 31)
            fillRandom(source.surface, seed: 32)
            if let clip { canvas.clip = clip }
            let before = pixels(bitmap.surface)
            op.apply(canvas, Fixtures(), source: source.surface)
            let after = pixels(bitmap.surface)
            var changed = 0, missed: [(Int, Int)] = []
            for y in 0..<40 {
                for x in 0..<48 where before[y * 48 + x] != after[y * 48 + x] {
                    changed += 1
                    if !canvas.damage.contains(x: x, y: y) { missed.append((x, y)) }
                }
            }
            if clip == nil { #expect(changed > 0, "\(op) changed nothing") }
            #expect(missed.isEmpty, "\(op) on \(format): changed pixels outside the damage, first \(missed.prefix(3))")
            #expect(canvas.clip.contains(canvas.damage.bounds))
        }
    }

    // Rule: damage accumulates across draws until removed; draws that change nothing add nothing.
    @Test func damageAccumulatesAndResets() throws {
        let f = Fixtures()
        let (bitmap, canvas) = try makeCanvas(48, 40)
        let (source, _) = try makeCanvas(48, 40)
        fillRandom(source.surface, seed: 33)
        let before = pixels(bitmap.surface)
        for op in DrawOp.allCases { op.apply(canvas, f, source: source.surface) }
        let after = pixels(bitmap.surface)
        for i in before.indices where before[i] != after[i] { #expect(canvas.damage.contains(x: i % 48, y: i / 48)) }
        canvas.damage.removeAll()
        #expect(canvas.damage.isEmpty)
        canvas.fill(.rect(Rect(x: 2, y: 2, width: 5, height: 5)), .solid(.clear))
        canvas.fill(IntRect(x: 2, y: 2, width: 5, height: 5), .solid(.white), opacity: 0)
        canvas.blur(IntRect(x: 0, y: 0, width: 10, height: 10), radius: 0)
        canvas.fill(.rect(Rect(x: 60, y: 2, width: 5, height: 5)), .solid(.white))
        #expect(canvas.damage.isEmpty)
    }

    // Rule: a fill's damage is the clipped bounding box of its path, in whole pixels.
    @Test func fillDamageIsClippedBoundingBox() throws {
        let (bitmap, canvas) = try makeCanvas(40, 30)
        defer { withExtendedLifetime(bitmap) {} }
        canvas.fill(.circle(center: Point(10.5, 10.5), radius: 4.2), .solid(.white))
        #expect(canvas.damage.rects == [IntRect(x: 6, y: 6, width: 9, height: 9)])
        canvas.damage.removeAll()
        canvas.fill(.rect(Rect(x: -5, y: 25.5, width: 10, height: 10)), .solid(.white))
        #expect(canvas.damage.rects == [IntRect(x: 0, y: 25, width: 5, height: 5)])
    }

    // Rule: overlapping rectangles merge into their union.
    @Test func overlappingRectsMerge() {
        var d = DamageRegion()
        d.add(IntRect(x: 0, y: 0, width: 10, height: 10))
        d.add(IntRect(x: 5, y: 5, width: 10, height: 10))
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 15, height: 15)])
        d.add(IntRect(x: 2, y: 2, width: 3, height: 3))  // already inside
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 15, height: 15)])
        d.add(IntRect(x: -10, y: -10, width: 40, height: 40))  // contains it
        #expect(d.rects == [IntRect(x: -10, y: -10, width: 40, height: 40)])
    }

    // Rule: adjacent rectangles merge when the union wastes no more than a quarter of itself.
    @Test func adjacentRectsMergeCheaply() {
        var d = DamageRegion()
        d.add(IntRect(x: 0, y: 0, width: 10, height: 10))
        d.add(IntRect(x: 10, y: 0, width: 10, height: 10))
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 20, height: 10)])
        var e = DamageRegion([IntRect(x: 0, y: 0, width: 10, height: 10), IntRect(x: 12, y: 1, width: 10, height: 10)])
        #expect(e.rects == [IntRect(x: 0, y: 0, width: 22, height: 11)])
        e.add(IntRect(x: 200, y: 200, width: 1, height: 1))
        #expect(e.rects.count == 2)
    }

    // Rule: far-apart rectangles stay separate; a merge can cascade into a third rectangle.
    @Test func disjointRectsStaySeparate() {
        var d = DamageRegion()
        d.add(IntRect(x: 0, y: 0, width: 10, height: 10))
        d.add(IntRect(x: 100, y: 100, width: 10, height: 10))
        #expect(d.rects.count == 2)
        #expect(d.area == 200)
        #expect(d.bounds == IntRect(x: 0, y: 0, width: 110, height: 110))
        #expect(d.contains(x: 5, y: 5) && d.contains(x: 105, y: 105) && !d.contains(x: 50, y: 50))
        d.add(IntRect(x: 5, y: 5, width: 100, height: 100))  // bridges both
        #expect(d.rects == [IntRect(x: 0, y: 0, width: 110, height: 110)])
    }

    // Rule: past maxRects rectangles everything collapses into the bounding box.
    @Test(arguments: [16, 4, 1])
    func collapsesPastMaxRects(_ maxRects: Int) {
        var d = DamageRegion()
        d.maxRects = maxRects
        for i in 0..<maxRects { d.add(IntRect(x: i * 20, y: 0, width: 2, height: 2)) }
        #expect(d.rects.count == maxRects)
        d.add(IntRect(x: maxRects * 20, y: 0, width: 2, height: 2))
        #expect(d.rects == [IntRect(x: 0, y: 0, width: maxRects * 20 + 2, height: 2)])
    }

    // Rule: empty rectangles (zero or negative size) are ignored.
    @Test func emptyRectsIgnored() {
        var d = DamageRegion()
        d.add(.zero)
        d.add(IntRect(x: 5, y: 5, width: 0, height: 10))
        d.add(IntRect(x: 5, y: 5, width: 10, height: -3))
        #expect(d.isEmpty && d.area == 0 && d.bounds == .zero)
        d.add(DamageRegion([IntRect(x: 1, y: 1, width: -1, height: 1)]))
        #expect(d.isEmpty)
    }

    // Rule: clipped(to:) keeps only the parts inside the clip (dropping rectangles outside it).
    @Test func clippedToRect() {
        let d = DamageRegion([IntRect(x: 0, y: 0, width: 10, height: 10), IntRect(x: 100, y: 100, width: 10, height: 10)])
        #expect(d.clipped(to: IntRect(x: 5, y: 5, width: 50, height: 50)).rects == [IntRect(x: 5, y: 5, width: 5, height: 5)])
        #expect(d.clipped(to: IntRect(x: 20, y: 20, width: 5, height: 5)).isEmpty)
        #expect(d.clipped(to: IntRect(x: -1000, y: -1000, width: 5000, height: 5000)).rects == d.rects)
    }

    // Rule: clipping a region keeps its maxRects setting (the region stays equal to itself when the
    // clip covers it).
    @Test func clippedKeepsMaxRects() {
        var d = DamageRegion()
        d.maxRects = 3
        d.add(IntRect(x: 0, y: 0, width: 4, height: 4))
        let c = d.clipped(to: IntRect(x: 0, y: 0, width: 100, height: 100))
        #expect(c.maxRects == 3)
        #expect(c == d)
    }

    // Rule: after any sequence of adds the rectangles are disjoint, at most maxRects, and cover every added pixel.
    @Test func randomAddsStayDisjointAndCovering() {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<40 {
            var d = DamageRegion()
            d.maxRects = Int.random(in: 1...8, using: &rng)
            var added: [IntRect] = []
            for _ in 0..<Int.random(in: 1...25, using: &rng) {
                let r = IntRect(x: Int.random(in: -5...60, using: &rng), y: Int.random(in: -5...60, using: &rng),
                                width: Int.random(in: -2...12, using: &rng), height: Int.random(in: -2...12, using: &rng))
                d.add(r)
                added.append(r)
            }
            #expect(d.rects.count <= d.maxRects)
            for i in d.rects.indices {
                for j in d.rects.indices where i < j { #expect(!d.rects[i].intersects(d.rects[j])) }
            }
            for r in added where !r.isEmpty { #expect(d.rects.contains { $0.contains(r) } || r.isEmpty || covers(d, r)) }
            #expect(d.area <= d.bounds.area)
        }
    }
}

/// Every pixel of `r` lies in some rectangle of `d`.
private func covers(_ d: DamageRegion, _ r: IntRect) -> Bool {
    for y in r.minY..<r.maxY { for x in r.minX..<r.maxX where !d.contains(x: x, y: y) { return false } }
    return true
}
