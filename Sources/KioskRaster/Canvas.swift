/// Draws into one surface: fills paths, masks, images; copies and blurs regions. Every operation
/// is limited to `clip` and adds what it touched to `damage`.
public final class Canvas {
    public let surface: Surface
    /// Nothing outside this rectangle is touched.
    public var clip: IntRect {
        didSet { clip = clip.intersection(surface.bounds) }
    }
    /// What the draws so far have touched (clipped bounding boxes).
    public var damage = DamageRegion()

    let rasterizer = Rasterizer()
    let table = CoverageTable()
    private var scratch: UnsafeMutablePointer<UInt32>
    private var scratchCount: Int

    public init(_ surface: Surface) {
        self.surface = surface
        clip = surface.bounds
        scratchCount = surface.width
        scratch = .allocate(capacity: surface.width)
    }

    deinit { scratch.deallocate() }

    /// Runs `body` with `clip` narrowed to `r`, then restores it.
    public func withClip<T>(_ r: IntRect, _ body: () throws -> T) rethrows -> T {
        let saved = clip
        clip = clip.intersection(r)
        defer { clip = saved }
        return try body()
    }

    // MARK: Fills

    /// Fills `path` with `paint` (SrcOver, anti-aliased).
    public func fill(_ path: Path, _ paint: Paint, opacity: Double = 1) {
        let box = path.bounds.enclosingPixels.intersection(clip)
        guard !box.isEmpty else { return }
        if case let .solid(color) = paint {
            let s = color.withOpacity(opacity).premultiplied.argb
            if s == 0 { return }
            switch surface.format {
            case .xrgb8888, .argb8888:
                table.prepare(s)
                var sink = SolidSink32(surface: surface, table: table, opaqueOr: surface.format == .xrgb8888 ? 0xFF00_0000 : 0)
                rasterizer.fill(path, clip: box, into: &sink)
            case .rgb565:
                var sink = SolidSink16(surface: surface, color: s)
                rasterizer.fill(path, clip: box, into: &sink)
            }
        } else {
            guard let shader = Shader(paint, opacity: opacity) else { return }
            var sink = ShaderSink(surface: surface, shader: shader, scratch: scratch)
            rasterizer.fill(path, clip: box, into: &sink)
        }
        damage.add(box)
    }

    /// Fills whole pixels of `r` with `paint` (no anti-aliasing needed).
    public func fill(_ r: IntRect, _ paint: Paint, opacity: Double = 1) {
        let box = r.intersection(clip)
        guard !box.isEmpty else { return }
        if case let .solid(color) = paint {
            let s = color.withOpacity(opacity).premultiplied.argb
            if s == 0 { return }
            fillSolid(box, s)
        } else {
            guard let shader = Shader(paint, opacity: opacity) else { return }
            // An opaque shader's colours are the result (SrcOver of alpha 255, X = 0xFF already):
            // shaded straight into the row, with no pass through `scratch`.
            let direct = shader.isOpaque && surface.format != .rgb565
            for y in box.minY..<box.maxY {
                if direct {
                    shader.shade(x: box.minX, y: y, count: box.width, into: surface.row32(y) + box.minX)
                } else {
                    shader.shade(x: box.minX, y: y, count: box.width, into: scratch)
                    blendRow(y, box.minX, box.width, scratch, coverage: 255)
                }
            }
        }
        damage.add(box)
    }

    /// Replaces every pixel of `r` with `color` (operator SOURCE).
    public func clear(_ r: IntRect? = nil, to color: Color = .clear) {
        let box = (r ?? surface.bounds).intersection(clip)
        guard !box.isEmpty else { return }
        let s = color.premultiplied.argb
        for y in box.minY..<box.maxY {
            switch surface.format {
            case .xrgb8888: (surface.row32(y) + box.minX).update(repeating: s | 0xFF00_0000, count: box.width)
            case .argb8888: (surface.row32(y) + box.minX).update(repeating: s, count: box.width)
            case .rgb565: (surface.row16(y) + box.minX).update(repeating: Blend.pack565(s), count: box.width)
            }
        }
        damage.add(box)
    }

