@testable import KioskRaster
import Testing

/// Span lengths around every SIMD step (8 pixels for 32-bit spans, 16 for RGB565) and its tail
/// (a 32-bit span's last 0–7 pixels are an overlapping step), and a bezel row.
private let lengths = [0, 1, 3, 7, 8, 9, 15, 16, 17, 23, 31, 33, 47, 61, 198]

/// A colour with alpha `a` and random channels at most `a` (a valid premultiplied pixel).
private func colour(alpha a: UInt32, _ rng: inout SplitMix64) -> UInt32 {
    a << 24 | UInt32.random(in: 0...a, using: &rng) << 16 | UInt32.random(in: 0...a, using: &rng) << 8
        | UInt32.random(in: 0...a, using: &rng)
}

/// Random raw 32-bit destination pixels: any bytes at all (an XRGB pixel's X byte need not be 0xFF).
private func randomRow(_ n: Int, _ rng: inout SplitMix64) -> [UInt32] {
    (0..<n).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
}

/// Per-pixel premultiplied sources with plenty of the special cases: 0, opaque, and anything else.
private func randomSources(_ n: Int, _ rng: inout SplitMix64) -> [UInt32] {
    (0..<n).map { i in
        switch i % 4 {
        case 0: 0
        case 1: randomPremultiplied(&rng, opaque: true)
        default: randomPremultiplied(&rng)
        }
    }
}

/// `start` (a span and one guard element after it) run through `fast` and through `reference`;
/// true when both results, guard included, are equal.
private func same<T: Equatable>(_ start: [T], _ fast: (UnsafeMutablePointer<T>) -> Void,
                                _ reference: (UnsafeMutablePointer<T>) -> Void) -> Bool {
    var a = start, b = start
    a.withUnsafeMutableBufferPointer { fast($0.baseAddress!) }
    b.withUnsafeMutableBufferPointer { reference($0.baseAddress!) }
    return a == b
}

