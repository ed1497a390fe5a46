/// A straight (non-premultiplied) colour, channels in 0…1, sRGB-encoded (no linearisation).
public struct Color: Sendable, Equatable, Hashable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// A grey of `white` (0…1) with alpha `a`.
    public init(white: Double, a: Double = 1) { self.init(r: white, g: white, b: white, a: a) }

    /// `0xRRGGBB` with alpha `a`.
    public init(rgb: UInt32, a: Double = 1) {
        self.init(r: Double((rgb >> 16) & 0xFF) / 255, g: Double((rgb >> 8) & 0xFF) / 255,
                  b: Double(rgb & 0xFF) / 255, a: a)
    }

    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let clear = Color(white: 0, a: 0)

    /// The same colour with alpha multiplied by `opacity`.
    public func withOpacity(_ opacity: Double) -> Color {
        Color(r: r, g: g, b: b, a: a * clamp01(opacity))
    }

    /// 8-bit premultiplied, rounded the way cairo and pixman do it:
    /// `c16 = floor(c·a·65535 + 0.5)`, `c8 = c16 >> 8`.
    public var premultiplied: PremultipliedColor {
        let a = clamp01(self.a)
        func q(_ v: Double) -> UInt8 { UInt8(Int((clamp01(v) * 65535 + 0.5).rounded(.down)) >> 8) }
        return PremultipliedColor(r: q(clamp01(r) * a), g: q(clamp01(g) * a), b: q(clamp01(b) * a), a: q(a))
    }
}

/// An 8-bit premultiplied colour, as blended.
public struct PremultipliedColor: Sendable, Equatable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// `0xAARRGGBB`.
    public var argb: UInt32 {
        UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    public init(argb: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: argb >> 16), g: UInt8(truncatingIfNeeded: argb >> 8),
                  b: UInt8(truncatingIfNeeded: argb), a: UInt8(truncatingIfNeeded: argb >> 24))
    }
}

/// Clamps to 0…1; NaN becomes 0.
@inlinable public func clamp01(_ v: Double) -> Double {
    v > 0 ? (v < 1 ? v : 1) : 0
}