    func fillSolid(_ box: IntRect, _ s: UInt32) {
        for y in box.minY..<box.maxY {
            switch surface.format {
            case .xrgb8888: Row32(surface.row32(y), opaqueOr: 0xFF00_0000).fill(box.minX, box.width, s)
            case .argb8888: Row32(surface.row32(y), opaqueOr: 0).fill(box.minX, box.width, s)
            case .rgb565: Row16(surface.row16(y)).fill(box.minX, box.width, s)
            }
        }
    }

    func blendRow(_ y: Int, _ x: Int, _ n: Int, _ src: UnsafePointer<UInt32>, coverage: UInt32) {
        switch surface.format {
        case .xrgb8888: Row32(surface.row32(y), opaqueOr: 0xFF00_0000).blend(x, src: src, n, coverage: coverage)
        case .argb8888: Row32(surface.row32(y), opaqueOr: 0).blend(x, src: src, n, coverage: coverage)
        case .rgb565: Row16(surface.row16(y)).blend(x, src: src, n, coverage: coverage)
        }
    }

    // MARK: Masks (glyphs)

    /// Blends `color` through an 8-bit coverage mask whose top-left goes at (`x`, `y`).
    /// `mask` holds `height` rows of `pitch` bytes.
    public func drawMask(_ mask: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int, x: Int, y: Int,
                         color: Color) {
        let s = color.premultiplied.argb
        drawMask(mask, width: width, height: height, pitch: pitch, x: x, y: y, premultiplied: s)
    }

    /// `drawMask` with an already premultiplied `0xAARRGGBB` colour (the hot path for text).
    /// `reportDamage: false` leaves damage to the caller (text adds one box per line, not one
    /// per glyph).
    public func drawMask(_ mask: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int, x: Int, y: Int,
                         premultiplied s: UInt32, reportDamage: Bool = true) {
        let box = IntRect(x: x, y: y, width: width, height: height).intersection(clip)
        guard !box.isEmpty, s != 0 else { return }
        let mx = box.minX - x
        if surface.format == .rgb565 {
            for row in box.minY..<box.maxY {
                Row16(surface.row16(row)).fill(box.minX, mask: mask + (row - y) * pitch + mx, box.width, s)
            }
        } else {
            table.prepare(s)
            let scaled = table.scaled, inverse = table.inverse, inverse2 = table.inverse2
            let or: UInt32 = surface.format == .xrgb8888 ? 0xFF00_0000 : 0
            let w = box.width
            let k = Blend.k257(w), k4 = Blend.k257x8(w)
            for row in box.minY..<box.maxY {
                let m = mask + (row - y) * pitch + mx
                let d = surface.row32(row) + box.minX
                var i = 0
                // Eight pixels at a time: skip an all-zero run with one load; otherwise gather
                // the colour and the inverse alpha (both halves of each lane) from the table.
                while i &+ 8 <= w {
                    let raw = UnsafeRawPointer(m + i).loadUnaligned(as: UInt64.self)
                    if raw != 0 {
                        @inline(__always) func c(_ k: Int) -> Int { Int(truncatingIfNeeded: raw >> (k &* 8)) & 0xFF }
                        let sv = SIMD8<UInt32>(scaled[c(0)], scaled[c(1)], scaled[c(2)], scaled[c(3)],
                                               scaled[c(4)], scaled[c(5)], scaled[c(6)], scaled[c(7)])
                        let iv = SIMD8<UInt32>(inverse2[c(0)], inverse2[c(1)], inverse2[c(2)], inverse2[c(3)],
                                               inverse2[c(4)], inverse2[c(5)], inverse2[c(6)], inverse2[c(7)])
                        let dp = UnsafeMutableRawPointer(d + i)
                        let dv = dp.loadUnaligned(as: SIMD8<UInt32>.self)
                        let out = (sv &+ Blend.mul8(dv, unsafeBitCast(iv, to: SIMD16<UInt16>.self), k)) | SIMD8(repeating: or)
                        dp.storeBytes(of: out, as: SIMD8<UInt32>.self)
                    }
                    i &+= 8
                }
                if i &+ 4 <= w {
                    let raw = UnsafeRawPointer(m + i).loadUnaligned(as: UInt32.self)
                    if raw != 0 {
                        @inline(__always) func c(_ k: Int) -> Int { Int(truncatingIfNeeded: raw >> (k &* 8)) & 0xFF }
                        let sv = SIMD4<UInt32>(scaled[c(0)], scaled[c(1)], scaled[c(2)], scaled[c(3)])
                        let iv = SIMD4<UInt32>(inverse2[c(0)], inverse2[c(1)], inverse2[c(2)], inverse2[c(3)])
                        let dp = UnsafeMutableRawPointer(d + i)
                        let dv = dp.loadUnaligned(as: SIMD4<UInt32>.self)
                        let out = (sv &+ Blend.mul4(dv, unsafeBitCast(iv, to: SIMD8<UInt16>.self), k4)) | SIMD4(repeating: or)
                        dp.storeBytes(of: out, as: SIMD4<UInt32>.self)
                    }
                    i &+= 4
                }
                while i < w {
                    let c = Int(m[i])
                    if c != 0 { d[i] = (scaled[c] &+ Blend.mul4(d[i], inverse[c])) | or }
                    i &+= 1
                }
            }
        }
        if reportDamage { damage.add(box) }
    }

