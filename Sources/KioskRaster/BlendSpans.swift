/// SrcOver over whole spans of 32-bit pixels, eight pixels per step, with exactly the scalar
/// `Blend` results (pixman's rounding in every channel). The full-frame paths go through here:
/// the dim (one colour over every pixel), the blit + dim (the same, read from another surface),
/// the rounded-rectangle spans of the bezel, and per-pixel sources (gradients, images, layers).
///
/// Eight pixels are one `SIMD8<UInt32>` viewed as sixteen 16-bit lanes: red/blue of each pixel in
/// one pair of lanes, alpha/green in another, so every channel product `a·b + 128` fits a 16-bit
/// lane and multiplies in one instruction on SSE2 (pmullw) and NEON (mul .8h). The division by 255
/// is `div255`. The scalar loops at the end (`…Scalar`) are the reference the tests compare with,
/// and they do spans shorter than eight pixels; a longer span's last 0–7 pixels are one more
/// eight-pixel step over its last eight (`src` is either `dst` itself or does not overlap it).
extension Blend {
    /// 257 in every lane, for `div255`. It is built from a run-time value, the span's length `n`
    /// (a pixel count, far below 2^48, so the shifted part is 0), because LLVM rewrites a multiply
    /// by the constant 257 as a shift and an add on 32-bit lanes (six instructions for eight lanes
    /// on SSE2) where a multiplier it cannot see stays one high multiply (pmulhuw).
    @inline(__always)
    static func k257(_ n: Int) -> SIMD16<UInt16> {
        SIMD16(repeating: 257 | UInt16(truncatingIfNeeded: UInt(bitPattern: n) >> 48))
    }

    /// pixman's `(t + (t >> 8)) >> 8` in every lane, for `t = a·b + 128` with a, b ≤ 255 (and for
    /// `t = n + 1`, n < 65535, where it is ⌊n / 255⌋). `k` is `k257`.
    ///
    /// On x86 this is `(t·257) >> 16`, equal for every 16-bit t (⌊(t + ⌊t/256⌋)/256⌋ =
    /// ⌊(t + t/256)/256⌋ because t is whole), one pmulhuw instead of copy, shift, add, shift.
    /// NEON has no 16-bit high multiply but a shift-right-and-accumulate (usra), so there the
    /// formula stays as pixman writes it.
    @inline(__always)
    static func div255(_ t: SIMD16<UInt16>, _ k: SIMD16<UInt16>) -> SIMD16<UInt16> {
        #if arch(x86_64) || arch(i386)
        // In halves: the SIMD16 widening conversions are not inlined (a call per step).
        return SIMD16(lowHalf: div255(t.lowHalf, k.lowHalf), highHalf: div255(t.highHalf, k.highHalf))
        #else
        return (t &+ (t &>> 8)) &>> 8
        #endif
    }

    /// Eight pixels, each channel times the factor in its lane (`a`: 0…255, the same in both
    /// 16-bit halves of a pixel), rounded like `mul`.
    @inline(__always)
    static func mul8(_ x: SIMD8<UInt32>, _ a: SIMD16<UInt16>, _ k: SIMD16<UInt16>) -> SIMD8<UInt32> {
        let v = unsafeBitCast(x, to: SIMD16<UInt16>.self)
        let h = SIMD16<UInt16>(repeating: 128)
        let rb = div255((v & 0x00FF) &* a &+ h, k)
        let ag = div255((v &>> 8) &* a &+ h, k)
        return unsafeBitCast(rb | (ag &<< 8), to: SIMD8<UInt32>.self)
    }

    /// `k257` for four pixels' lanes.
    @inline(__always)
    static func k257x8(_ n: Int) -> SIMD8<UInt16> {
        SIMD8(repeating: 257 | UInt16(truncatingIfNeeded: UInt(bitPattern: n) >> 48))
    }

    /// `div255` on eight lanes.
    @inline(__always)
    static func div255(_ t: SIMD8<UInt16>, _ k: SIMD8<UInt16>) -> SIMD8<UInt16> {
        #if arch(x86_64) || arch(i386)
        return narrow((widen(t) &* widen(k)) &>> 16)
        #else
        return (t &+ (t &>> 8)) &>> 8
        #endif
    }

