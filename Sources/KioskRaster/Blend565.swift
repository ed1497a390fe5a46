/// SrcOver onto RGB565 spans, sixteen pixels per step, with exactly the scalar `Row16` results:
/// each pixel is expanded to 8-bit channels (`Blend.expand565`), blended with pixman's rounding,
/// and packed back rounded to nearest (`Blend.pack565`).
///
/// Sixteen pixels are one `SIMD16<UInt16>`, and each channel gets a vector of its own: every
/// product stays within 16 bits. Packing `⌊(c·31 + 127) / 255⌋` is pixman's MUL(c, 31) — the
/// exactly rounded c·31/255, which has no ties — so it is the same `div255` as the blend
/// (checked for every c in the tests), and a full expand → pack round trip gives the pixel back.
extension Blend {
    /// Sixteen RGB565 pixels as 8-bit red, green and blue vectors.
    @inline(__always)
    static func expand565(_ v: SIMD16<UInt16>) -> (r: SIMD16<UInt16>, g: SIMD16<UInt16>, b: SIMD16<UInt16>) {
        let r = v &>> 11, g = (v &>> 5) & 63, b = v & 31
        return ((r &<< 3) | (r &>> 2), (g &<< 2) | (g &>> 4), (b &<< 3) | (b &>> 2))
    }

    /// 8-bit red, green and blue vectors packed as RGB565, each rounded to nearest.
    @inline(__always)
    static func pack565(_ r: SIMD16<UInt16>, _ g: SIMD16<UInt16>, _ b: SIMD16<UInt16>, _ k: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let h = SIMD16<UInt16>(repeating: 128)
        let r5 = div255(r &* 31 &+ h, k), g6 = div255(g &* 63 &+ h, k), b5 = div255(b &* 31 &+ h, k)
        return (r5 &<< 11) | (g6 &<< 5) | b5
    }

    /// `n` RGB565 pixels: `dst[i] = pack565(s + expand565(src[i])·(255 − sa))`, one premultiplied
    /// colour over each pixel (`Row16.fill`, and the blit + dim in one pass). `src` may equal `dst`.
    static func over565Span(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt16>, _ n: Int, _ s: UInt32) {
        var i = 0
        if n >= 16 {
            let k = k257(n), h = SIMD16<UInt16>(repeating: 128)
            let ia = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- (s >> 24)))
            let sr = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: (s >> 16) & 0xFF))
            let sg = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: (s >> 8) & 0xFF))
            let sb = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: s & 0xFF))
            let rs = UnsafeRawPointer(src), rd = UnsafeMutableRawPointer(dst)
            while i &+ 16 <= n {
                let d = expand565(rs.loadUnaligned(fromByteOffset: i &* 2, as: SIMD16<UInt16>.self))
                let r = sr &+ div255(d.r &* ia &+ h, k), g = sg &+ div255(d.g &* ia &+ h, k)
                let b = sb &+ div255(d.b &* ia &+ h, k)
                rd.storeBytes(of: pack565(r, g, b, k), toByteOffset: i &* 2, as: SIMD16<UInt16>.self)
                i &+= 16
            }
        }
        over565SpanScalar(dst + i, src + i, n &- i, s)
    }

    /// `n` per-pixel premultiplied 32-bit sources scaled by coverage `cov` over RGB565 pixels
    /// (`Row16.blend(_:src:_:coverage:)`).
    static func blend565Span(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ n: Int, coverage cov: UInt32) {
        var i = 0
        if n >= 16 {
            let k = k257(n), h = SIMD16<UInt16>(repeating: 128)
            let covv = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: cov))
            let rs = UnsafeRawPointer(src), rd = UnsafeMutableRawPointer(dst)
            while i &+ 16 <= n {
                var lo = rs.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                var hi = rs.loadUnaligned(fromByteOffset: i &* 4 &+ 32, as: SIMD8<UInt32>.self)
                if cov != 255 { lo = mul8(lo, covv, k); hi = mul8(hi, covv, k) }
                @inline(__always) func lanes(_ shift: UInt32) -> SIMD16<UInt16> {
                    SIMD16(lowHalf: narrow((lo &>> shift) & 0xFF), highHalf: narrow((hi &>> shift) & 0xFF))
                }
                let ia = 255 &- lanes(24)
                let d = expand565(rd.loadUnaligned(fromByteOffset: i &* 2, as: SIMD16<UInt16>.self))
                let r = lanes(16) &+ div255(d.r &* ia &+ h, k), g = lanes(8) &+ div255(d.g &* ia &+ h, k)
                let b = lanes(0) &+ div255(d.b &* ia &+ h, k)
                rd.storeBytes(of: pack565(r, g, b, k), toByteOffset: i &* 2, as: SIMD16<UInt16>.self)
                i &+= 16
            }
        }
        blend565SpanScalar(dst + i, src + i, n &- i, coverage: cov)
    }

    // MARK: Scalar reference

    /// `over565Span`, one pixel at a time (the reference, and the tail of each span).
    static func over565SpanScalar(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt16>, _ n: Int, _ s: UInt32) {
        let ia = 255 &- (s >> 24)
        var i = 0
        while i < n {
            dst[i] = pack565(s &+ mul4(expand565(src[i]), ia))
            i &+= 1
        }
    }

    /// `blend565Span`, one pixel at a time (the reference, and the tail of each span).
    static func blend565SpanScalar(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ n: Int, coverage cov: UInt32) {
        var i = 0
        while i < n {
            Row16(dst).put(i, cov == 255 ? src[i] : mul4(src[i], cov))
            i &+= 1
        }
    }
}
