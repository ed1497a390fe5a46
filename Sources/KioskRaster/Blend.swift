/// SrcOver on 8-bit premultiplied pixels with pixman's rounding (scene.md §1):
/// `d' = s·cov + d·(255 − sa·cov)` where every product is `MUL(a,b) = (t + (t >> 8)) >> 8`,
/// `t = a·b + 128`. Two channels go through one 32-bit multiply (pixman's UN8x4_MUL_UN8); long
/// spans run eight pixels per step in `BlendSpans.swift` (32-bit) and `Blend565.swift` (RGB565).
public enum Blend {
    /// pixman's rounded 8-bit product.
    @inlinable @inline(__always)
    public static func mul(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// All four channels of `x` times `a` (0…255), each rounded like `mul`.
    @inlinable @inline(__always)
    public static func mul4(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (x & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((x >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// One pixel: premultiplied source `s` (with its alpha in the top byte) over `d`.
    @inlinable @inline(__always)
    public static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        s &+ mul4(d, 255 &- (s >> 24))
    }

    /// Source `s` scaled by coverage `cov` (0…255), over `d`.
    @inlinable @inline(__always)
    public static func over(_ s: UInt32, _ d: UInt32, coverage cov: UInt32) -> UInt32 {
        over(mul4(s, cov), d)
    }

    // MARK: RGB565

    /// RGB565 → opaque `0xFFRRGGBB` (each channel's high bits repeated into the low ones).
    @inlinable @inline(__always)
    public static func expand565(_ p: UInt16) -> UInt32 {
        let v = UInt32(p)
        let r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31
        return 0xFF00_0000 | ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
    }

    /// `0x??RRGGBB` → RGB565 (rounded to nearest).
    @inlinable @inline(__always)
    public static func pack565(_ p: UInt32) -> UInt16 {
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        let r5 = (r &* 31 &+ 127) / 255, g6 = (g &* 63 &+ 127) / 255, b5 = (b &* 31 &+ 127) / 255
        return UInt16(truncatingIfNeeded: r5 << 11 | g6 << 5 | b5)
    }
}

/// Span writers for one row of one surface format. `opaqueOr` is 0xFF000000 for XRGB8888 (the X
/// byte is written as 0xFF) and 0 for ARGB8888.
struct Row32 {
    let p: UnsafeMutablePointer<UInt32>
    let opaqueOr: UInt32

    init(_ p: UnsafeMutablePointer<UInt32>, opaqueOr: UInt32) { self.p = p; self.opaqueOr = opaqueOr }

    /// `count` pixels from `x` get premultiplied `s` over them.
    func fill(_ x: Int, _ count: Int, _ s: UInt32) {
        let sa = s >> 24
        if sa == 255 {
            (p + x).update(repeating: s | opaqueOr, count: count)
            return
        }
        if s == 0 { return }
        Blend.overSpan(p + x, p + x, count, s, opaqueOr: opaqueOr)
    }

    /// Per-pixel premultiplied sources `src[0..<count]`, scaled by a constant coverage.
    func blend(_ x: Int, src: UnsafePointer<UInt32>, _ count: Int, coverage cov: UInt32) {
        Blend.blendSpan(p + x, src, count, coverage: cov, opaqueOr: opaqueOr)
    }

    /// Per-pixel sources and per-pixel coverage.
    func blend(_ x: Int, src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count {
            let m = UInt32(mask[i])
            if m == 0 { continue }
            let s = m == 255 ? src[i] : Blend.mul4(src[i], m)
            p[x &+ i] = (s &+ Blend.mul4(p[x &+ i], 255 &- (s >> 24))) | opaqueOr
        }
    }
}

/// Span writer for RGB565 rows: expand, blend, pack.
struct Row16 {
    let p: UnsafeMutablePointer<UInt16>
    init(_ p: UnsafeMutablePointer<UInt16>) { self.p = p }

    func put(_ i: Int, _ s: UInt32) {
        let sa = s >> 24
        if sa == 255 { p[i] = Blend.pack565(s); return }
        if s == 0 { return }
        p[i] = Blend.pack565(s &+ Blend.mul4(Blend.expand565(p[i]), 255 &- sa))
    }

    func fill(_ x: Int, _ count: Int, _ s: UInt32) {
        if s >> 24 == 255 {
            (p + x).update(repeating: Blend.pack565(s), count: count)
            return
        }
        if s == 0 { return }
        Blend.over565Span(p + x, p + x, count, s)
    }

    func fill(_ x: Int, mask: UnsafePointer<UInt8>, _ count: Int, _ s: UInt32) {
        for i in 0..<count where mask[i] != 0 { put(x + i, Blend.mul4(s, UInt32(mask[i]))) }
    }

    func blend(_ x: Int, src: UnsafePointer<UInt32>, _ count: Int, coverage cov: UInt32) {
        Blend.blend565Span(p + x, src, count, coverage: cov)
    }

    func blend(_ x: Int, src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count where mask[i] != 0 { put(x + i, Blend.mul4(src[i], UInt32(mask[i]))) }
    }
}
