@testable import KioskRaster
import Testing

/// Opaque white over black on XRGB8888: the blue channel of each pixel is its coverage.
private func whiteOnBlack(_ path: Path, width: Int, height: Int) throws -> (Int, Int) -> Int {
    let (bitmap, canvas) = try makeCanvas(width, height, .xrgb8888)
    canvas.clear(to: .black)
    canvas.fill(path, .solid(.white))
    let px = pixels(bitmap.surface)
    return { x, y in channel(px[y * width + x], 0) }
}

/// Overlap of [p, p + 1] with [lo, hi].
private func overlap(_ p: Int, _ lo: Double, _ hi: Double) -> Double {
    max(0, min(Double(p) + 1, hi) - max(Double(p), lo))
}

private let clip48 = IntRect(x: 0, y: 0, width: 48, height: 48)
/// Area a polygon flattened at `Path.tolerance` may lose against the true curve of length `length`
/// (chords inside the curve: at most ⅔ · sagitta · length).
private func flatteningSlack(_ length: Double) -> Double { 2.0 / 3 * Path.tolerance * length }

@Suite("Exact-area coverage")
struct CoverageTests {
    // Rule: a rectangle's pixels are covered by exactly their overlap area (0.75 and 0.25 edges, 255 inside).
    @Test func fractionalRectEdges() throws {
        let at = try whiteOnBlack(.rect(Rect(x: 10.25, y: 4.75, width: 10.5, height: 7.5)), width: 32, height: 20)
        for y in 0..<20 {
            for x in 0..<32 {
                let expected = overlap(x, 10.25, 20.75) * overlap(y, 4.75, 12.25) * 255
                #expect(abs(Double(at(x, y)) - expected) <= 1, "pixel (\(x),\(y))")
            }
        }
        #expect(at(15, 8) == 255)
        #expect(abs(at(10, 8) - 191) <= 1 && abs(at(20, 8) - 191) <= 1)  // 0.75 · 255
        #expect(abs(at(15, 4) - 64) <= 1 && abs(at(15, 12) - 64) <= 1)   // 0.25 · 255
    }

    // Rule: a 1-px strip on a half-pixel boundary covers two pixels by half each, nothing else.
    @Test func halfPixelStrip() throws {
        let at = try whiteOnBlack(.rect(Rect(x: 10.5, y: 0, width: 1, height: 8)), width: 24, height: 8)
        for y in 0..<8 {
            for x in 0..<24 {
                if x == 10 || x == 11 {
                    #expect(abs(Double(at(x, y)) - 127.5) <= 1, "pixel (\(x),\(y))")
                } else {
                    #expect(at(x, y) == 0, "pixel (\(x),\(y))")
                }
            }
        }
    }