    // MARK: Copies

    /// Copies `rect` from `source` (same size and format as this surface) unchanged (SOURCE).
    /// With `dim`, also puts that colour over the copied pixels in the same pass.
    public func copy(from source: Surface, rect: IntRect? = nil, dim: Color? = nil) {
        precondition(source.format == surface.format, "copy needs the same pixel format")
        let box = (rect ?? surface.bounds).intersection(clip).intersection(source.bounds)
        guard !box.isEmpty else { return }
        let bpp = surface.format.bytesPerPixel
        let d = dim?.premultiplied.argb ?? 0
        for y in box.minY..<box.maxY {
            let dst = surface.base + y * surface.stride + box.minX * bpp
            let src = source.base + y * source.stride + box.minX * bpp
            if d == 0 {
                dst.copyMemory(from: src, byteCount: box.width * bpp)
            } else if surface.format == .rgb565 {
                Blend.over565Span(dst.assumingMemoryBound(to: UInt16.self), src.assumingMemoryBound(to: UInt16.self), box.width, d)
            } else {
                Blend.overSpan(dst.assumingMemoryBound(to: UInt32.self), src.assumingMemoryBound(to: UInt32.self),
                               box.width, d, opaqueOr: surface.format == .xrgb8888 ? 0xFF00_0000 : 0)
            }
        }
        damage.add(box)
    }

    // MARK: Images

    /// Draws `image` scaled into `dest` with bilinear filtering and `opacity` (SrcOver).
    public func draw(_ image: Bitmap, in dest: Rect, opacity: Double = 1) {
        let box = dest.enclosingPixels.intersection(clip)
        guard !box.isEmpty, dest.width > 0, dest.height > 0 else { return }
        let src = image.surface
        let op = UInt32((clamp01(opacity) * 255).rounded())
        if op == 0 { return }
        let sx = Double(src.width) / dest.width, sy = Double(src.height) / dest.height
        let exact = sx == 1 && sy == 1 && dest.x == dest.x.rounded() && dest.y == dest.y.rounded()
        for y in box.minY..<box.maxY {
            let fy = (Double(y) + 0.5 - dest.y) * sy - 0.5
            for i in 0..<box.width {
                let x = box.minX + i
                var p: UInt32
                if exact {
                    let ix = x - Int(dest.x), iy = y - Int(dest.y)
                    p = (ix >= 0 && iy >= 0 && ix < src.width && iy < src.height) ? src.pixel(x: ix, y: iy) : 0
                } else {
                    p = Canvas.bilinear(src, (Double(x) + 0.5 - dest.x) * sx - 0.5, fy)
                }
                // Coverage of the destination rectangle's fractional edges.
                let cx = min(1, min(Double(x) + 1, dest.maxX) - max(Double(x), dest.x))
                let cy = min(1, min(Double(y) + 1, dest.maxY) - max(Double(y), dest.y))
                let cov = UInt32((max(0, cx) * max(0, cy) * Double(op)).rounded())
                scratch[i] = cov == 255 ? p : Blend.mul4(p, cov)
            }
            blendRow(y, box.minX, box.width, scratch, coverage: 255)
        }
        damage.add(box)
    }

