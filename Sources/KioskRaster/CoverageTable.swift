/// For one premultiplied colour `s`: `scaled[c] = MUL(s, c)` per channel and `inverse[c] =
/// 255 − alpha(scaled[c])`, for every coverage c. Edge pixels and glyph pixels then blend with
/// one multiply (`d' = scaled[c] + MUL(d, inverse[c])`) instead of two. Kept by the canvas and
/// rebuilt only when the colour changes (text and rings reuse it frame after frame).
final class CoverageTable {
    private(set) var color: UInt32 = 0
    private var valid = false
    let scaled: UnsafeMutablePointer<UInt32>
    let inverse: UnsafeMutablePointer<UInt32>
    /// `inverse` in both 16-bit halves (for the SIMD lanes of `Blend.mul4`).
    let inverse2: UnsafeMutablePointer<UInt32>

    init() {
        scaled = .allocate(capacity: 256)
        inverse = .allocate(capacity: 256)
        inverse2 = .allocate(capacity: 256)
    }

    deinit { scaled.deallocate(); inverse.deallocate(); inverse2.deallocate() }

    /// Makes the table describe `s`.
    @inline(__always)
    func prepare(_ s: UInt32) {
        if valid && color == s { return }
        for c in 0..<256 {
            let v = Blend.mul4(s, UInt32(c))
            scaled[c] = v
            inverse[c] = 255 &- (v >> 24)
            inverse2[c] = inverse[c] | inverse[c] << 16
        }
        color = s
        valid = true
    }
}
