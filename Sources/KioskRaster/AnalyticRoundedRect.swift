/// A rounded rectangle for the analytic fast path: rectangle and one corner radius.
public struct RoundedRectShape: Sendable, Equatable {
    public var rect: Rect
    public var radius: Double
    public init(_ rect: Rect, radius: Double) {
        self.rect = rect
        self.radius = max(0, min(radius, min(rect.width, rect.height) / 2))
    }

    /// Coverage of the pixel whose centre is (px, py): ½ minus the signed distance to the outline
    /// (exact on straight edges, within a few levels on corners).
    @inline(__always)
    func coverage(_ px: Double, _ py: Double) -> Double {
        let hw = rect.width / 2, hh = rect.height / 2
        let qx = abs(px - (rect.x + hw)) - (hw - radius), qy = abs(py - (rect.y + hh)) - (hh - radius)
        let ox = max(qx, 0), oy = max(qy, 0)
        let outside = (ox * ox + oy * oy).squareRoot()
        let d = outside + min(max(qx, qy), 0) - radius
        return min(1, max(0, 0.5 - d))
    }

    /// What `coverage` computes once per row: everything that does not depend on x.
    @inline(__always)
    func row(_ py: Double) -> RoundedRectRow {
        let hw = rect.width / 2, hh = rect.height / 2
        let qy = abs(py - (rect.y + hh)) - (hh - radius)
        let oy = max(qy, 0)
        return RoundedRectRow(cx: rect.x + hw, kx: hw - radius, qy: SIMD4(repeating: qy), oy: oy, radius: radius)
    }
}

