// The reference the fast paths are compared with: `fillRoundedRect` one pixel at a time, as it
// was before the four-pixel coverage and the zone buffers. It lives with the tests, not in
// KioskRaster: nothing ships that only a test calls.
@testable import KioskRaster

extension Canvas {
    /// `fillRoundedRect` one pixel at a time, as it was before the four-pixel coverage and the
    /// zone buffers: the reference the tests compare with.
    func fillRoundedRectReference(_ outer: RoundedRectShape, minus inner: RoundedRectShape? = nil,
                                  maxX: Double = .infinity, color: Color) {
        let o = outer.rect
        guard !o.isEmpty, o.x.isFinite, o.y.isFinite, o.width.isFinite, o.height.isFinite, !maxX.isNaN else { return }
        let right = min(o.maxX, maxX)
        let box = Rect(x: o.x, y: o.y, width: max(0, right - o.x), height: o.height).enclosingPixels.intersection(clip)
        guard !box.isEmpty else { return }
        let s = color.premultiplied.argb
        if s == 0 { return }
        let inner = inner.flatMap { $0.rect.isEmpty ? nil : $0 }
        let shapes = [outer] + (inner.map { [$0] } ?? [])
        let cut = maxX < o.maxX
        table.prepare(s)
        let scaled = table.scaled, inverse = table.inverse
        let is565 = surface.format == .rgb565
        let or: UInt32 = surface.format == .xrgb8888 ? 0xFF00_0000 : 0

        @inline(__always) func cov(_ x: Int, _ py: Double) -> Int {
            let px = Double(x) + 0.5
            var c = outer.coverage(px, py)
            if let inner { c -= inner.coverage(px, py) }
            if cut { c *= min(1, max(0, maxX - Double(x))) }
            return c <= 0 ? 0 : Int(c * 255 + 0.5)
        }
        // Per row: columns that need per-pixel work (near a rounded end, on a fractional edge, at
        // the cut), sorted and merged into at most a few zones; between them, one span each.
        var zs = [Int](repeating: 0, count: 12), ze = [Int](repeating: 0, count: 12)
        for y in box.minY..<box.maxY {
            let py = Double(y) + 0.5
            var n = 0
            func addZone(_ a: Double, _ b: Double) {
                let lo = max(box.minX, floorInt(a)), hi = min(box.maxX, ceilInt(b))
                guard lo < hi else { return }
                var i = n
                while i > 0 && zs[i - 1] > lo { zs[i] = zs[i - 1]; ze[i] = ze[i - 1]; i -= 1 }
                zs[i] = lo; ze[i] = hi; n += 1
            }
            for sh in shapes {
                let r = sh.rect
                if Double(y) >= r.maxY || Double(y + 1) <= r.minY { continue }
                let straight = Double(y) >= r.minY + sh.radius && Double(y + 1) <= r.maxY - sh.radius
                if straight {
                    // Only the edge columns; each run between zones then lies wholly inside or
                    // wholly outside every shape.
                    addZone(r.minX, r.minX + 1); addZone(r.maxX - 1, r.maxX)
                } else {
                    addZone(r.minX, r.minX + sh.radius + 1); addZone(r.maxX - sh.radius - 1, r.maxX)
                }
            }
            if cut { addZone(maxX - 1, maxX + 1) }
            var x = box.minX
            var zi = 0
            while x < box.maxX {
                while zi < n && ze[zi] <= x { zi += 1 }
                if zi < n && x >= zs[zi] {
                    // Per-pixel columns.
                    let end = ze[zi]
                    while x < end {
                        let c = cov(x, py)
                        if c > 0 {
                            if is565 {
                                Row16(surface.row16(y)).put(x, scaled[c])
                            } else {
                                let p = surface.row32(y)
                                p[x] = (scaled[c] &+ Blend.mul4(p[x], inverse[c])) | or
                            }
                        }
                        x += 1
                    }
                } else {
                    // A run of columns with one coverage.
                    let end = zi < n ? zs[zi] : box.maxX
                    let c = cov(x, py)
                    if c > 0 {
                        if is565 {
                            Row16(surface.row16(y)).fill(x, end - x, scaled[c])
                        } else {
                            Row32(surface.row32(y), opaqueOr: or).fill(x, end - x, scaled[c])
                        }
                    }
                    x = end
                }
            }
        }
        damage.add(box)
    }
}