    /// Each lane zero-extended to 32 bits. Written lane by lane because the standard library's
    /// `init(truncatingIfNeeded:)` is a generic loop that the optimizer leaves as a call per use
    /// here; LLVM turns these lanes back into one vector conversion.
    @inline(__always)
    static func widen(_ t: SIMD8<UInt16>) -> SIMD8<UInt32> {
        SIMD8(UInt32(t[0]), UInt32(t[1]), UInt32(t[2]), UInt32(t[3]), UInt32(t[4]), UInt32(t[5]), UInt32(t[6]), UInt32(t[7]))
    }

    /// The low 16 bits of each lane (see `widen`).
    @inline(__always)
    static func narrow(_ w: SIMD8<UInt32>) -> SIMD8<UInt16> {
        SIMD8(UInt16(truncatingIfNeeded: w[0]), UInt16(truncatingIfNeeded: w[1]), UInt16(truncatingIfNeeded: w[2]),
              UInt16(truncatingIfNeeded: w[3]), UInt16(truncatingIfNeeded: w[4]), UInt16(truncatingIfNeeded: w[5]),
              UInt16(truncatingIfNeeded: w[6]), UInt16(truncatingIfNeeded: w[7]))
    }

    /// `mul8` for four pixels.
    @inline(__always)
    static func mul4(_ x: SIMD4<UInt32>, _ a: SIMD8<UInt16>, _ k: SIMD8<UInt16>) -> SIMD4<UInt32> {
        let v = unsafeBitCast(x, to: SIMD8<UInt16>.self)
        let h = SIMD8<UInt16>(repeating: 128)
        let rb = div255((v & 0x00FF) &* a &+ h, k)
        let ag = div255((v &>> 8) &* a &+ h, k)
        return unsafeBitCast(rb | (ag &<< 8), to: SIMD4<UInt32>.self)
    }

    /// `255 − alpha` of eight premultiplied pixels, in both 16-bit halves of each pixel.
    @inline(__always)
    static func inverseAlpha8(_ s: SIMD8<UInt32>) -> SIMD16<UInt16> {
        let ia = ~s &>> 24
        return unsafeBitCast(ia | (ia &<< 16), to: SIMD16<UInt16>.self)
    }

