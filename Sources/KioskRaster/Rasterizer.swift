/// Receives the coverage of one path, row by row, left to right.
public protocol SpanSink {
    /// `count` pixels from (`x`, `y`) all have `coverage` (1…255).
    mutating func span(x: Int, y: Int, count: Int, coverage: UInt32)
}

/// Turns a `Path` into coverage spans with exact-area anti-aliasing (the coverage of a pixel is
/// the area of the shape inside it, up to float rounding).
///
/// Every edge is walked through the pixels ("cells") it crosses; each cell keeps `cover` (the
/// edge's signed height inside it, which applies to every pixel to its right) and `area` (the part
/// of that which applies to the cell's own pixel). Sweeping a row's sorted cells with a running
/// sum gives each edge pixel's coverage, and one constant span between cells — the inside of a
/// shape costs one span per row, whatever its width. Cells left of the clip are folded into one
/// cell just left of it; cells right of it are dropped.
///
/// Reused between draws: keeps its scratch memory.
public final class Rasterizer {
    /// Scratch memory kept between draws. The hot loops run on a local `Builder` copy (a struct
    /// in a local variable needs no run-time exclusivity checks, a class property does).
    private var scratch = Builder()

    public init() {}

    deinit { scratch.release() }

    /// Rasterizes `path` inside `clip` and hands the spans to `sink`.
    public func fill<S: SpanSink>(_ path: Path, clip: IntRect, into sink: inout S) {
        guard !clip.isEmpty, !path.isEmpty else { return }
        var b = scratch
        b.reset(clip)
        var start = 0
        path.points.withUnsafeBufferPointer { pts in
            for end in path.contourEnds {
                defer { start = end }
                // A contour with a non-finite point is dropped whole (half of it would leak
                // winding into every row below).
                var finite = true
                for i in start..<end where !(pts[i].x.isFinite && pts[i].y.isFinite) { finite = false; break }
                if !finite { continue }
                var prev = pts[end - 1]
                for i in start..<end {
                    let p = pts[i]
                    b.addLine(prev.x, prev.y, p.x, p.y)
                    prev = p
                }
            }
        }
        b.sweep(into: &sink)
        scratch = b
    }
}

@usableFromInline struct Cell {
    var x: Int32, y: Int32
    var cover: Float, area: Float
}

struct Builder {
    var cells: UnsafeMutablePointer<Cell>
    var sorted: UnsafeMutablePointer<Cell>
    var capacity: Int
    var count = 0
    var rowStart: UnsafeMutablePointer<Int32>
    var rowCapacity: Int
    var clipX0 = 0, clipX1 = 0, clipY0 = 0, clipY1 = 0
    var minRow = Int.max, maxRow = Int.min
    var dense: UnsafeMutablePointer<Float>
    var denseCapacity = 256

    init() {
        dense = .allocate(capacity: denseCapacity)
        capacity = 1024
        cells = .allocate(capacity: capacity)
        sorted = .allocate(capacity: capacity)
        rowCapacity = 1024
        rowStart = .allocate(capacity: rowCapacity + 2)
    }

    func release() {
        cells.deallocate(); sorted.deallocate(); rowStart.deallocate(); dense.deallocate()
    }

    mutating func reset(_ clip: IntRect) {
        count = 0
        clipX0 = clip.minX; clipX1 = clip.maxX; clipY0 = clip.minY; clipY1 = clip.maxY
        minRow = Int.max; maxRow = Int.min
    }

    mutating func grow() {
        let n = capacity * 2
        let c = UnsafeMutablePointer<Cell>.allocate(capacity: n)
        c.moveInitialize(from: cells, count: count)
        cells.deallocate()
        cells = c
        sorted.deallocate()
        sorted = .allocate(capacity: n)
        capacity = n
    }

    @inline(__always)
    mutating func addCell(_ x: Int, _ y: Int, _ cover: Double, _ area: Double) {
        if x >= clipX1 { return }
        let cx = x < clipX0 ? clipX0 - 1 : x
        if count > 0 {
            let last = cells + (count - 1)
            if last.pointee.x == Int32(cx) && last.pointee.y == Int32(y) {
                last.pointee.cover += Float(cover)
                last.pointee.area += Float(area)
                return
            }
        }
        if count == capacity { grow() }
        cells[count] = Cell(x: Int32(cx), y: Int32(y), cover: Float(cover), area: Float(area))
        count += 1
        if y < minRow { minRow = y }
        if y > maxRow { maxRow = y }
    }

