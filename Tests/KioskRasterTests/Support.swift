// Shared helpers for the KioskRaster tests: deterministic randomness, bitmap snapshots, a
// coverage-recording span sink and exact reference geometry.
@testable import KioskRaster
import Testing

// MARK: - Randomness

/// A small seeded generator, so every "random" test is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A valid premultiplied `0xAARRGGBB` (every colour channel ≤ alpha).
func randomPremultiplied(_ rng: inout SplitMix64, opaque: Bool = false) -> UInt32 {
    let a = opaque ? 255 : UInt32.random(in: 0...255, using: &rng)
    let r = UInt32.random(in: 0...a, using: &rng), g = UInt32.random(in: 0...a, using: &rng)
    let b = UInt32.random(in: 0...a, using: &rng)
    return a << 24 | r << 16 | g << 8 | b
}

// MARK: - Bitmaps

/// A bitmap and a canvas on it (keep the bitmap alive as long as the canvas is used).
func makeCanvas(_ width: Int, _ height: Int, _ format: PixelFormat = .argb8888,
                stride: Int? = nil) throws -> (Bitmap, Canvas) {
    let bitmap = try Bitmap(width: width, height: height, format: format, stride: stride)
    return (bitmap, Canvas(bitmap.surface))
}

/// Every pixel as premultiplied `0xAARRGGBB`, row by row.
func pixels(_ s: Surface) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(s.width * s.height)
    for y in 0..<s.height { for x in 0..<s.width { out.append(s.pixel(x: x, y: y)) } }
    return out
}

/// Every byte of the surface's memory, row padding included.
func rawBytes(_ s: Surface) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(s.base), count: s.stride * s.height))
}

/// Channel of `0xAARRGGBB` at bit `shift` (0 blue, 8 green, 16 red, 24 alpha).
func channel(_ p: UInt32, _ shift: UInt32) -> Int { Int((p >> shift) & 0xFF) }

/// Largest per-channel difference of two pixels.
func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
    [0, 8, 16, 24].map { abs(channel(a, UInt32($0)) - channel(b, UInt32($0))) }.max()!
}

/// Fills the surface with deterministic content valid for its format (XRGB gets X = 0xFF).
func fillRandom(_ s: Surface, seed: UInt64, opaque: Bool = false) {
    var rng = SplitMix64(seed: seed)
    for y in 0..<s.height {
        for x in 0..<s.width {
            switch s.format {
            case .xrgb8888: s.row32(y)[x] = randomPremultiplied(&rng, opaque: true)
            case .argb8888: s.row32(y)[x] = randomPremultiplied(&rng, opaque: opaque)
            case .rgb565: s.row16(y)[x] = UInt16.random(in: 0...UInt16.max, using: &rng)
            }
        }
    }
}

/// An ARGB8888 image of random premultiplied pixels.
func makeImage(_ width: Int, _ height: Int, seed: UInt64, opaque: Bool) -> Bitmap {
    let bitmap = try! Bitmap(width: width, height: height, format: .argb8888)
    fillRandom(bitmap.surface, seed: seed, opaque: opaque)
    return bitmap
}

/// Content every scene-based test shares: an image and a glyph-like mask.
struct Fixtures {
    let image = makeImage(8, 6, seed: 77, opaque: false)
    let opaqueImage = makeImage(5, 4, seed: 78, opaque: true)
    /// 9 × 7 coverage bytes with plenty of 0 and 255.
    let mask: [UInt8] = {
        var rng = SplitMix64(seed: 79)
        return (0..<63).map { i in
            switch i % 5 {
            case 0: 0
            case 1: 255
            default: UInt8.random(in: 0...255, using: &rng)
            }
        }
    }()
}

/// A bit of everything a canvas draws, on a canvas of at least 48 × 40. No blur unless asked
/// (a blur reads its neighbours, so clipping it is not the same as clipping its result).
func drawScene(_ c: Canvas, _ f: Fixtures, dx: Double = 0, dy: Double = 0, blur: Bool = false) {
    let ix = Int(dx), iy = Int(dy)
    c.clear(IntRect(x: 2 + ix, y: 2 + iy, width: 30, height: 20), to: Color(rgb: 0x336699))
    c.fill(Path.roundedRect(Rect(x: 3.3 + dx, y: 4.6 + dy, width: 25.2, height: 17.1),
                            radii: CornerRadii(topLeft: 6, topRight: 2, bottomRight: 0, bottomLeft: 9)),
           .solid(Color(white: 0, a: 0.7)))
    c.fill(Path.circle(center: Point(30.4 + dx, 18.7 + dy), radius: 9.3), .solid(Color(r: 0.9, g: 0.2, b: 0.1)))
    c.fill(Path.arc(center: Point(20 + dx, 20 + dy), radius: 12, lineWidth: 3.5, start: -.pi / 2, sweep: 4.0,
                    cap: .round),
           .solid(Color(r: 0.1, g: 0.8, b: 0.3, a: 0.8)))
    c.fill(Path.polyline([Point(-4 + dx, 36 + dy), Point(20 + dx, 28.5 + dy), Point(52 + dx, 37 + dy)], width: 3.2),
           .linear(LinearGradient(start: Point(0 + dx, 30 + dy), end: Point(48 + dx, 36 + dy),
                                  stops: [GradientStop(0, Color(rgb: 0xFFCC00)), GradientStop(1, Color(rgb: 0x0033FF))])))
    c.fill(IntRect(x: 34 + ix, y: 1 + iy, width: 12, height: 9),
           .radial(RadialGradient(center: Point(40 + dx, 5 + dy), radius: 6,
                                  stops: [GradientStop(0, Color(white: 1, a: 0.9)), GradientStop(0.6, Color(rgb: 0xFF0000, a: 0.5)),
                                          GradientStop(1, .clear)])))
    c.fill(Path.pie(center: Point(12 + dx, 12 + dy), radius: 7.5, start: 0.3, sweep: 2.2),
           .image(f.image, originX: 7 + ix, originY: 8 + iy), opacity: 0.9)
    f.mask.withUnsafeBufferPointer {
        c.drawMask($0.baseAddress!, width: 9, height: 7, pitch: 9, x: 36 + ix, y: 12 + iy, color: Color(white: 1, a: 0.9))
    }
    c.draw(f.image, in: Rect(x: 6.5 + dx, y: 24.25 + dy, width: 13, height: 9.5), opacity: 0.8)
    c.draw(f.opaqueImage, in: Rect(x: 40 + dx, y: 30 + dy, width: 5, height: 4))
    c.fill(Path.stroke(Rect(x: 25.5 + dx, y: 24.5 + dy, width: 12, height: 10), radii: CornerRadii(3), width: 1.5),
           .solid(Color(rgb: 0xEEEEEE, a: 0.6)))
    if blur { c.blur(IntRect(x: 10 + ix, y: 10 + iy, width: 16, height: 12), radius: 2) }
}

