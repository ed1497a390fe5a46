/// How the ends of an open stroke are drawn.
public enum LineCap: Sendable, Equatable {
    /// Cut straight across at the end point.
    case butt
    /// A half disc beyond the end point.
    case round
    /// A half square beyond the end point.
    case square
}

/// Corner radii of a rounded rectangle, clockwise from the top-left.
public struct CornerRadii: Sendable, Equatable {
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    public init(_ all: Double) { self.init(topLeft: all, topRight: all, bottomRight: all, bottomLeft: all) }

    /// Each radius reduced by `d` (never below 0): the corners of a rectangle inset by `d`.
    public func insetBy(_ d: Double) -> CornerRadii {
        CornerRadii(topLeft: max(0, topLeft - d), topRight: max(0, topRight - d),
                    bottomRight: max(0, bottomRight - d), bottomLeft: max(0, bottomLeft - d))
    }
}

/// Geometry to fill: closed polygons with curves already flattened (≤ `Path.tolerance` px off
/// the true curve). Filled with the non-zero rule: contours of one orientation add up, opposite
/// orientations cut holes (an annulus is an outer circle and a reversed inner one).
public struct Path: Sendable {
    /// Flattening tolerance in px (cairo's default is 0.1).
    public static let tolerance = 0.1

    public private(set) var points: [Point] = []
    /// End index (exclusive) into `points` of each contour.
    public private(set) var contourEnds: [Int] = []

    public init() {}

    public var isEmpty: Bool { points.isEmpty }