    static func bilinear(_ s: Surface, _ fx: Double, _ fy: Double) -> UInt32 {
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let wx = UInt32(((fx - Double(x0)) * 256).rounded()), wy = UInt32(((fy - Double(y0)) * 256).rounded())
        func px(_ x: Int, _ y: Int) -> UInt32 {
            s.pixel(x: min(max(x, 0), s.width - 1), y: min(max(y, 0), s.height - 1))
        }
        let a = px(x0, y0), b = px(x0 + 1, y0), c = px(x0, y0 + 1), d = px(x0 + 1, y0 + 1)
        var out: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF, cc = (c >> shift) & 0xFF, cd = (d >> shift) & 0xFF
            let top = ca * (256 - wx) + cb * wx, bot = cc * (256 - wx) + cd * wx
            let v = (top * (256 - wy) + bot * wy + 32768) >> 16
            out |= min(v, 255) << shift
        }
        return out
    }

    // MARK: Blur

    /// Blurs the pixels of `rect` in place: three box passes each way (≈ a Gaussian of
    /// σ ≈ radius·0.6). Edge pixels are clamped.
    public func blur(_ rect: IntRect, radius: Int) {
        let box = rect.intersection(clip)
        guard !box.isEmpty, radius > 0 else { return }
        boxBlur(surface, box, radius: radius)
        damage.add(box)
    }
}

// MARK: - Sinks

struct SolidSink32: SpanSink {
    let surface: Surface
    let opaqueOr: UInt32
    let scaled: UnsafeMutablePointer<UInt32>
    let inverse: UnsafeMutablePointer<UInt32>

    init(surface: Surface, table: CoverageTable, opaqueOr: UInt32) {
        self.surface = surface; self.opaqueOr = opaqueOr
        scaled = table.scaled; inverse = table.inverse
    }

    @inline(__always)
    mutating func span(x: Int, y: Int, count: Int, coverage: UInt32) {
        let p = surface.row32(y) + x
        let s = scaled[Int(coverage)], ia = inverse[Int(coverage)]
        if count < 8 {
            if ia == 0 {
                p.update(repeating: s | opaqueOr, count: count)
            } else {
                for i in 0..<count { p[i] = (s &+ Blend.mul4(p[i], ia)) | opaqueOr }
            }
        } else {
            Row32(p, opaqueOr: opaqueOr).fill(0, count, s)
        }
    }
}

struct SolidSink16: SpanSink {
    let surface: Surface
    let color: UInt32
    mutating func span(x: Int, y: Int, count: Int, coverage: UInt32) {
        Row16(surface.row16(y)).fill(x, count, coverage == 255 ? color : Blend.mul4(color, coverage))
    }
}

struct ShaderSink: SpanSink {
    let surface: Surface
    let shader: Shader
    let scratch: UnsafeMutablePointer<UInt32>
    mutating func span(x: Int, y: Int, count: Int, coverage: UInt32) {
        if coverage == 255 && shader.isOpaque && surface.format != .rgb565 {
            shader.shade(x: x, y: y, count: count, into: surface.row32(y) + x)
            return
        }
        shader.shade(x: x, y: y, count: count, into: scratch)
        switch surface.format {
        case .xrgb8888: Row32(surface.row32(y), opaqueOr: 0xFF00_0000).blend(x, src: scratch, count, coverage: coverage)
        case .argb8888: Row32(surface.row32(y), opaqueOr: 0).blend(x, src: scratch, count, coverage: coverage)
        case .rgb565: Row16(surface.row16(y)).blend(x, src: scratch, count, coverage: coverage)
        }
    }
}
