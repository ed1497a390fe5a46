/// Maps elapsed time to animation progress in 0…1.
///
/// All curves are pure, monotonic non-decreasing, 0 at (and before) the
/// start, and exactly 1 at (and after) the end of the duration.
public enum TimingCurve: Sendable, Equatable, CaseIterable {
    /// Constant speed.
    case linear
    /// UIKit's default ease-in-ease-out: cubic Bézier (0.42, 0), (0.58, 1).
    case easeInOut
    /// UIKit spring with damping ratio 1 (critically damped) and initial
    /// velocity 0, as used by MBProgressHUD:
    /// `p(t) = 1 − (1 + ωt)·e^(−ωt)` with `ω = springSettleFactor / duration`.
    case spring

    /// `ω · duration` for `.spring`: 9.25, chosen so that
    /// `p(duration) = 1 − 10.25·e^(−9.25) ≈ 0.999015`, i.e. within 0.001 of 1
    /// (the smallest such factor is ≈ 9.2334). For a 0.3 s animation
    /// ω ≈ 30.83 rad/s. The curve is pinned to exactly 1 from `duration` on,
    /// so the final jump is below 0.001.
    public static let springSettleFactor: Double = 9.25

    /// Progress after `elapsed` seconds of an animation lasting `duration` seconds.
    ///
    /// - Returns: a value in 0…1. NaN elapsed gives 0; a non-positive,
    ///   NaN or infinite duration means "already finished" (1) once
    ///   `elapsed ≥ 0`.
    public func progress(elapsed: Double, duration: Double) -> Double {
        let d = duration.sanitizedDuration
        guard !elapsed.isNaN, elapsed >= 0 else { return 0 }
        if elapsed >= d { return 1 }
        if elapsed == 0 { return 0 }
        let u = elapsed / d                        // 0 < u < 1
        switch self {
        case .linear:
            return u
        case .easeInOut:
            return Self.cubicBezierY(atX: u, x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        case .spring:
            let wt = Self.springSettleFactor * u
            return Swift.min(1, Swift.max(0, 1 - (1 + wt) * kioskExp(-wt)))
        }
    }

    /// y of a CSS-style cubic Bézier timing function at `x` (0…1), found by bisection.
    static func cubicBezierY(atX x: Double, x1: Double, y1: Double, x2: Double, y2: Double) -> Double {
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let inv = 1 - s
            return 3 * inv * inv * s * p1 + 3 * inv * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return bezier((lo + hi) / 2, y1, y2)
    }
}
