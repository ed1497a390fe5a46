/// Parallax offset of the bezel from a device tilt (MBProgressHUD's motion effect:
/// `UIInterpolatingMotionEffect` from −depth to +depth on each axis).
public enum MotionOffset {
    /// MBProgressHUD's motion effect depth in points (pixels here).
    public static let defaultDepth: Double = 10

    /// Maps a tilt (`x`, `y` in −1…1; clamped, NaN → 0) linearly to an offset
    /// of ±`depth` pixels (a non-finite depth counts as 0).
    public static func map(x: Double, y: Double, depth: Double = defaultDepth) -> (dx: Double, dy: Double) {
        let d = depth.isFinite ? depth : 0
        func axis(_ v: Double) -> Double {
            v.isNaN ? 0 : Swift.min(1, Swift.max(-1, v))
        }
        return (axis(x) * d, axis(y) * d)
    }
}
