@testable import KioskRaster
import Testing

/// Four scalar MULs, one per byte of `x`.
private func scalarMul4(_ x: UInt32, _ a: UInt32) -> UInt32 {
    var out: UInt32 = 0
    for shift: UInt32 in [0, 8, 16, 24] { out |= Blend.mul((x >> shift) & 0xFF, a) << shift }
    return out
}

@Suite("Blend")
struct BlendTests {
    // Rule: MUL(a,b) = (t + (t >> 8)) >> 8 with t = a·b + 128, for all 65536 pairs.
    @Test func mulIsPixmanFormulaForAllPairs() {
        var mismatches: [(UInt32, UInt32)] = []
        for a in UInt32(0)...255 {
            for b in UInt32(0)...255 {
                let t = a * b + 128
                if Blend.mul(a, b) != (t + (t >> 8)) >> 8 { mismatches.append((a, b)) }
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    // Rule: for 8-bit inputs pixman's MUL is the exactly rounded a·b/255 (no ties exist), symmetric.
    @Test func mulIsRoundedQuotient() {
        var bad = 0
        for a in UInt32(0)...255 {
            for b in UInt32(0)...255 where Blend.mul(a, b) != (2 * a * b + 255) / 510 || Blend.mul(a, b) != Blend.mul(b, a) {
                bad += 1
            }
        }
        #expect(bad == 0)
    }

    // Rule: 255 is MUL's identity and 0 its zero.
    @Test func mulIdentityAndZero() {
        for x in UInt32(0)...255 where Blend.mul(x, 255) != x || Blend.mul(255, x) != x || Blend.mul(x, 0) != 0 {
            Issue.record("mul identity/zero broken for \(x)")
        }
    }

    // Rule: mul4 (two channels per 32-bit multiply) equals four scalar MULs, on random pixels.
    @Test func mul4EqualsFourScalarMuls() {
        var rng = SplitMix64(seed: 1)
        var bad: [(UInt32, UInt32)] = []
        for i in 0..<40_000 {
            let x = i < 256 ? 0xFFFF_FFFF : UInt32.random(in: 0...UInt32.max, using: &rng)
            let a = i < 256 ? UInt32(i) : UInt32.random(in: 0...255, using: &rng)
            if Blend.mul4(x, a) != scalarMul4(x, a) { bad.append((x, a)) }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: the SIMD mul8 (eight pixels in 16-bit lanes) and mul4 (four) equal the scalar mul4 in every
    // lane, for every factor.
    @Test func simdMul4EqualsScalar() {
        var rng = SplitMix64(seed: 2)
        var bad = 0
        for i in 0..<2_000 {
            var v = SIMD8<UInt32>()
            for k in 0..<8 { v[k] = i == 0 ? 0xFFFF_FFFF : UInt32.random(in: 0...UInt32.max, using: &rng) }
            let a = UInt32(i % 256)
            let r = Blend.mul8(v, SIMD16<UInt16>(repeating: UInt16(a)), Blend.k257(8))
            for k in 0..<8 where r[k] != Blend.mul4(v[k], a) { bad += 1 }
            let v4 = SIMD4<UInt32>(v[0], v[1], v[2], v[3])
            let r4 = Blend.mul4(v4, SIMD8<UInt16>(repeating: UInt16(a)), Blend.k257x8(4))
            for k in 0..<4 where r4[k] != Blend.mul4(v[k], a) { bad += 1 }
        }
        #expect(bad == 0)
    }

    // Rule: SrcOver of an opaque source replaces the destination.
    @Test func overWithOpaqueSourceReplaces() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let s = randomPremultiplied(&rng, opaque: true), d = UInt32.random(in: 0...UInt32.max, using: &rng)
            #expect(Blend.over(s, d) == s)
        }
    }

    // Rule: SrcOver of the transparent source 0 leaves the destination untouched.
    @Test func overWithTransparentSourceKeeps() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<2_000 {
            let d = UInt32.random(in: 0...UInt32.max, using: &rng)
            #expect(Blend.over(0, d) == d)
            #expect(Blend.over(0xFF12_3456, d, coverage: 0) == d)
        }
    }

    // Rule: over(s, d) = s + MUL(d, 255 − sa) per channel; with coverage m the source is MUL(s, m) first.
    @Test func overIsPerChannelSrcOver() {
        var rng = SplitMix64(seed: 5)
        var bad = 0
        for _ in 0..<5_000 {
            let s = randomPremultiplied(&rng), d = randomPremultiplied(&rng)
            let m = UInt32.random(in: 0...255, using: &rng)
            var expected: UInt32 = 0, expectedM: UInt32 = 0
            let sm = scalarMul4(s, m)
            for shift: UInt32 in [0, 8, 16, 24] {
                let sc = (s >> shift) & 0xFF, dc = (d >> shift) & 0xFF
                expected |= (sc + Blend.mul(dc, 255 - (s >> 24))) << shift
                expectedM |= (((sm >> shift) & 0xFF) + Blend.mul(dc, 255 - (sm >> 24))) << shift
            }
            if Blend.over(s, d) != expected || Blend.over(s, d, coverage: m) != expectedM { bad += 1 }
            if Blend.over(s, d, coverage: 255) != Blend.over(s, d) { bad += 1 }
        }
        #expect(bad == 0)
    }

    // Rule: overSpan (eight-pixel SIMD body plus scalar tail) equals per-pixel over for every length,
    // in place and from a separate source (ARGB8888: nothing is OR-ed in).
    @Test func overSpanEqualsPerPixelOver() {
        var rng = SplitMix64(seed: 6)
        for n in 0...27 {
            for inPlace in [false, true] {
                let s = randomPremultiplied(&rng)
                var src = (0..<n).map { _ in randomPremultiplied(&rng) }
                var dst = [UInt32](repeating: 0xDEAD_BEEF, count: n + 1)  // one guard pixel
                let expected = src.map { Blend.over(s, $0) }
                src.withUnsafeMutableBufferPointer { sp in
                    dst.withUnsafeMutableBufferPointer { dp in
                        if inPlace {
                            Blend.overSpan(sp.baseAddress!, sp.baseAddress!, n, s, opaqueOr: 0)
                        } else {
                            Blend.overSpan(dp.baseAddress!, sp.baseAddress!, n, s, opaqueOr: 0)
                        }
                    }
                }
                #expect((inPlace ? src : Array(dst.prefix(n))) == expected, "n = \(n), inPlace = \(inPlace)")
                #expect(dst[n] == 0xDEAD_BEEF, "wrote past the span, n = \(n)")
            }
        }
    }

    // Rule: on XRGB8888 (opaqueOr 0xFF000000) overSpan writes over(s, d) with the X byte 0xFF, in the
    // SIMD body as in the scalar tail. The SIMD body ORs before adding, so the X byte carries.
    @Test func overSpanXRGBWritesFFInXByte() {
        let s = Color(white: 0, a: 0.5).premultiplied.argb  // 0x80000000
        var row = [UInt32](repeating: 0xFF33_6699, count: 12)  // 8 SIMD pixels + 4 tail pixels
        row.withUnsafeMutableBufferPointer { Blend.overSpan($0.baseAddress!, $0.baseAddress!, 12, s, opaqueOr: 0xFF00_0000) }
        let expected = Blend.over(s, 0xFF33_6699) | 0xFF00_0000
        #expect(Array(row[8...]) == Array(repeating: expected, count: 4))  // scalar tail
        #expect(Array(row[..<8]) == Array(repeating: expected, count: 8))
    }

    // Rule: RGB565 expand then pack gives back every one of the 65536 values.
    @Test func rgb565RoundTripsAllValues() {
        var bad: [UInt16] = []
        for v in 0...0xFFFF where Blend.pack565(Blend.expand565(UInt16(v))) != UInt16(v) { bad.append(UInt16(v)) }
        #expect(bad.isEmpty, "first: \(bad.prefix(5))")
    }

    // Rule: expand565 is opaque and repeats the high bits; pack565 rounds each channel to nearest.
    @Test func rgb565ExpandAndPackRounding() {
        #expect(Blend.expand565(0xFFFF) == 0xFFFF_FFFF)
        #expect(Blend.expand565(0) == 0xFF00_0000)
        #expect(Blend.expand565(0xF800) == 0xFFFF_0000)
        #expect(Blend.expand565(0x07E0) == 0xFF00_FF00)
        #expect(Blend.expand565(0x001F) == 0xFF00_00FF)
        var worst = 0
        for v in stride(from: UInt32(0), through: 255, by: 1) {
            let p = 0xFF00_0000 | v << 16 | v << 8 | v
            let q = Blend.expand565(Blend.pack565(p))
            // 5-bit steps are 255/31 ≈ 8.2 apart, so rounding to nearest is off by ≤ 4.1.
            worst = max(worst, abs(channel(q, 16) - Int(v)), abs(channel(q, 0) - Int(v)), abs(channel(q, 8) - Int(v)) * 2)
        }
        #expect(worst <= 4)
    }
}
