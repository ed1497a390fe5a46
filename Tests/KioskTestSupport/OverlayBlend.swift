/// What a compositor shows of an overlay: the HUD of `kiosk-hud render --overlay` (RGBA, straight
/// alpha, as its PNG holds it) premultiplied again — exact: premultiplying undoes the PNG writer's
/// rounding — and blended over the picture under it with pixman's SrcOver, as sway, labwc and
/// cage draw it with their pixman renderer: d' = s + MUL(d, 255 - sa). The Wayland tests' one
/// reference.
public enum OverlayBlend {
    /// `overlay` over `under` (RGBA bytes of the same size); the result's alpha is `under`'s.
    public static func blend(_ overlay: [UInt8], over under: [UInt8]) -> [UInt8] {
        precondition(overlay.count == under.count, "the overlay and the picture under it differ in size")
        func mul(_ a: Int, _ b: Int) -> Int { let t = a * b + 128; return (t + (t >> 8)) >> 8 }
        var out = under
        for i in stride(from: 0, to: overlay.count, by: 4) {
            let a = Int(overlay[i + 3])
            for c in 0..<3 { out[i + c] = UInt8(mul(Int(overlay[i + c]), a) + mul(Int(under[i + c]), 255 - a)) }
        }
        return out
    }

    /// How many pixels differ in colour (alpha ignored: a screenshot's is opaque); Int.max when
    /// the sizes differ.
    public static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return Int.max }
        var d = 0
        for i in stride(from: 0, to: a.count, by: 4) where a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] { d += 1 }
        return d
    }
}
