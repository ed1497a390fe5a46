// Elementary functions the standard library does not offer without Glibc.

/// e^x in pure Swift (range reduction by ln 2 plus a Taylor polynomial),
/// accurate to a few ULP over the whole `Double` range.
///
/// NaN gives NaN, +∞ gives +∞, −∞ gives 0; overflow gives +∞, underflow 0.
func kioskExp(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x > 709.782712893384 { return .infinity }
    if x < -745.1332191019412 { return 0 }
    let ln2Hi = 0.693147180369123816490      // high bits of ln 2
    let ln2Lo = 1.90821492927058770002e-10   // ln 2 − ln2Hi
    let k = (x / (ln2Hi + ln2Lo)).rounded()
    let r = (x - k * ln2Hi) - k * ln2Lo      // |r| ≤ ln 2 / 2
    // Taylor series of e^r up to r^14 (error < 1e-17 for |r| ≤ 0.35).
    var term = 1.0
    var sum = 1.0
    var n = 1.0
    while n <= 14 {
        term *= r / n
        sum += term
        n += 1
    }
    // Scale by 2^k in two steps so subnormal results stay correct.
    let ki = Int(k)
    let half = ki / 2
    return sum
        * Double(sign: .plus, exponent: half, significand: 1)
        * Double(sign: .plus, exponent: ki - half, significand: 1)
}