    mutating func addLine(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        if ay == by { return }
        var x0 = ax, y0 = ay, x1 = bx, y1 = by, sign = 1.0
        if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1); sign = -1 }
        if y1 <= Double(clipY0) || y0 >= Double(clipY1) { return }
        // Far outside horizontally: the part beyond ±limit becomes a vertical edge at ±limit
        // over the same rows (same winding for everything inside), so nothing overflows.
        let limit = Double(Bitmap.maxDimension) * 4
        if x0 < -limit || x0 > limit || x1 < -limit || x1 > limit {
            for edge in [-limit, limit] where (x0 - edge) * (x1 - edge) < 0 {
                let yc = y0 + (edge - x0) / (x1 - x0) * (y1 - y0)
                let (ax, ay, bx, by) = sign > 0 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
                let cy = yc
                addLine(ax, ay, edge, cy)
                addLine(edge, cy, bx, by)
                return
            }
            x0 = max(-limit, min(limit, x0)); x1 = max(-limit, min(limit, x1))
        }
        let dxdy = (x1 - x0) / (y1 - y0)
        let r0 = max(clipY0, floorInt(max(y0, Double(clipY0))))
        let r1 = min(clipY1 - 1, ceilInt(min(y1, Double(clipY1))) - 1)
        if r0 > r1 { return }
        for row in r0...r1 {
            let fy = Double(row)
            let ya = max(y0, fy), yb = min(y1, fy + 1)
            if yb <= ya { continue }
            let xa = x0 + (ya - y0) * dxdy, xb = x0 + (yb - y0) * dxdy
            walkRow(row, xa, xb, (yb - ya) * sign)
        }
    }

    /// One edge piece inside row `row`, from x `xa` to `xb`, `dy` high (signed).
    @inline(__always)
    mutating func walkRow(_ row: Int, _ xa: Double, _ xb: Double, _ dy: Double) {
        let ia = floorInt(xa), ib = floorInt(xb)
        if ia == ib {
            let fa = Double(ia)
            addCell(ia, row, dy, dy * (1 - ((xa + xb) * 0.5 - fa)))
            return
        }
        let dydx = dy / (xb - xa)  // signed height per unit x (sign follows dy and direction)
        if xb > xa {
            var x = xa
            var cell = ia
            while cell < ib {
                let nx = Double(cell + 1)
                let h = (nx - x) * dydx
                addCell(cell, row, h, h * (1 - ((x + nx) * 0.5 - Double(cell))))
                x = nx; cell += 1
                if cell >= clipX1 { return }
            }
            let h = (xb - x) * dydx
            addCell(ib, row, h, h * (1 - ((x + xb) * 0.5 - Double(ib))))
        } else {
            var x = xa
            var cell = ia
            while cell > ib {
                let nx = Double(cell)
                let h = (x - nx) * -dydx
                addCell(cell, row, h, h * (1 - ((x + nx) * 0.5 - Double(cell))))
                x = nx; cell -= 1
            }
            let h = (x - xb) * -dydx
            addCell(ib, row, h, h * (1 - ((x + xb) * 0.5 - Double(ib))))
        }
    }

    @inline(__always)
    static func coverage(_ acc: Float) -> UInt32 {
        let a = abs(acc)
        if a >= 1 - 1.0 / 1024 { return 255 }
        return UInt32(a * 255 + 0.5)
    }

    mutating func sweep<S: SpanSink>(into sink: inout S) {
        guard count > 0, minRow <= maxRow else { return }
        let rows = maxRow - minRow + 1
        if rows + 2 > rowCapacity {
            rowStart.deallocate()
            rowCapacity = rows + 2
            rowStart = .allocate(capacity: rowCapacity + 2)
        }
        // Counting sort by row.
        rowStart.initialize(repeating: 0, count: rows + 2)
        for i in 0..<count { rowStart[Int(cells[i].y) - minRow + 2] += 1 }
        for r in 0..<rows { rowStart[r + 2] += rowStart[r + 1] }
        for i in 0..<count {
            let r = Int(cells[i].y) - minRow + 1
            sorted[Int(rowStart[r])] = cells[i]
            rowStart[r] += 1
        }
        // rowStart[r] is now the start of row r, rowStart[r+1] its end.
        for r in 0..<rows {
            let s = Int(rowStart[r]), e = Int(rowStart[r + 1])
            if s == e { continue }
            var lo = Int(sorted[s].x), hi = lo
            for i in (s + 1)..<max(s + 1, e) {
                let x = Int(sorted[i].x)
                if x < lo { lo = x } else if x > hi { hi = x }
            }
            if hi - lo + 1 <= 4 * (e - s) + 16 {
                denseRow(s, e, lo, hi, r + minRow, &sink)
            } else {
                sparseRow(s, e, r + minRow, &sink)
            }
        }
    }

    /// A row whose cells are close together (curves, thin rings): accumulate into a small dense
    /// buffer and prefix-sum it — no sorting.
    @inline(__always)
    mutating func denseRow<S: SpanSink>(_ s: Int, _ e: Int, _ lo: Int, _ hi: Int, _ y: Int, _ sink: inout S) {
        let w = hi - lo + 2
        if w > denseCapacity {
            dense.deallocate()
            denseCapacity = max(w, denseCapacity * 2)
            dense = .allocate(capacity: denseCapacity)
        }
        dense.update(repeating: 0, count: w)
        for i in s..<e {
            let c = sorted[i]
            let k = Int(c.x) &- lo
            dense[k] += c.area
            dense[k &+ 1] += c.cover - c.area
        }
        var acc: Float = 0
        var runX = 0, runLen = 0
        var runCov: UInt32 = 0
        let first = max(lo, clipX0)
        // Cells left of the clip were folded into clipX0 − 1; its sum still counts.
        if first > lo { for k in 0..<min(first - lo, hi - lo + 1) { acc += dense[k] } }
        for x in stride(from: first, through: hi, by: 1) {
            acc += dense[x &- lo]
            let c = Builder.coverage(acc)
            if c == runCov && runLen > 0 && runX &+ runLen == x {
                runLen &+= 1
            } else {
                if runLen > 0 && runCov > 0 { sink.span(x: runX, y: y, count: runLen, coverage: runCov) }
                runX = x; runLen = 1; runCov = c
            }
        }
        if runLen > 0 && runCov > 0 { sink.span(x: runX, y: y, count: runLen, coverage: runCov) }
        acc += dense[hi &+ 1 &- lo]
        let next = hi + 1
        if next < clipX1 {
            let c = Builder.coverage(acc)
            if c > 0 { sink.span(x: next, y: y, count: clipX1 - next, coverage: c) }
        }
    }

    /// A row with few cells far apart (a big shape's two sides): sort them and emit one span
    /// between each pair.
    @inline(__always)
    mutating func sparseRow<S: SpanSink>(_ s: Int, _ e: Int, _ y: Int, _ sink: inout S) {
        if e - s > 1 {
            for i in (s + 1)..<e {
                let c = sorted[i]
                var j = i - 1
                while j >= s && sorted[j].x > c.x {
                    sorted[j + 1] = sorted[j]
                    j -= 1
                }
                sorted[j + 1] = c
            }
        }
        var acc: Float = 0
        var next = clipX0
        var i = s
        while i < e {
            let x = Int(sorted[i].x)
            var cover: Float = 0, area: Float = 0
            while i < e && Int(sorted[i].x) == x {
                cover += sorted[i].cover; area += sorted[i].area
                i += 1
            }
            if x > next {
                let c = Builder.coverage(acc)
                if c > 0 { sink.span(x: next, y: y, count: x - next, coverage: c) }
            }
            if x >= clipX0 {
                let c = Builder.coverage(acc + area)
                if c > 0 { sink.span(x: x, y: y, count: 1, coverage: c) }
            }
            acc += cover
            next = x + 1
        }
        if next < clipX1 {
            let c = Builder.coverage(acc)
            if c > 0 { sink.span(x: next, y: y, count: clipX1 - next, coverage: c) }
        }
    }
}

/// floor and ceil for values well inside Int's range, without a libm call (x86-64's baseline
/// has no rounding instruction, so `rounded(.down)` is a function call there).
@inline(__always) func floorInt(_ x: Double) -> Int {
    let i = Int(x)
    return Double(i) > x ? i &- 1 : i
}

@inline(__always) func ceilInt(_ x: Double) -> Int {
    let i = Int(x)
    return Double(i) < x ? i &+ 1 : i
}
