/// Gradient colours several pixels per step, bit for bit what `Shader.shadeScalar` computes.
///
/// The scalar path evaluates, per pixel, `t = (base + i·dx)·inv` clamped to 0…1 and each channel
/// as `⌊c0 + (c1 − c0)·t + 0.5⌋`, in Double. The vector path performs the same IEEE operations in
/// the same order on four lanes (Swift never fuses a multiply and an add, on x86 or on ARM), so
/// every lane rounds exactly like the scalar expression — an incremental `t += dt` would not: it
/// drifts by an ulp per step and moves a channel across a rounding boundary now and then.
///
/// What made the scalar loop slow (61 instructions a pixel, callgrind) was the conversion: each
/// `UInt32(Double)` is checked for NaN and range and branches, and nothing vectorises. The floor
/// here (`Lanes.floor`) takes no branch.
extension Shader {
    /// The opaque two-stop linear gradient (`opaqueTwoStop`) for pixels `0..<count` of a row whose
    /// first pixel has `base` (see `shadeScalar`), four per step. Returns how many it wrote (a
    /// multiple of 4); the caller finishes the rest with the scalar path.
    static func linearOpaqueSpan(_ out: UnsafeMutablePointer<UInt32>, _ count: Int, base: Double, dx: Double, inv: Double,
                                 _ c0: (r: Double, g: Double, b: Double, a: Double),
                                 _ c1: (r: Double, g: Double, b: Double, a: Double)) -> Int {
        let dr = c1.r - c0.r, dg = c1.g - c0.g, db = c1.b - c0.b
        let basev = SIMD4<Double>(repeating: base), half = SIMD4<Double>(repeating: 0.5)
        let c0r = SIMD4<Double>(repeating: c0.r), c0g = SIMD4<Double>(repeating: c0.g), c0b = SIMD4<Double>(repeating: c0.b)
        let opaque = SIMD4<UInt64>(repeating: 0xFF00_0000)
        var iv = SIMD4<Double>(0, 1, 2, 3)
        let raw = UnsafeMutableRawPointer(out)
        var i = 0
        while i &+ 4 <= count {
            let t = clampUnit((basev + iv * dx) * inv)
            let r = Lanes.floor(c0r + dr * t + half), g = Lanes.floor(c0g + dg * t + half)
            let b = Lanes.floor(c0b + db * t + half)
            raw.storeBytes(of: Lanes.narrow(opaque | (r &<< 16) | (g &<< 8) | b), toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            iv += 4
            i &+= 4
        }
        return i
    }

    /// `t > 0 ? (t < 1 ? t : 1) : 0` in every lane (NaN becomes 0, like the scalar code).
    @inline(__always)
    static func clampUnit(_ raw: SIMD4<Double>) -> SIMD4<Double> {
        let positive = raw .> 0
        return raw.replacing(with: 1, where: .!(raw .< 1)).replacing(with: 0, where: .!positive)
    }
}
