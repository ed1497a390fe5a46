import Glibc
@testable import KioskRaster
import Testing

/// Exact area of the disc (c, r) inside pixel (px, py), by fine numerical integration over x.
private func discCoverage(_ c: Point, _ r: Double, _ px: Int, _ py: Int) -> Double {
    let n = 400
    var a = 0.0
    for i in 0..<n {
        let x = Double(px) + (Double(i) + 0.5) / Double(n) - c.x
        let h = max(0, r * r - x * x).squareRoot()
        a += max(0, min(Double(py) + 1, c.y + h) - max(Double(py), c.y - h))
    }
    return a / Double(n)
}

@Suite("Analytic ring band (fillArcBand)")
struct ArcBandTests {
    static let center = Point(20.3, 19.6)

    // Rule: a full ring band is the exact ring area per pixel within a few levels (centre-distance
    // ramp; ≤ 12/255 on diagonal edges) and within 0.5 % in total.
    @Test func fullRingMatchesExactArea() throws {
        let (bitmap, canvas) = try makeCanvas(40, 40, .xrgb8888)
        canvas.clear(to: .black)
        canvas.fillArcBand(center: Self.center, inner: 9, outer: 14, color: .white)
        var worst = 0.0, total = 0.0
        for y in 0..<40 {
            for x in 0..<40 {
                let exact = (discCoverage(Self.center, 14, x, y) - discCoverage(Self.center, 9, x, y)) * 255
                let got = Double(channel(bitmap.surface.pixel(x: x, y: y), 0))
                worst = max(worst, abs(got - exact))
                total += got
            }
        }
        let ideal = Double.pi * (14 * 14 - 9 * 9) * 255
        #expect(worst <= 12, "worst pixel off by \(worst)/255")
        #expect(abs(total - ideal) <= 0.005 * ideal)
    }

    // Rule: an arc band equals the full ring away from its cut lines, leaves the rest of the ring
    // alone, and a negative sweep is the same band as the positive sweep that ends where it starts.
    @Test func arcBandIsTheRingCutByTwoLines() throws {
        let (ring, rc) = try makeCanvas(40, 40, .argb8888)
        let (arc, ac) = try makeCanvas(40, 40, .argb8888)
        let (neg, nc) = try makeCanvas(40, 40, .argb8888)
        let color = Color(rgb: 0x33CC99, a: 0.9)
        rc.fillArcBand(center: Self.center, inner: 9, outer: 14, color: color)
        ac.fillArcBand(center: Self.center, inner: 9, outer: 14, start: -.pi / 2, sweep: 4, color: color)
        nc.fillArcBand(center: Self.center, inner: 9, outer: 14, start: -.pi / 2 + 4, sweep: -4, color: color)
        #expect(pixels(arc.surface) == pixels(neg.surface))
        for y in 0..<40 {
            for x in 0..<40 {
                let px = Double(x) + 0.5 - Self.center.x, py = Double(y) + 0.5 - Self.center.y
                // Angle from 12 o'clock, clockwise, in 0..<2π.
                var t = Glibc.atan2(py, px) + .pi / 2
                if t < 0 { t += 2 * .pi }
                let d = (px * px + py * py).squareRoot()
                let margin = 1.5 / max(d, 1)
                if t > margin && t < 4 - margin {
                    #expect(arc.surface.pixel(x: x, y: y) == ring.surface.pixel(x: x, y: y), "(\(x),\(y)) inside")
                } else if t > 4 + margin && t < 2 * .pi - margin {
                    #expect(arc.surface.pixel(x: x, y: y) == 0, "(\(x),\(y)) outside")
                }
            }
        }
    }

    // Rule: the band writes X = 0xFF on XRGB, stays in the clip, reports its clipped box as damage, and
    // ignores degenerate input.
    @Test func bandClipDamageAndDegenerates() throws {
        let (bitmap, canvas) = try makeCanvas(40, 40, .xrgb8888)
        canvas.clear(to: Color(rgb: 0x102030))
        canvas.damage.removeAll()
        let before = rawBytes(bitmap.surface)
        canvas.withClip(IntRect(x: 0, y: 0, width: 22, height: 40)) {
            canvas.fillArcBand(center: Self.center, inner: 9, outer: 14, color: Color(white: 1, a: 0.5))
        }
        #expect(canvas.damage.rects == [IntRect(x: 6, y: 5, width: 16, height: 29)])
        let after = rawBytes(bitmap.surface)
        for y in 0..<40 {
            for x in 0..<40 {
                let i = y * bitmap.surface.stride + x * 4
                #expect(after[i + 3] == 0xFF)
                if x >= 22 { #expect(after[i..<(i + 4)] == before[i..<(i + 4)]) }
            }
        }
        canvas.damage.removeAll()
        canvas.fillArcBand(center: Self.center, inner: 14, outer: 9, color: .white)
        canvas.fillArcBand(center: Self.center, inner: 2, outer: .infinity, color: .white)
        canvas.fillArcBand(center: Point(.nan, 3), inner: 2, outer: 5, color: .white)
        canvas.fillArcBand(center: Self.center, inner: 2, outer: 5, sweep: 0, color: .white)
        canvas.fillArcBand(center: Self.center, inner: 2, outer: 5, sweep: .nan, color: .white)
        canvas.fillArcBand(center: Self.center, inner: 2, outer: 5, color: .clear)
        #expect(rawBytes(bitmap.surface) == after)
        #expect(canvas.damage.isEmpty)
    }
}