    /// `n` pixels: `dst[i] = s + src[i]·(255 − sa)`, one premultiplied colour over each pixel (the
    /// dim; with `src` another surface, the blit and the dim in one pass that reads the source
    /// once and writes the destination once). `src` may equal `dst`.
    static func overSpan(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ n: Int, _ s: UInt32,
                         opaqueOr: UInt32) {
        var i = 0
        if n >= 8 {
            let k = k257(n)
            let ia = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- (s >> 24)))
            let sv = SIMD8<UInt32>(repeating: s), orv = SIMD8<UInt32>(repeating: opaqueOr)
            let rs = UnsafeRawPointer(src), rd = UnsafeMutableRawPointer(dst)
            // The loop is ALU-bound (24 vector operations per eight pixels on SSE2), so the last
            // step is specialised: ARGB needs only `+ s`; XRGB under a colour with no red, green or
            // blue (a black dim) needs only the X byte, since `+ s` changes no other byte.
            // The last 0–7 pixels are one more step over the span's last eight, read before
            // anything is written: the pixels both steps cover get the same value from the same
            // original, where the scalar loop took 15–20 instructions a pixel (a 198-px bezel row:
            // 24 steps and 6 pixels).
            let last = n &- 8
            @inline(__always) func run(_ mul: (SIMD8<UInt32>) -> SIMD8<UInt32>, _ finish: (SIMD8<UInt32>) -> SIMD8<UInt32>) {
                let tail = rs.loadUnaligned(fromByteOffset: last &* 4, as: SIMD8<UInt32>.self)
                while i &+ 8 <= n {
                    let v = rs.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    rd.storeBytes(of: finish(mul(v)), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    i &+= 8
                }
                if i < n {
                    rd.storeBytes(of: finish(mul(tail)), toByteOffset: last &* 4, as: SIMD8<UInt32>.self)
                    i = n
                }
            }
            @inline(__always) func run(_ mul: (SIMD8<UInt32>) -> SIMD8<UInt32>) {
                if opaqueOr == 0 {
                    run(mul) { sv &+ $0 }
                } else if s & 0x00FF_FFFF == 0 {
                    run(mul) { $0 | orv }
                } else {
                    run(mul) { (sv &+ $0) | orv }
                }
            }
            // One high multiply per lane where the factor has a ConstantMultiply pair — on x86,
            // where that is one pmulhuw. NEON has no 16-bit high multiply: each becomes umull,
            // umull2 and uzp2, 31–37 instructions and eight widening multiplies per eight pixels
            // against 25–29 and four mla for pixman's formula (arm64 disassembly,
            // docs/measurements.md), so there every factor takes the two-multiply path. Both are
            // exact: the pixels are the same.
            #if arch(x86_64) || arch(i386)
            let e = ConstantMultiply.entry(255 &- (s >> 24))
            if e != 0 {
                let m = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: e >> 8))
                let c = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: e & 0xFF))
                run { ConstantMultiply.mul8($0, m, c) }
            } else {
                run { mul8($0, ia, k) }
            }
            #else
            run { mul8($0, ia, k) }
            #endif
        }
        overSpanScalar(dst + i, src + i, n &- i, s, opaqueOr: opaqueOr)
    }

    /// `n` per-pixel premultiplied sources scaled by coverage `cov` (0…255) over `dst`: what
    /// `Row32.blend(_:src:_:coverage:)` does, eight pixels per step. With `cov` 255 a pixel whose
    /// source is 0 keeps its bytes (X included), like the scalar path.
    static func blendSpan(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ n: Int, coverage cov: UInt32,
                          opaqueOr: UInt32) {
        var i = 0
        if n >= 8 {
            let k = k257(n)
            let covv = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: cov))
            let orv = SIMD8<UInt32>(repeating: opaqueOr)
            let rs = UnsafeRawPointer(src), rd = UnsafeMutableRawPointer(dst)
            // As in overSpan: the last 0–7 pixels as one overlapping step, read before the loop.
            let last = n &- 8
            @inline(__always) func run(_ step: (SIMD8<UInt32>, SIMD8<UInt32>) -> SIMD8<UInt32>) {
                let ts = rs.loadUnaligned(fromByteOffset: last &* 4, as: SIMD8<UInt32>.self)
                let td = rd.loadUnaligned(fromByteOffset: last &* 4, as: SIMD8<UInt32>.self)
                while i &+ 8 <= n {
                    let s = rs.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    let d = rd.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    rd.storeBytes(of: step(s, d), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    i &+= 8
                }
                if i < n {
                    rd.storeBytes(of: step(ts, td), toByteOffset: last &* 4, as: SIMD8<UInt32>.self)
                    i = n
                }
            }
            // The steps are local functions, not closure literals: Swift 6.0 (Debian 13's
            // swiftlang, the arm64 package's compiler) left such closures as a call per step.
            @inline(__always) func whole(_ s: SIMD8<UInt32>, _ d: SIMD8<UInt32>) -> SIMD8<UInt32> {
                // s = 0 leaves the pixel as it was: s + d·255 = d, and no X byte is set.
                let or = orv.replacing(with: 0, where: s .== 0)
                return (s &+ mul8(d, inverseAlpha8(s), k)) | or
            }
            @inline(__always) func covered(_ s0: SIMD8<UInt32>, _ d: SIMD8<UInt32>) -> SIMD8<UInt32> {
                let s = mul8(s0, covv, k)
                return (s &+ mul8(d, inverseAlpha8(s), k)) | orv
            }
            if cov == 255 { run(whole) } else { run(covered) }
        }
        blendSpanScalar(dst + i, src + i, n &- i, coverage: cov, opaqueOr: opaqueOr)
    }

    // MARK: Scalar reference

    /// `overSpan`, one pixel at a time (the reference, and the tail of each span).
    static func overSpanScalar(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ n: Int, _ s: UInt32,
                               opaqueOr: UInt32) {
        let ia = 255 &- (s >> 24)
        var i = 0
        while i < n {
            dst[i] = (s &+ mul4(src[i], ia)) | opaqueOr
            i &+= 1
        }
    }

    /// `blendSpan`, one pixel at a time (the reference, and the tail of each span).
    static func blendSpanScalar(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ n: Int,
                                coverage cov: UInt32, opaqueOr: UInt32) {
        var i = 0
        if cov == 255 {
            while i < n {
                let s = src[i]
                let sa = s >> 24
                if sa == 255 { dst[i] = s | opaqueOr } else if s != 0 {
                    dst[i] = (s &+ mul4(dst[i], 255 &- sa)) | opaqueOr
                }
                i &+= 1
            }
        } else {
            while i < n {
                let s = mul4(src[i], cov)
                dst[i] = (s &+ mul4(dst[i], 255 &- (s >> 24))) | opaqueOr
                i &+= 1
            }
        }
    }
}