@Suite("Span kernels against the scalar path")
struct SpanKernelTests {
    // Rule: overSpan (one colour over a span, in place or from another span) equals the scalar loop
    // for every alpha 0…255, every length around the SIMD step, XRGB and ARGB (each of its three
    // finishing variants: ARGB, XRGB under a black colour, XRGB under a colour).
    @Test(arguments: [UInt32(0), 0xFF00_0000])
    func overSpanEqualsScalar(_ opaqueOr: UInt32) {
        var rng = SplitMix64(seed: 11)
        var bad: [String] = []
        for a in UInt32(0)...255 {
            for (k, n) in lengths.enumerated() {
                let s = k % 3 == 0 ? a << 24 : colour(alpha: a, &rng)
                let src = randomRow(n, &rng), dst = randomRow(n + 1, &rng)
                // From another span.
                let ok = src.withUnsafeBufferPointer { sp in
                    same(dst, { Blend.overSpan($0, sp.baseAddress!, n, s, opaqueOr: opaqueOr) },
                         { Blend.overSpanScalar($0, sp.baseAddress!, n, s, opaqueOr: opaqueOr) })
                }
                // In place.
                let inPlace = same(dst, { Blend.overSpan($0, $0, n, s, opaqueOr: opaqueOr) },
                                   { Blend.overSpanScalar($0, $0, n, s, opaqueOr: opaqueOr) })
                if !ok || !inPlace { bad.append("alpha \(a) n \(n) s \(String(s, radix: 16))") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: the canvas's coverage tables (four colours kept, built eight coverages per step) hold
    // MUL(s, c), 255 − its alpha, and that in both halves, for every coverage, whichever colour was
    // asked for before: six colours in turn, each asked for again after others pushed it out.
    @Test func coverageTablesEqualScalar() {
        var rng = SplitMix64(seed: 13)
        let table = CoverageTable()
        let colours = (0..<6).map { i in colour(alpha: [0, 255, 128, 1, 254, 77][i], &rng) }
        var bad: [String] = []
        for s in colours + colours.reversed() + [colours[0], colours[1], colours[0], colours[5]] {
            table.prepare(s)
            for c in UInt32(0)...255 {
                let v = Blend.mul4(s, c), inv = 255 - (v >> 24)
                if table.scaled[Int(c)] != v || table.inverse[Int(c)] != inv || table.inverse2[Int(c)] != inv | inv << 16 {
                    bad.append("colour \(String(s, radix: 16)) coverage \(c)")
                }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: every ConstantMultiply pair gives pixman's MUL(x, a) for every x, one lane at a time
    // and in mul8 (every byte value in every channel of a pixel); every factor from 125 to 255 has
    // a pair (each dim up to 51 % black takes the one-multiply path).
    @Test func constantMultiplyIsExact() {
        var bad: [String] = []
        for a in UInt32(0)...255 {
            let e = ConstantMultiply.entry(a)
            if a >= 125 && e == 0 { bad.append("no pair for \(a)") }
            if e == 0 { continue }
            for x in UInt32(0)...255 where ConstantMultiply.mul(x, a) != Blend.mul(x, a) { bad.append("a \(a) x \(x)") }
            let m = SIMD16<UInt16>(repeating: UInt16(e >> 8)), c = SIMD16<UInt16>(repeating: UInt16(e & 0xFF))
            for base in stride(from: UInt32(0), to: 256, by: 8) {
                var px = SIMD8<UInt32>()
                for i in 0..<8 {
                    let v = base + UInt32(i)
                    px[i] = v << 24 | (255 - v) << 16 | (v ^ 0x5A) << 8 | (v &* 37 & 0xFF)
                }
                let out = ConstantMultiply.mul8(px, m, c)
                for i in 0..<8 where out[i] != Blend.mul4(px[i], a) { bad.append("mul8 a \(a) pixel \(String(px[i], radix: 16))") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: blendSpan (per-pixel sources times one coverage) equals the scalar loop for every
    // coverage 0…255 and length, XRGB and ARGB; with coverage 255 a source of 0 leaves all four
    // bytes of the destination as they were (the scalar path skips it).
    @Test(arguments: [UInt32(0), 0xFF00_0000])
    func blendSpanEqualsScalar(_ opaqueOr: UInt32) {
        var rng = SplitMix64(seed: 12)
        var bad: [String] = []
        for cov in UInt32(0)...255 {
            for n in lengths {
                let src = randomSources(n, &rng), dst = randomRow(n + 1, &rng)
                let ok = src.withUnsafeBufferPointer { sp in
                    same(dst, { Blend.blendSpan($0, sp.baseAddress!, n, coverage: cov, opaqueOr: opaqueOr) },
                         { Blend.blendSpanScalar($0, sp.baseAddress!, n, coverage: cov, opaqueOr: opaqueOr) })
                }
                if !ok { bad.append("coverage \(cov) n \(n)") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: over565Span equals the scalar expand → SrcOver → pack for every alpha and length, in
    // place and from another span.
    @Test func over565SpanEqualsScalar() {
        var rng = SplitMix64(seed: 13)
        var bad: [String] = []
        for a in UInt32(0)...255 {
            for n in lengths {
                let s = colour(alpha: a, &rng)
                let src = (0..<n).map { _ in UInt16.random(in: 0...UInt16.max, using: &rng) }
                let dst = (0...n).map { _ in UInt16.random(in: 0...UInt16.max, using: &rng) }
                let ok = src.withUnsafeBufferPointer { sp in
                    same(dst, { Blend.over565Span($0, sp.baseAddress!, n, s) },
                         { Blend.over565SpanScalar($0, sp.baseAddress!, n, s) })
                }
                let inPlace = same(dst, { Blend.over565Span($0, $0, n, s) }, { Blend.over565SpanScalar($0, $0, n, s) })
                if !ok || !inPlace { bad.append("alpha \(a) n \(n)") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: every one of the 65,536 RGB565 values comes out of the SIMD expand → blend → pack as from
    // the scalar one, under a spread of colours (so pack565's rounding agrees for every channel value).
    @Test func over565SpanEveryPixelValue() {
        var rng = SplitMix64(seed: 14)
        let all = (0...0xFFFF).map { UInt16($0) }
        for a: UInt32 in [0, 1, 77, 128, 254, 255] {
            let s = colour(alpha: a, &rng)
            let ok = all.withUnsafeBufferPointer { sp in
                same(all, { Blend.over565Span($0, sp.baseAddress!, all.count, s) },
                     { Blend.over565SpanScalar($0, sp.baseAddress!, all.count, s) })
            }
            #expect(ok, "alpha \(a)")
        }
        // A transparent colour gives every pixel back (expand then pack is the identity).
        var copy = all
        copy.withUnsafeMutableBufferPointer { Blend.over565Span($0.baseAddress!, $0.baseAddress!, all.count, 0) }
        #expect(copy == all)
    }

    // Rule: blend565Span (per-pixel 32-bit sources over RGB565) equals the scalar loop for every
    // coverage and length.
    @Test func blend565SpanEqualsScalar() {
        var rng = SplitMix64(seed: 15)
        var bad: [String] = []
        for cov in UInt32(0)...255 {
            for n in lengths {
                let src = randomSources(n, &rng)
                let dst = (0...n).map { _ in UInt16.random(in: 0...UInt16.max, using: &rng) }
                let ok = src.withUnsafeBufferPointer { sp in
                    same(dst, { Blend.blend565Span($0, sp.baseAddress!, n, coverage: cov) },
                         { Blend.blend565SpanScalar($0, sp.baseAddress!, n, coverage: cov) })
                }
                if !ok { bad.append("coverage \(cov) n \(n)") }
            }
        }
        #expect(bad.isEmpty, "first: \(bad.prefix(3))")
    }

    // Rule: the scalar references are the blends they replaced: overSpanScalar is `over` per pixel
    // (X byte set on XRGB), over565SpanScalar is Row16.put of the colour, blend565SpanScalar is
    // Row16.put of the (coverage-scaled) source.
    @Test func referencesArePerPixelBlends() {
        var rng = SplitMix64(seed: 16)
        for _ in 0..<2_000 {
            let s = randomPremultiplied(&rng), d = UInt32.random(in: 0...UInt32.max, using: &rng)
            var p = d
            withUnsafeMutablePointer(to: &p) { Blend.overSpanScalar($0, $0, 1, s, opaqueOr: 0xFF00_0000) }
            #expect(p == Blend.over(s, d) | 0xFF00_0000)
            let d16 = UInt16.random(in: 0...UInt16.max, using: &rng)
            var q = d16, r = d16
            withUnsafeMutablePointer(to: &q) { Blend.over565SpanScalar($0, $0, 1, s) }
            withUnsafeMutablePointer(to: &r) { Row16($0).put(0, s) }
            #expect(q == r)
            let cov = UInt32.random(in: 0...255, using: &rng)
            var q2 = d16, r2 = d16
            var src = s
            Blend.blend565SpanScalar(&q2, &src, 1, coverage: cov)
            withUnsafeMutablePointer(to: &r2) { Row16($0).put(0, Blend.mul4(s, cov)) }
            #expect(q2 == r2)
        }
    }
}