extension Canvas {
    /// Fast path for the HUD's rounded rectangles (bezel, button, bar): fills `outer` less `inner`
    /// (a border when given), left of `maxX`. Only columns near a rounded end or a cut are
    /// evaluated per pixel, four pixel centres per step; everything between is a span of one
    /// coverage, found once per row and blended eight pixels at a time — a 200-px bezel row costs
    /// two short corner runs and one span, with no edge walking or sorting.
    public func fillRoundedRect(_ outer: RoundedRectShape, minus inner: RoundedRectShape? = nil,
                                maxX: Double = .infinity, color: Color) {
        let o = outer.rect
        guard !o.isEmpty, o.x.isFinite, o.y.isFinite, o.width.isFinite, o.height.isFinite, !maxX.isNaN else { return }
        let right = min(o.maxX, maxX)
        let box = Rect(x: o.x, y: o.y, width: max(0, right - o.x), height: o.height).enclosingPixels.intersection(clip)
        guard !box.isEmpty else { return }
        let s = color.premultiplied.argb
        if s == 0 { return }
        let inner = inner.flatMap { $0.rect.isEmpty ? nil : $0 }
        let cut = maxX < o.maxX
        table.prepare(s)
        let scaled = table.scaled, inverse = table.inverse
        let is565 = surface.format == .rgb565
        let or: UInt32 = surface.format == .xrgb8888 ? 0xFF00_0000 : 0

        let coverage = RoundedRectCoverage(outer: outer, inner: inner, maxX: cut ? maxX : nil)
        var zones = RowZones(minX: box.minX, maxX: box.maxX)
        // Per row, the columns whose coverage is needed: every column of a zone, and the first of
        // each run between zones; evaluated four at a time, then used left to right.
        let samples = UnsafeMutablePointer<Int>.allocate(capacity: box.width &+ 8)
        // Rows evaluated once are kept (up to `arenaCap` values) for the rows that mirror them:
        // a row whose distances to both shapes' centre lines and whose zones are bit for bit those
        // of a kept row has the same coverage in every column (`at4` sees nothing else of the row).
        // The rows below a shape's middle mirror the rows above when its height and position are
        // whole or half pixels (the bar, the button and the bezel's corners at the bench): half
        // of those rows are evaluated.
        let rowCap = box.width &+ 8
        let arenaCap = Swift.max(rowCap, Swift.min(8192, rowCap &* box.height))
        let arena = UnsafeMutablePointer<UInt64>.allocate(capacity: arenaCap &+ rowCap)
        let keyCap = Swift.min(box.height, 64)
        let keys = UnsafeMutablePointer<RowKey>.allocate(capacity: keyCap), offsets = UnsafeMutablePointer<Int>.allocate(capacity: keyCap)
        defer { zones.release(); samples.deallocate(); arena.deallocate(); keys.deallocate(); offsets.deallocate() }
        var kept = 0, used = 0, probe = -1
        // The current row's coverage values: a kept row, or the scratch row at `arenaCap`.
        var values = arena
        // One shape without a cut: on the rows that cross only its straight sides every column's
        // coverage is the same (the row's distance enters only where it makes the pixel wholly
        // inside, and then the coverage is 255 on every such row), so the first of those rows is
        // worked out and the others blend the same values: 150 of the bezel's 160 rows.
        let reuse = inner == nil && !cut && max(abs(o.minX), abs(o.maxX), abs(o.minY), abs(o.maxY)) < 1e6
        var reusable = false
        var n = 0
        for y in box.minY..<box.maxY {
            let straight = reuse && Double(y) >= o.minY + outer.radius && Double(y + 1) <= o.maxY - outer.radius
            if !(straight && reusable) {
                evaluate(y, &zones, &values, &n, &kept, &used, &probe)
                reusable = straight
            }
            blend(y, zones, values)
        }
        damage.add(box)

        // The state the two steps change comes in as parameters (named as the locals they stand
        // for), not as captures: Swift 6.0 (Debian 13's swiftlang, the arm64 package's compiler)
        // checks captured variables' exclusivity at run time, a third of el_hud's instructions.
        func evaluate(_ y: Int, _ zones: inout RowZones, _ values: inout UnsafeMutablePointer<UInt64>, _ n: inout Int,
                      _ kept: inout Int, _ used: inout Int, _ probe: inout Int) {
            let py = Double(y) + 0.5
            zones.removeAll()
            zones.add(outer, row: y)
            if let inner { zones.add(inner, row: y) }
            if cut { zones.add(maxX - 1, maxX + 1) }
            let outerRow = outer.row(py), innerRow = inner?.row(py)
            let key = RowKey(outerRow, innerRow, zones)
            // The mirror of this row is the kept row before the one the row above reused (or,
            // past the middle row of an odd count, the one before that).
            var j = probe
            while j >= 0 && j >= probe &- 1 {
                if keys[j] == key {
                    values = arena + offsets[j]
                    probe = j &- 1
                    return
                }
                j &-= 1
            }
            // Kept when there is room; otherwise worked out in the scratch row.
            if kept < keyCap && used &+ rowCap <= arenaCap {
                values = arena + used
                keys[kept] = key; offsets[kept] = used
                probe = kept
                kept &+= 1
                used &+= rowCap
            } else {
                values = arena + arenaCap
            }
            // Which columns: runs are [x, next zone start), zones [start, end) merged when they
            // overlap.
            n = 0
            var x = box.minX, zi = 0
            while x < box.maxX {
                while zi < zones.count && zones.end[zi] <= x { zi &+= 1 }
                if zi < zones.count && x >= zones.start[zi] {
                    let end = zones.end[zi]
                    while x < end { samples[n] = x; n &+= 1; x &+= 1 }
                } else {
                    samples[n] = x; n &+= 1
                    x = zi < zones.count ? zones.start[zi] : box.maxX
                }
            }
            var k = 0
            while k < n {
                // The last group repeats its last column.
                let last = n &- 1
                let c = coverage.at4(samples[k], samples[Swift.min(k &+ 1, last)], samples[Swift.min(k &+ 2, last)],
                                     samples[Swift.min(k &+ 3, last)], outerRow, innerRow)
                values[k] = c[0]; values[k &+ 1] = c[1]; values[k &+ 2] = c[2]; values[k &+ 3] = c[3]
                k &+= 4
            }
        }

        // The same walk, with every coverage known.
        func blend(_ y: Int, _ zones: RowZones, _ values: UnsafeMutablePointer<UInt64>) {
            let row32 = is565 ? nil : Optional(surface.row32(y))
            var k = 0
            var x = box.minX, zi = 0
            while x < box.maxX {
                while zi < zones.count && zones.end[zi] <= x { zi &+= 1 }
                let zone = zi < zones.count && x >= zones.start[zi]
                let end = zone ? x &+ 1 : (zi < zones.count ? zones.start[zi] : box.maxX)
                let c = Int(truncatingIfNeeded: values[k])
                k &+= 1
                if c > 0 {
                    if let p = row32 {
                        if zone {
                            p[x] = (scaled[c] &+ Blend.mul4(p[x], inverse[c])) | or
                        } else {
                            Row32(p, opaqueOr: or).fill(x, end &- x, scaled[c])
                        }
                    } else if zone {
                        Row16(surface.row16(y)).put(x, scaled[c])
                    } else {
                        Row16(surface.row16(y)).fill(x, end &- x, scaled[c])
                    }
                }
                x = end
            }
        }
    }
}

/// `RoundedRectShape.coverage` on one row, for four pixel centres at a time: the same operations
/// lane by lane (`Lanes.min` and `Lanes.max` choose exactly as `min` and `max` do), so each lane
/// equals the scalar value.
struct RoundedRectRow {
    let cx: Double, kx: Double
    let qy: SIMD4<Double>
    let oy: Double, radius: Double