    // Rule: each pixel's coverage is its exact area inside the polygon (±1/255), for random triangles
    // and star-shaped polygons of both orientations.
    @Test(arguments: 0..<12)
    func randomPolygonsMatchExactArea(_ seed: Int) {
        var rng = SplitMix64(seed: UInt64(100 + seed))
        let n = seed < 4 ? 3 : Int.random(in: 4...11, using: &rng)
        let cx = Double.random(in: 8...16, using: &rng), cy = Double.random(in: 8...16, using: &rng)
        var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }.sorted()
        if seed % 2 == 1 { angles.reverse() }
        let pts = angles.map { a -> Point in
            let r = Double.random(in: 2...11, using: &rng), sc = sinCos(a)
            return Point(cx + r * sc.cos, cy + r * sc.sin)
        }
        var path = Path()
        path.addPolygon(pts)
        let clip = IntRect(x: 0, y: 0, width: 24, height: 24)
        let sink = coverage(of: path, clip: clip)
        #expect(sink.violations == 0)
        var worst = 0.0
        for y in 0..<24 { for x in 0..<24 { worst = max(worst, abs(Double(sink.at(x, y)) - exactCoverage([pts], x, y) * 255)) } }
        #expect(worst <= 1, "worst pixel is off by \(worst)/255")
    }

    // Rule: the rasterizer is exact: a circle's summed coverage equals its polygon's area (0.1 %),
    // and the polygon loses no more than the flattening tolerance allows against π·r².
    @Test func circleAreaWithinFlatteningTolerance() {
        let path = Path.circle(center: Point(16.3, 15.7), radius: 10)
        let sink = coverage(of: path, clip: clip48)
        #expect(sink.violations == 0)
        #expect(abs(sink.area - polygonArea(path)) <= 0.001 * polygonArea(path))
        let ideal = Double.pi * 100
        #expect(sink.area <= ideal + 0.5)
        #expect(sink.area >= ideal - flatteningSlack(2 * .pi * 10) - 0.5)
    }

    // Rule (brief): a circle r = 10 covers π·100·255 within 0.5 %. The arc flattening puts every vertex
    // on the circle (inscribed polygon, sagitta ≈ 0.093 px), so the disc comes out ≈ 1.2 % small.
    @Test func circleAreaWithinHalfPercent() {
        let sink = coverage(of: .circle(center: Point(16.3, 15.7), radius: 10), clip: clip48)
        let ideal = Double.pi * 100
        #expect(abs(sink.area - ideal) <= 0.005 * ideal, "area \(sink.area) vs \(ideal)")
    }

    // Rule: an annulus covers π(r1² − r0²) (its inner contour is a hole), and its centre is empty.
    @Test func annulusArea() {
        let path = Path.annulus(center: Point(20.5, 19.25), inner: 8, outer: 14)
        let sink = coverage(of: path, clip: clip48)
        #expect(sink.violations == 0)
        #expect(abs(sink.area - polygonArea(path)) <= 0.001 * polygonArea(path))
        let ideal = Double.pi * (14 * 14 - 8 * 8)
        #expect(sink.area >= ideal - flatteningSlack(2 * .pi * 14) - 0.5)
        #expect(sink.area <= ideal + flatteningSlack(2 * .pi * 8) + 0.5)
        #expect(abs(sink.area - ideal) <= 0.01 * ideal)
        #expect(sink.at(20, 19) == 0)
        #expect(sink.at(20, 19 - 11) == 255)
    }

    // Rule: an arc sweeping a full turn (either way) is exactly the annulus of its stroke.
    @Test(arguments: [2 * Double.pi, -2 * Double.pi, 7.0])
    func fullArcIsAnnulus(_ sweep: Double) {
        let arc = coverage(of: .arc(center: Point(20.5, 19.25), radius: 11, lineWidth: 6, start: 0.3, sweep: sweep,
                                    cap: .round), clip: clip48)
        let ring = coverage(of: .annulus(center: Point(20.5, 19.25), inner: 8, outer: 14), clip: clip48)
        #expect(arc.values == ring.values)
    }

    // Rule: round caps add a half disc (radius lineWidth/2) at each end; square caps a half square.
    @Test(arguments: [1.0, -1.0])
    func arcCapsAddTheirArea(_ direction: Double) {
        func area(_ cap: LineCap) -> Double {
            let s = coverage(of: .arc(center: Point(24.3, 23.6), radius: 14, lineWidth: 8, start: -.pi / 2,
                                      sweep: direction * 3 * .pi / 4, cap: cap), clip: clip48)
            #expect(s.violations == 0)
            return s.area
        }
        let butt = area(.butt), round = area(.round), square = area(.square)
        let hw = 4.0
        // The butt stroke: a ring sector (outer chords lose area, inner chords gain it).
        let sector = 3 * Double.pi / 8 * (18 * 18 - 10 * 10)
        #expect(butt >= sector - flatteningSlack(18 * 3 * .pi / 4) - 0.5)
        #expect(butt <= sector + flatteningSlack(10 * 3 * .pi / 4) + 0.5)
        // Two half discs.
        #expect(round - butt <= Double.pi * hw * hw + 0.5)
        #expect(round - butt >= Double.pi * hw * hw - flatteningSlack(2 * .pi * hw) - 0.5)
        // Two half squares: lineWidth × hw each.
        #expect(abs(square - butt - 2 * 8 * hw) <= 0.5)
    }

    // Rule: a pie of sweep π covers half the disc.
    @Test func halfPie() {
        let r = 12.0
        let pie = coverage(of: .pie(center: Point(20.2, 19.6), radius: r, start: 0.4, sweep: .pi), clip: clip48)
        let disc = coverage(of: .circle(center: Point(20.2, 19.6), radius: r), clip: clip48)
        #expect(pie.violations == 0)
        let ideal = Double.pi * r * r / 2
        #expect(pie.area <= ideal + 0.5)
        #expect(pie.area >= ideal - flatteningSlack(.pi * r) - 0.5)
        #expect(abs(pie.area - disc.area / 2) <= 0.01 * ideal)
        #expect(coverage(of: .pie(center: Point(20, 20), radius: r, start: 0, sweep: 0), clip: clip48).area == 0)
    }

    // Rule: a polyline stroke with round caps covers its capsule (L·w + π(w/2)²); butt is the bare
    // rectangle, square caps lengthen it by w/2 at each end.
    @Test func polylineCapsuleArea() {
        let pts = [Point(10, 16), Point(40, 16)]
        func area(_ cap: LineCap) -> Double {
            let s = coverage(of: .polyline(pts, width: 8, cap: cap), clip: clip48)
            #expect(s.violations == 0)
            return s.area
        }
        let capsule = 30 * 8 + Double.pi * 16
        let round = area(.round)
        #expect(round <= capsule + 0.5)
        #expect(round >= capsule - flatteningSlack(2 * .pi * 4) - 0.5)
        #expect(abs(area(.butt) - 240) <= 0.01)
        #expect(abs(area(.square) - 38 * 8) <= 0.01)
    }

    // Rule: a polyline with a bend joins round, stays within w/2 of its segments and covers its centreline.
    @Test func polylineJoinCoversCentreline() {
        let pts = [Point(6.5, 30.2), Point(20.3, 8.7), Point(38.1, 28.4)]
        let s = coverage(of: .polyline(pts, width: 5, cap: .round), clip: clip48)
        #expect(s.violations == 0)
        func distanceToPolyline(_ x: Double, _ y: Double) -> Double {
            var d = Double.infinity
            for i in 0..<(pts.count - 1) {
                let a = pts[i], b = pts[i + 1]
                let dx = b.x - a.x, dy = b.y - a.y
                let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)))
                let ex = a.x + t * dx - x, ey = a.y + t * dy - y
                d = min(d, (ex * ex + ey * ey).squareRoot())
            }
            return d
        }
        for y in 0..<48 {
            for x in 0..<48 {
                let d = distanceToPolyline(Double(x) + 0.5, Double(y) + 0.5)
                if d > 2.5 + 0.75 { #expect(s.at(x, y) == 0, "(\(x),\(y)) is \(d) px away") }
                if d < 2.5 - 0.85 { #expect(s.at(x, y) == 255, "(\(x),\(y)) is \(d) px away") }
            }
        }
    }

    // Rule: overlapping contours of the same orientation fill their union: coverage never exceeds 255
    // and a translucent fill is blended once in the overlap.
    @Test func sameOrientationOverlapIsUnion() throws {
        var path = Path()
        path.addRoundedRect(Rect(x: 4.5, y: 3.25, width: 16, height: 10), radii: CornerRadii(0))
        path.addRoundedRect(Rect(x: 12.25, y: 6.5, width: 16, height: 10), radii: CornerRadii(0))
        path.append(.circle(center: Point(16, 10), radius: 5))
        let s = coverage(of: path, clip: clip48)
        #expect(s.violations == 0)
        #expect(s.at(16, 10) == 255 && s.at(14, 8) == 255)
        // Union area: 160 + 160 − overlap (8.25 × 6.75); the circle lies inside the union. Pixels
        // where two contours' edges both pass count their areas added, so allow a little over.
        let union = 320 - 8.25 * 6.75
        #expect(s.area >= union - 0.01 && s.area <= union + 1, "area \(s.area) vs \(union)")

        let (bitmap, canvas) = try makeCanvas(32, 20, .xrgb8888)
        canvas.clear(to: .white)
        canvas.fill(path, .solid(Color(white: 0, a: 0.5)))
        #expect(bitmap.surface.pixel(x: 6, y: 5) == bitmap.surface.pixel(x: 16, y: 10))
        #expect(bitmap.surface.pixel(x: 16, y: 10) == 0xFF7F_7F7F)
    }

    // Rule: an inner contour of opposite orientation cuts a hole; the same orientation does not.
    @Test func oppositeOrientationCutsHole() {
        var holed = Path(), solid = Path()
        holed.addRoundedRect(Rect(x: 4, y: 4, width: 24, height: 20), radii: CornerRadii(0))
        holed.addRoundedRect(Rect(x: 10.5, y: 9.5, width: 8, height: 6), radii: CornerRadii(0), clockwise: false)
        solid.addRoundedRect(Rect(x: 4, y: 4, width: 24, height: 20), radii: CornerRadii(0))
        solid.addRoundedRect(Rect(x: 10.5, y: 9.5, width: 8, height: 6), radii: CornerRadii(0))
        let h = coverage(of: holed, clip: clip48), s = coverage(of: solid, clip: clip48)
        #expect(h.violations == 0 && s.violations == 0)
        #expect(abs(h.area - (480 - 48)) <= 0.1)  // half-pixel edges round 127.5 up
        #expect(abs(s.area - 480) <= 0.01)
        #expect(h.at(14, 12) == 0 && s.at(14, 12) == 255)
        #expect(abs(Int(h.at(10, 12)) - 128) <= 1)  // half the pixel is hole
        // A border is the same thing: outer minus inset rectangle.
        let border = coverage(of: .border(Rect(x: 4, y: 4, width: 24, height: 24), radii: CornerRadii(0), width: 3),
                              clip: clip48)
        #expect(abs(border.area - (576 - 324)) <= 0.01)
    }

    // Rule: rounded-rect radii are clamped to half the shorter side (a pill), NaN radii count as 0,
    // and each corner loses (1 − π/4)·r².
    @Test func roundedRectRadii() {
        let r = Rect(x: 4.5, y: 6, width: 30, height: 12)
        let pill = coverage(of: .pill(r), clip: clip48)
        let huge = coverage(of: .roundedRect(r, radius: 1e6), clip: clip48)
        #expect(pill.values == huge.values)
        let ideal = 18 * 12 + Double.pi * 36
        #expect(abs(pill.area - ideal) <= flatteningSlack(2 * .pi * 6) + 0.5)
        let nanRadius = coverage(of: .roundedRect(r, radius: .nan), clip: clip48)
        #expect(nanRadius.values == coverage(of: .rect(r), clip: clip48).values)
        let mixed = Path.roundedRect(Rect(x: 4, y: 4, width: 30, height: 30),
                                     radii: CornerRadii(topLeft: 10, topRight: 0, bottomRight: 5, bottomLeft: 0))
        let m = coverage(of: mixed, clip: clip48)
        let expected: Double = 900 - (1 - Double.pi / 4) * 125
        #expect(abs(m.area - expected) <= flatteningSlack(.pi / 2 * 15) + 0.5)
        #expect(m.at(33, 4) == 255 && m.at(4, 33) == 255 && m.at(4, 4) == 0)
    }

    // Rule: a centred stroke of width w around a sharp rectangle covers outer minus inner rectangle,
    // the outer corners rounded by w/2 (round joins).
    @Test func strokeArea() {
        let s = coverage(of: .stroke(Rect(x: 8, y: 8, width: 20, height: 14), radii: CornerRadii(0), width: 2), clip: clip48)
        let ideal = 22 * 16 - 4 * (1 - Double.pi / 4) - 18 * 12
        #expect(abs(s.area - ideal) <= flatteningSlack(2 * .pi) + 0.5, "area \(s.area)")
        #expect(s.at(8, 8) == 255 && s.at(9, 9) == 0 && s.at(7, 8) == 255)
    }

    // Rule: clipped(maxX:) keeps exactly the part of each contour left of x.
    @Test func clippedMaxX() {
        let full = Path.rect(Rect(x: 4, y: 4, width: 30, height: 10))
        let s = coverage(of: full.clipped(maxX: 14.25), clip: clip48)
        #expect(abs(s.area - 102.5) <= 0.05)
        #expect(full.clipped(maxX: 2).isEmpty)
        let ring = Path.annulus(center: Point(20, 20), inner: 5, outer: 10).clipped(maxX: 20)
        #expect(abs(coverage(of: ring, clip: clip48).area - polygonArea(ring)) <= 0.01 * polygonArea(ring))
    }

    // Rule: every span lies inside the clip and no pixel is reported twice, for random self-crossing
    // polygons crossing every clip edge.
    @Test func spansStayInClipAndNeverRepeat() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<30 {
            var path = Path()
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                path.addPolygon((0..<Int.random(in: 3...9, using: &rng)).map { _ in
                    Point(Double.random(in: -10...40, using: &rng), Double.random(in: -10...40, using: &rng))
                })
            }
            let clip = IntRect(x: Int.random(in: 0...10, using: &rng), y: Int.random(in: 0...10, using: &rng),
                               width: Int.random(in: 1...20, using: &rng), height: Int.random(in: 1...20, using: &rng))
            #expect(coverage(of: path, clip: clip).violations == 0)
        }
    }

    // Rule: Path geometry helpers: bounds, offset, scale, orientation of addPolygon(clockwise:).
    @Test func pathHelpers() {
        let p = Path.rect(Rect(x: 2, y: 3, width: 10, height: 5))
        #expect(p.bounds == Rect(x: 2, y: 3, width: 10, height: 5))
        #expect(p.offsetBy(dx: 1.5, dy: -1).bounds == Rect(x: 3.5, y: 2, width: 10, height: 5))
        #expect(p.scaled(2, about: Point(2, 3)).bounds == Rect(x: 2, y: 3, width: 20, height: 10))
        #expect(Path().bounds.isEmpty && Path().isEmpty)
        var q = Path()
        q.addPolygon([Point(0, 0), Point(0, 10), Point(10, 0)], clockwise: true)
        #expect(signedArea(contours(q)[0]) > 0)
        q.addPolygon([Point(0, 0), Point(10, 0), Point(0, 10)], clockwise: false)
        #expect(signedArea(contours(q)[1]) < 0)
        var tooFew = Path()
        tooFew.addPolygon([Point(0, 0), Point(1, 1)])
        #expect(tooFew.isEmpty)
    }
}
