/// Lane-by-lane versions of the scalar operations the fast paths must reproduce exactly.
///
/// `min(a, b)` is `b < a ? b : a` and `max(a, b)` is `b >= a ? b : a`, as the standard library
/// defines them (which operand wins on a tie, a signed zero or a NaN is theirs); `abs` clears the
/// sign bit, as `Double.magnitude` does. `floor` replaces a checked `Int(Double)`/`UInt32(Double)`
/// conversion, which costs a compare and a branch per value and keeps a loop from vectorising.
enum Lanes {
    @inline(__always)
    static func min(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a.replacing(with: b, where: b .< a) }

    @inline(__always)
    static func max(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a.replacing(with: b, where: b .>= a) }

    @inline(__always)
    static func abs(_ a: SIMD4<Double>) -> SIMD4<Double> {
        unsafeBitCast(unsafeBitCast(a, to: SIMD4<UInt64>.self) & 0x7FFF_FFFF_FFFF_FFFF, to: SIMD4<Double>.self)
    }

    /// ⌊x⌋ of each lane in its low 32 bits, for 0 ≤ x < 2^31, without a branch: `x + 2^52` rounds
    /// x to the nearest integer in the low bits of its own representation, and one compare takes
    /// one off where that rounded up. The bits above (2^52's exponent) are left for the caller to
    /// mask, shift out or `narrow` away.
    @inline(__always)
    static func floor(_ x: SIMD4<Double>) -> SIMD4<UInt64> {
        let magic = SIMD4<Double>(repeating: 4_503_599_627_370_496)  // 2^52
        let m = x + magic
        // All ones (−1) where rounding went up.
        let up = unsafeBitCast(SIMD4<Int64>(repeating: 0).replacing(with: -1, where: (m - magic) .> x), to: SIMD4<UInt64>.self)
        return unsafeBitCast(m, to: SIMD4<UInt64>.self) &+ up
    }

    /// The low 32 bits of each lane (written lane by lane; see `Blend.widen`).
    @inline(__always)
    static func narrow(_ v: SIMD4<UInt64>) -> SIMD4<UInt32> {
        SIMD4(UInt32(truncatingIfNeeded: v[0]), UInt32(truncatingIfNeeded: v[1]), UInt32(truncatingIfNeeded: v[2]),
              UInt32(truncatingIfNeeded: v[3]))
    }
}