    @inline(__always)
    func coverage4(_ px: SIMD4<Double>) -> SIMD4<Double> {
        let qx = Lanes.abs(px - cx) - kx
        let ox = Lanes.max(qx, SIMD4(repeating: 0))
        // Written as a sum of squares so that LLVM sees it is never negative: then the square root
        // is sqrtpd, not a call to libm's sqrt (for errno) per lane.
        let outside = (ox * ox + oy * oy).squareRoot()
        let d = outside + Lanes.min(Lanes.max(qx, qy), SIMD4(repeating: 0)) - radius
        return Lanes.min(SIMD4(repeating: 1), Lanes.max(SIMD4(repeating: 0), 0.5 - d))
    }
}

/// The coverage (0…255) of a pixel column on one row: `outer` less `inner`, times the cut's
/// coverage left of `maxX` — one column (`at`, the reference's formula) or four (`at4`, lane for
/// lane the same value).
struct RoundedRectCoverage {
    let outer: RoundedRectShape
    let inner: RoundedRectShape?
    let maxX: Double?

    @inline(__always)
    func at(_ x: Int, _ py: Double) -> Int {
        let px = Double(x) + 0.5
        var c = outer.coverage(px, py)
        if let inner { c -= inner.coverage(px, py) }
        if let maxX { c *= min(1, max(0, maxX - Double(x))) }
        return c <= 0 ? 0 : Int(c * 255 + 0.5)
    }

    /// `at` of columns x0…x3 on the row of `outerRow` and `innerRow` (`RoundedRectShape.row`).
    @inline(__always)
    func at4(_ x0: Int, _ x1: Int, _ x2: Int, _ x3: Int, _ outerRow: RoundedRectRow, _ innerRow: RoundedRectRow?) -> SIMD4<UInt64> {
        let xv = SIMD4<Double>(Double(x0), Double(x1), Double(x2), Double(x3))
        let px = xv + 0.5
        var c = outerRow.coverage4(px)
        if let innerRow { c -= innerRow.coverage4(px) }
        if let maxX { c *= Lanes.min(SIMD4(repeating: 1), Lanes.max(SIMD4(repeating: 0), maxX - xv)) }
        // c ≤ 1, so ⌊c·255 + 0.5⌋ fits 9 bits.
        return Lanes.floor((c * 255 + 0.5).replacing(with: 0, where: .!(c .> 0))) & 0x1FF
    }
}

/// What one row's coverage values depend on (`fillRoundedRect`): the row's distance to each shape's
/// centre line (its `qy`, bit for bit) and its zones.
struct RowKey: Equatable {
    var outer: UInt64, inner: UInt64
    var zones: SIMD16<Int>

    init(_ outer: RoundedRectRow, _ inner: RoundedRectRow?, _ z: RowZones) {
        self.outer = outer.qy[0].bitPattern
        self.inner = inner.map { $0.qy[0].bitPattern } ?? 0
        zones = SIMD16(repeating: -1)
        for i in 0..<z.count { zones[i] = z.start[i]; zones[i &+ 8] = z.end[i] }
    }
}

/// The columns of one row that need per-pixel coverage: up to eight `[start, end)` zones, sorted
/// by start, within `minX..<maxX`.
struct RowZones {
    let minX: Int, maxX: Int
    let start: UnsafeMutablePointer<Int>
    var end: UnsafeMutablePointer<Int> { start + 8 }
    private(set) var count = 0

    init(minX: Int, maxX: Int) {
        self.minX = minX; self.maxX = maxX
        start = .allocate(capacity: 16)
    }

    func release() { start.deallocate() }

    mutating func removeAll() { count = 0 }

    /// The whole pixels touched by `a..<b`, kept sorted.
    mutating func add(_ a: Double, _ b: Double) {
        let lo = Swift.max(minX, floorInt(a)), hi = Swift.min(maxX, ceilInt(b))
        guard lo < hi, count < 8 else { return }
        var i = count
        while i > 0 && start[i &- 1] > lo { start[i] = start[i &- 1]; end[i] = end[i &- 1]; i &-= 1 }
        start[i] = lo; end[i] = hi; count &+= 1
    }

    /// The zones `shape` needs on row `y`: its two edge columns where the row crosses only its
    /// straight sides (each run between zones then lies wholly inside or wholly outside), its
    /// rounded ends otherwise.
    mutating func add(_ shape: RoundedRectShape, row y: Int) {
        let r = shape.rect
        if Double(y) >= r.maxY || Double(y + 1) <= r.minY { return }
        if Double(y) >= r.minY + shape.radius && Double(y + 1) <= r.maxY - shape.radius {
            add(r.minX, r.minX + 1); add(r.maxX - 1, r.maxX)
        } else {
            add(r.minX, r.minX + shape.radius + 1); add(r.maxX - shape.radius - 1, r.maxX)
        }
    }
}