    /// Bounding box of every point.
    public var bounds: Rect {
        guard var x0 = points.first?.x, var y0 = points.first?.y else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var x1 = x0, y1 = y0
        for p in points {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Adds a closed polygon; with `clockwise` set, reverses it if needed so it winds clockwise on
    /// screen (y down), so that shapes added this way join up instead of cancelling.
    public mutating func addPolygon(_ pts: [Point], clockwise: Bool? = nil) {
        guard pts.count >= 3, pts.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        if let cw = clockwise, (Path.signedArea(pts) > 0) != cw {
            points.append(contentsOf: pts.reversed())
        } else {
            points.append(contentsOf: pts)
        }
        contourEnds.append(points.count)
    }

    /// Appends all contours of `other`.
    public mutating func append(_ other: Path) {
        let base = points.count
        points.append(contentsOf: other.points)
        contourEnds.append(contentsOf: other.contourEnds.map { $0 + base })
    }

    /// Twice the signed area; positive means clockwise on screen (y down).
    static func signedArea(_ p: [Point]) -> Double {
        var a = 0.0
        var j = p.count - 1
        for i in 0..<p.count {
            a += (p[j].x * p[i].y - p[i].x * p[j].y)
            j = i
        }
        return a
    }

    /// Number of segments that keep a chord of radius `r` within the tolerance over `sweep`.
    static func segments(radius r: Double, sweep: Double) -> Int {
        guard r > 0, sweep.isFinite else { return 1 }
        // chord error e = r(1 − cos(θ/2)) ≈ rθ²/8  →  θ = 2·√(2e/r) (slightly finer than exact).
        let step = 2 * (2 * tolerance / r).squareRoot()
        let n = (abs(sweep) / step).rounded(.up)
        return n.isFinite ? max(1, Int(min(4096, n))) : 4096
    }

    /// Points on the arc from `start` sweeping `sweep` radians (positive = clockwise on screen),
    /// both ends included. The vertices sit at the radius that gives the polygon the circle's
    /// own area (r·√(θ / sin θ) for segments of angle θ), not on the circle, where every chord
    /// would cut a sliver off (−1.2 % of a disc of radius 10 at the 0.1 px tolerance).
    static func arcPoints(_ c: Point, _ r0: Double, _ start: Double, _ sweep: Double, into out: inout [Point]) {
        let n = segments(radius: r0, sweep: sweep)
        let theta = abs(sweep) / Double(n)
        let sinTheta = sinCos(theta).sin
        let r = theta > 1e-6 && sinTheta > 0 ? r0 * (theta / sinTheta).squareRoot() : r0
        // The ends of an open arc stay on the circle: they join straight edges (rounded-rect
        // corners, caps) that must not move.
        let open = abs(sweep) < 2 * .pi - 1e-9
        for i in 0...n {
            let (s, co) = sinCos(start + sweep * Double(i) / Double(n))
            let ri = open && (i == 0 || i == n) ? r0 : r
            out.append(Point(c.x + ri * co, c.y + ri * s))
        }
    }

    // MARK: Shapes

    /// A rounded rectangle; radii are clamped to half the shorter side (so `h/2` gives a pill).
    public static func roundedRect(_ r: Rect, radii: CornerRadii) -> Path {
        var p = Path()
        p.addRoundedRect(r, radii: radii)
        return p
    }

    public static func roundedRect(_ r: Rect, radius: Double) -> Path { roundedRect(r, radii: CornerRadii(radius)) }

    /// A pill: a rounded rectangle whose radius is half its height (or width).
    public static func pill(_ r: Rect) -> Path { roundedRect(r, radius: min(r.width, r.height) / 2) }

    public mutating func addRoundedRect(_ r: Rect, radii: CornerRadii, clockwise: Bool = true) {
        guard !r.isEmpty, r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else { return }
        let lim = min(r.width, r.height) / 2
        func cl(_ v: Double) -> Double { v.isFinite ? max(0, min(lim, v)) : 0 }
        let tl = cl(radii.topLeft), tr = cl(radii.topRight), br = cl(radii.bottomRight), bl = cl(radii.bottomLeft)
        var pts: [Point] = []
        pts.reserveCapacity(64)
        let h = Double.pi / 2
        func corner(_ cx: Double, _ cy: Double, _ rad: Double, _ a0: Double) {
            if rad > 0 { Path.arcPoints(Point(cx, cy), rad, a0, h, into: &pts) } else { pts.append(Point(cx, cy)) }
        }
        corner(r.maxX - tr, r.minY + tr, tr, -h)
        corner(r.maxX - br, r.maxY - br, br, 0)
        corner(r.minX + bl, r.maxY - bl, bl, h)
        corner(r.minX + tl, r.minY + tl, tl, 2 * h)
        addPolygon(clockwise ? pts : pts.reversed())
    }

    /// A plain rectangle.
    public static func rect(_ r: Rect) -> Path { roundedRect(r, radius: 0) }

    /// A disc.
    public static func circle(center: Point, radius: Double) -> Path {
        var p = Path()
        p.addCircle(center: center, radius: radius)
        return p
    }

    public mutating func addCircle(center: Point, radius: Double, clockwise: Bool = true) {
        guard radius > 0, radius.isFinite else { return }
        var pts: [Point] = []
        Path.arcPoints(center, radius, 0, clockwise ? 2 * .pi : -2 * .pi, into: &pts)
        pts.removeLast()
        addPolygon(pts)
    }

    /// The ring between radii `inner` and `outer`.
    public static func annulus(center: Point, inner: Double, outer: Double) -> Path {
        var p = Path()
        p.addCircle(center: center, radius: outer)
        if inner > 0 && inner < outer { p.addCircle(center: center, radius: inner, clockwise: false) }
        return p
    }

    /// A stroked circular arc: centre-line `radius`, `lineWidth` wide, from `start` sweeping
    /// `sweep` radians (0 = 3 o'clock, −π/2 = 12 o'clock, positive = clockwise on screen).
    public static func arc(center c: Point, radius: Double, lineWidth: Double, start: Double, sweep: Double,
                           cap: LineCap = .butt) -> Path {
        guard radius > 0, lineWidth > 0, start.isFinite, sweep.isFinite, radius.isFinite else { return Path() }
        let hw = lineWidth / 2, ro = radius + hw, ri = max(0, radius - hw)
        if abs(sweep) >= 2 * .pi - 1e-9 { return annulus(center: c, inner: ri, outer: ro) }
        if sweep == 0 && cap == .butt { return Path() }
        let dir: Double = sweep >= 0 ? 1 : -1
        let end = start + sweep
        var pts: [Point] = []
        arcPoints(c, ro, start, sweep, into: &pts)
        let (se, ce) = sinCos(end), (ss, cs) = sinCos(start)
        switch cap {
        case .butt: break
        case .round:
            arcPoints(Point(c.x + radius * ce, c.y + radius * se), hw, end, dir * .pi, into: &pts)
        case .square:
            let tx = -se * dir * hw, ty = ce * dir * hw
            pts.append(Point(c.x + ro * ce + tx, c.y + ro * se + ty))
            pts.append(Point(c.x + ri * ce + tx, c.y + ri * se + ty))
        }
        if ri > 0 { arcPoints(c, ri, end, -sweep, into: &pts) } else { pts.append(c) }
        switch cap {
        case .butt: break
        case .round:
            arcPoints(Point(c.x + radius * cs, c.y + radius * ss), hw, start + dir * .pi, dir * .pi, into: &pts)
        case .square:
            let tx = ss * dir * hw, ty = -cs * dir * hw
            pts.append(Point(c.x + ri * cs + tx, c.y + ri * ss + ty))
            pts.append(Point(c.x + ro * cs + tx, c.y + ro * ss + ty))
        }
        var p = Path()
        p.addPolygon(pts)
        return p
    }

    /// A pie sector (filled wedge) from `start` sweeping `sweep` radians.
    public static func pie(center c: Point, radius: Double, start: Double, sweep: Double) -> Path {
        guard radius > 0, radius.isFinite, start.isFinite, sweep.isFinite, sweep != 0 else { return Path() }
        if abs(sweep) >= 2 * .pi - 1e-9 { return circle(center: c, radius: radius) }
        var pts = [c]
        arcPoints(c, radius, start, sweep, into: &pts)
        var p = Path()
        p.addPolygon(pts)
        return p
    }

    /// The outline of a rounded rectangle `width` wide, lying inside `r` (like a CALayer border).
    public static func border(_ r: Rect, radii: CornerRadii, width: Double) -> Path {
        var p = Path()
        guard width > 0 else { return p }
        p.addRoundedRect(r, radii: radii)
        let inner = r.insetBy(width)
        if !inner.isEmpty { p.addRoundedRect(inner, radii: radii.insetBy(width), clockwise: false) }
        return p
    }

    /// A stroke `width` wide centred on a rounded rectangle's outline.
    public static func stroke(_ r: Rect, radii: CornerRadii, width: Double) -> Path {
        border(r.insetBy(-width / 2), radii: radii.insetBy(-width / 2), width: width)
    }

    /// A stroke `width` wide along an open polyline, with round joins and the given caps.
    public static func polyline(_ pts: [Point], width: Double, cap: LineCap = .round) -> Path {
        var p = Path()
        guard pts.count >= 2, width > 0, width.isFinite else { return p }
        let hw = width / 2
        for i in 0..<(pts.count - 1) {
            var a = pts[i], b = pts[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 0 else { continue }
            let ux = dx / len, uy = dy / len
            if cap == .square {
                if i == 0 { a = Point(a.x - ux * hw, a.y - uy * hw) }
                if i == pts.count - 2 { b = Point(b.x + ux * hw, b.y + uy * hw) }
            }
            let nx = -uy * hw, ny = ux * hw
            p.addPolygon([Point(a.x + nx, a.y + ny), Point(b.x + nx, b.y + ny),
                          Point(b.x - nx, b.y - ny), Point(a.x - nx, a.y - ny)], clockwise: true)
        }
        for i in 1..<(pts.count - 1) { p.addCircle(center: pts[i], radius: hw) }
        if cap == .round {
            p.addCircle(center: pts[0], radius: hw)
            p.addCircle(center: pts[pts.count - 1], radius: hw)
        }
        return p
    }

    /// The part of this path left of the vertical line `x` (each contour clipped on its own).
    public func clipped(maxX x: Double) -> Path {
        var out = Path()
        var start = 0
        for end in contourEnds {
            var res: [Point] = []
            let n = end - start
            for i in 0..<n {
                let a = points[start + i], b = points[start + (i + 1) % n]
                let ain = a.x <= x, bin = b.x <= x
                if ain { res.append(a) }
                if ain != bin {
                    let t = (x - a.x) / (b.x - a.x)
                    res.append(Point(x, a.y + t * (b.y - a.y)))
                }
            }
            out.addPolygon(res)
            start = end
        }
        return out
    }

    /// Every point moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Path {
        var p = self
        for i in p.points.indices { p.points[i].x += dx; p.points[i].y += dy }
        return p
    }

    /// Every point scaled by `s` about `center`.
    public func scaled(_ s: Double, about c: Point) -> Path {
        var p = self
        for i in p.points.indices {
            p.points[i] = Point(c.x + (p.points[i].x - c.x) * s, c.y + (p.points[i].y - c.y) * s)
        }
        return p
    }
}
