// Sine and cosine without libm: the rasterizer is pure Swift (no Glibc). Range reduction to
// [−π/4, π/4] and Taylor polynomials; error ~1e-16 there (after the reduction, a few 1e-15 for
// large angles), far below the 0.1 px flattening tolerance.

@usableFromInline let piOver2 = Double.pi / 2

@inlinable func sinPoly(_ x: Double) -> Double {
    let x2 = x * x
    return x * (1 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362_880
        + x2 * (-1.0 / 39_916_800 + x2 * (1.0 / 6_227_020_800 + x2 * (-1.0 / 1_307_674_368_000))))))))
}

@inlinable func cosPoly(_ x: Double) -> Double {
    let x2 = x * x
    return 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40_320
        + x2 * (-1.0 / 3_628_800 + x2 * (1.0 / 479_001_600 + x2 * (-1.0 / 87_178_291_200)))))))
}

/// Sine and cosine of `angle` (radians). Non-finite input gives (0, 1).
@inlinable public func sinCos(_ angle: Double) -> (sin: Double, cos: Double) {
    guard angle.isFinite else { return (0, 1) }
    let k = (angle / piOver2).rounded()
    let r = angle - k * piOver2
    let s = sinPoly(r), c = cosPoly(r)
    switch Int(k.truncatingRemainder(dividingBy: 4)) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}
