/// A colour stop of a gradient; `offset` in 0…1.
public struct GradientStop: Sendable, Equatable {
    public var offset: Double
    public var color: Color
    public init(_ offset: Double, _ color: Color) { self.offset = offset; self.color = color }
}

/// A linear gradient from `start` to `end`, padded beyond both.
public struct LinearGradient: Sendable, Equatable {
    public var start: Point, end: Point
    public var stops: [GradientStop]
    public init(start: Point, end: Point, stops: [GradientStop]) {
        self.start = start; self.end = end; self.stops = stops
    }
}

/// A radial gradient from `center` (offset 0) out to `radius` (offset 1), padded beyond — the
/// shape of SVProgressHUD's background mask.
public struct RadialGradient: Sendable, Equatable {
    public var center: Point
    public var radius: Double
    public var stops: [GradientStop]
    public init(center: Point, radius: Double, stops: [GradientStop]) {
        self.center = center; self.radius = radius; self.stops = stops
    }
}

/// What a shape is filled with.
public enum Paint {
    case solid(Color)
    case linear(LinearGradient)
    case radial(RadialGradient)
    /// A bitmap drawn unscaled with its top-left at `origin` (whole pixels); transparent outside.
    case image(Bitmap, originX: Int, originY: Int)
}

/// Computes the premultiplied colours of a horizontal run of pixels, sampled at pixel centres.
@usableFromInline
struct Shader {
    enum Kind { case linear(dx: Double, dy: Double, sx: Double, sy: Double, inv: Double)
                case radial(cx: Double, cy: Double, invR: Double)
                case image(Surface, ox: Int, oy: Int) }
    let kind: Kind
    /// Stops as straight 0…255 channel values, sorted by offset.
    let offsets: [Double]
    let channels: [(r: Double, g: Double, b: Double, a: Double)]
    let opacity: UInt32

    init?(_ paint: Paint, opacity: Double) {
        self.opacity = UInt32((clamp01(opacity) * 255).rounded())
        switch paint {
        case .solid: return nil
        case let .linear(g):
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
            let len2 = dx * dx + dy * dy
            kind = .linear(dx: dx, dy: dy, sx: g.start.x, sy: g.start.y, inv: len2 > 0 ? 1 / len2 : 0)
            (offsets, channels) = Shader.prepare(g.stops)
        case let .radial(g):
            kind = .radial(cx: g.center.x, cy: g.center.y, invR: g.radius > 0 ? 1 / g.radius : 0)
            (offsets, channels) = Shader.prepare(g.stops)
        case let .image(bm, ox, oy):
            kind = .image(bm.surface, ox: ox, oy: oy)
            offsets = []; channels = []
        }
    }

    static func prepare(_ stops: [GradientStop]) -> ([Double], [(r: Double, g: Double, b: Double, a: Double)]) {
        var s = stops.filter { $0.offset.isFinite }.sorted { $0.offset < $1.offset }
        if s.isEmpty { s = [GradientStop(0, .clear)] }
        return (s.map { clamp01($0.offset) },
                s.map { (clamp01($0.color.r) * 255, clamp01($0.color.g) * 255, clamp01($0.color.b) * 255,
                         clamp01($0.color.a) * 255) })
    }

    @inline(__always)
    func color(at t: Double) -> UInt32 {
        let n = offsets.count
        var c: (r: Double, g: Double, b: Double, a: Double)
        if n == 1 || !(t > offsets[0]) {
            c = channels[0]
        } else if t >= offsets[n - 1] {
            c = channels[n - 1]
        } else {
            var i = 1
            while offsets[i] < t { i += 1 }
            let o0 = offsets[i - 1], span = offsets[i] - o0
            let f = span > 0 ? (t - o0) / span : 1
            let a = channels[i - 1], b = channels[i]
            c = (a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, a.a + (b.a - a.a) * f)
        }
        let a = UInt32((c.a + 0.5).rounded(.down))
        let r = UInt32((c.r + 0.5).rounded(.down)), g = UInt32((c.g + 0.5).rounded(.down))
        let b = UInt32((c.b + 0.5).rounded(.down))
        var p = a == 255 ? (0xFF00_0000 | r << 16 | g << 8 | b)
            : (a << 24 | Blend.mul(r, a) << 16 | Blend.mul(g, a) << 8 | Blend.mul(b, a))
        if opacity != 255 { p = Blend.mul4(p, opacity) }
        return p
    }

    /// Every colour this shader makes is opaque: the two-stop linear fast path (an opaque
    /// gradient's pixels can be written straight into the destination row).
    var isOpaque: Bool {
        if case .linear = kind { return opaqueTwoStop }
        return false
    }

    /// Two stops at 0 and 1, both opaque, no opacity: `shade` computes each channel as
    /// `floor(c0 + (c1 − c0)·t + 0.5)`.
    var opaqueTwoStop: Bool {
        offsets.count == 2 && offsets[0] == 0 && offsets[1] == 1 && opacity == 255
            && channels[0].a == 255 && channels[1].a == 255
    }

    /// Fills `out[0..<count]` with the colours of pixels (x…x+count−1, y): the opaque two-stop
    /// linear gradient four pixels per step (`ShaderSpans.swift`), everything else as `shadeScalar`.
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        if case let .linear(dx, dy, sx, sy, inv) = kind, opaqueTwoStop {
            let py = Double(y) + 0.5 - sy
            let base = (Double(x) + 0.5 - sx) * dx + py * dy
            let done = Shader.linearOpaqueSpan(out, count, base: base, dx: dx, inv: inv, channels[0], channels[1])
            if done < count { shadeScalar(x: x, y: y, count: count, into: out, from: done) }
            return
        }
        shadeScalar(x: x, y: y, count: count, into: out)
    }

    /// `shade` one pixel at a time (the reference the tests compare with), for pixels
    /// `first..<count` of the run.
    func shadeScalar(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, from first: Int = 0) {
        switch kind {
        case let .linear(dx, dy, sx, sy, inv):
            let py = Double(y) + 0.5 - sy
            let base = (Double(x) + 0.5 - sx) * dx + py * dy
            if opaqueTwoStop {
                // Opaque two-stop fast path: floor(c0 + (c1 − c0)·t + 0.5) per channel.
                let c0 = channels[0], c1 = channels[1]
                let dr = c1.r - c0.r, dg = c1.g - c0.g, db = c1.b - c0.b
                for i in first..<count {
                    var t = (base + Double(i) * dx) * inv
                    t = t > 0 ? (t < 1 ? t : 1) : 0
                    let r = UInt32(c0.r + dr * t + 0.5), g = UInt32(c0.g + dg * t + 0.5), b = UInt32(c0.b + db * t + 0.5)
                    out[i] = 0xFF00_0000 | r << 16 | g << 8 | b
                }
                return
            }
            for i in first..<count { out[i] = color(at: (base + Double(i) * dx) * inv) }
        case let .radial(cx, cy, invR):
            let py = Double(y) + 0.5 - cy
            for i in first..<count {
                let px = Double(x + i) + 0.5 - cx
                out[i] = color(at: (px * px + py * py).squareRoot() * invR)
            }
        case let .image(s, ox, oy):
            let sy = y - oy
            for i in first..<count {
                let sx = x + i - ox
                if sy < 0 || sy >= s.height || sx < 0 || sx >= s.width {
                    out[i] = 0
                } else {
                    let p = s.pixel(x: sx, y: sy)
                    out[i] = opacity == 255 ? p : Blend.mul4(p, opacity)
                }
            }
        }
    }
}
