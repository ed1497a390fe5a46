/// For one premultiplied colour `s`: `scaled[c] = MUL(s, c)` per channel and `inverse[c] =
/// 255 − alpha(scaled[c])`, for every coverage c. Edge pixels and glyph pixels then blend with
/// one multiply (`d' = scaled[c] + MUL(d, inverse[c])`) instead of two.
///
/// The canvas keeps the tables of the last four colours: a HUD frame draws with three or four
/// (the bezel's, the ring track's, the content's), so frame after frame none is rebuilt — one
/// colour at a time, each tick rebuilt three tables (about 0.5 µs each at 800x480's bench).
/// A table is built eight coverages per step with `Blend.mul8` (the same values as `mul4`).
final class CoverageTable {
    static let slots = 4
    private var colors = [UInt32](repeating: 0, count: CoverageTable.slots)
    private var filled = 0, next = 0
    private let storage: UnsafeMutablePointer<UInt32>
    private(set) var color: UInt32 = 0
    private(set) var scaled: UnsafeMutablePointer<UInt32>
    private(set) var inverse: UnsafeMutablePointer<UInt32>
    /// `inverse` in both 16-bit halves (for the SIMD lanes of `Blend.mul4`).
    private(set) var inverse2: UnsafeMutablePointer<UInt32>

    init() {
        storage = .allocate(capacity: 3 * 256 * CoverageTable.slots)
        scaled = storage; inverse = storage + 256; inverse2 = storage + 512
    }

    deinit { storage.deallocate() }

    /// Makes the table describe `s`.
    @inline(__always)
    func prepare(_ s: UInt32) {
        if filled > 0 && color == s { return }
        select(s)
    }

    private func select(_ s: UInt32) {
        var slot = -1
        for i in 0..<filled where colors[i] == s { slot = i; break }
        let build = slot < 0
        if build {
            slot = next
            next = (next + 1) % CoverageTable.slots
            filled = Swift.max(filled, slot + 1)
            colors[slot] = s
        }
        let base = storage + slot * 3 * 256
        scaled = base; inverse = base + 256; inverse2 = base + 512
        color = s
        if build { Self.build(s, scaled, inverse, inverse2) }
    }

    /// The table of `s`, eight coverages per step.
    static func build(_ s: UInt32, _ scaled: UnsafeMutablePointer<UInt32>, _ inverse: UnsafeMutablePointer<UInt32>,
                      _ inverse2: UnsafeMutablePointer<UInt32>) {
        let k = Blend.k257(256)
        let sv = SIMD8<UInt32>(repeating: s)
        var c = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
        for i in stride(from: 0, to: 256, by: 8) {
            let v = Blend.mul8(sv, unsafeBitCast(c | c &<< 16, to: SIMD16<UInt16>.self), k)
            let inv = 255 &- (v &>> 24)
            UnsafeMutableRawPointer(scaled + i).storeBytes(of: v, as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(inverse + i).storeBytes(of: inv, as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(inverse2 + i).storeBytes(of: inv | inv &<< 16, as: SIMD8<UInt32>.self)
            c &+= 8
        }
    }
}