// MARK: - Coverage

/// Records the rasterizer's coverage per pixel and counts anything a correct rasterizer never
/// does: a span outside the clip, coverage outside 1…255, or the same pixel twice.
struct CoverageSink: SpanSink {
    let clip: IntRect
    var values: [UInt32]
    var violations = 0

    init(clip: IntRect) {
        self.clip = clip
        values = Array(repeating: 0, count: clip.width * clip.height)
    }

    mutating func span(x: Int, y: Int, count: Int, coverage: UInt32) {
        guard count > 0, coverage >= 1, coverage <= 255, y >= clip.minY, y < clip.maxY, x >= clip.minX,
              x + count <= clip.maxX else { violations += 1; return }
        for px in x..<(x + count) {
            let k = (y - clip.minY) * clip.width + px - clip.minX
            if values[k] != 0 { violations += 1 }
            values[k] = coverage
        }
    }

    func at(_ x: Int, _ y: Int) -> UInt32 {
        clip.contains(x: x, y: y) ? values[(y - clip.minY) * clip.width + x - clip.minX] : 0
    }

    /// Covered area in px².
    var area: Double { Double(values.reduce(0) { $0 + Int($1) }) / 255 }
}

/// The coverage the rasterizer gives `path` inside `clip`.
func coverage(of path: Path, clip: IntRect) -> CoverageSink {
    var sink = CoverageSink(clip: clip)
    Rasterizer().fill(path, clip: clip, into: &sink)
    return sink
}

/// The contours of a path as point lists.
func contours(_ p: Path) -> [[Point]] {
    var out: [[Point]] = []
    var start = 0
    for end in p.contourEnds {
        out.append(Array(p.points[start..<end]))
        start = end
    }
    return out
}

/// Signed shoelace area (positive = clockwise on screen).
func signedArea(_ pts: [Point]) -> Double {
    guard pts.count >= 3 else { return 0 }
    var a = 0.0
    for i in pts.indices {
        let p = pts[i], q = pts[(i + 1) % pts.count]
        a += p.x * q.y - q.x * p.y
    }
    return a / 2
}

/// Area enclosed by the path's polygons (holes subtract), for paths whose contours do not overlap
/// except by nesting.
func polygonArea(_ p: Path) -> Double { abs(contours(p).reduce(0) { $0 + signedArea($1) }) }

/// `pts` clipped to the box (Sutherland–Hodgman; area and orientation are preserved).
func clipPolygon(_ pts: [Point], x0: Double, y0: Double, x1: Double, y1: Double) -> [Point] {
    func clip(_ poly: [Point], inside: (Point) -> Bool, cross: (Point, Point) -> Point) -> [Point] {
        guard !poly.isEmpty else { return [] }
        var out: [Point] = []
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let ain = inside(a), bin = inside(b)
            if ain { out.append(a) }
            if ain != bin { out.append(cross(a, b)) }
        }
        return out
    }
    func atX(_ x: Double) -> (Point, Point) -> Point {
        { a, b in Point(x, a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y)) }
    }
    func atY(_ y: Double) -> (Point, Point) -> Point {
        { a, b in Point(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x), y) }
    }
    var p = clip(pts, inside: { $0.x >= x0 }, cross: atX(x0))
    p = clip(p, inside: { $0.x <= x1 }, cross: atX(x1))
    p = clip(p, inside: { $0.y >= y0 }, cross: atY(y0))
    return clip(p, inside: { $0.y <= y1 }, cross: atY(y1))
}

/// The exact area of pixel (px, py) inside the (simple, possibly holed) polygons, 0…1.
func exactCoverage(_ polys: [[Point]], _ px: Int, _ py: Int) -> Double {
    let x0 = Double(px), y0 = Double(py)
    let a = polys.reduce(0.0) { $0 + signedArea(clipPolygon($1, x0: x0, y0: y0, x1: x0 + 1, y1: y0 + 1)) }
    return min(1, abs(a))
}
