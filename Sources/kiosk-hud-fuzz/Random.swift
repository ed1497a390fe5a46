/// A deterministic random stream: xoshiro256** seeded through SplitMix64 from the run's seed and
/// the case's index, so case `i` of seed `s` is the same input on every machine and in every
/// run, whatever ran before it (a failure is reproduced with `--seed s --case i`).
struct Rng {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// The stream of case `index` of run `seed`.
    init(seed: UInt64, index: UInt64) {
        var x = seed &+ index &* 0x9E37_79B9_7F4A_7C15 &+ 0xD1B5_4A32_D192_ED03
        func splitmix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitmix(); s1 = splitmix(); s2 = splitmix(); s3 = splitmix()
    }

    /// 64 random bits.
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A number in 0..<n (0 when n ≤ 0).
    mutating func below(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        return Int(next() % UInt64(n))
    }

    /// A number in `r`.
    mutating func int(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.upperBound - r.lowerBound + 1) }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }

    /// An index chosen by weight (weights ≥ 0, not all 0).
    mutating func weighted(_ weights: [Int]) -> Int {
        var r = below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// A length that is usually small and sometimes large: 0…`max`, log-uniform-ish.
    mutating func length(_ max: Int) -> Int {
        guard max > 0 else { return 0 }
        var bits = 0
        while (1 << bits) < max { bits += 1 }
        let top = 1 << below(bits + 1)
        return Swift.min(max, below(top + 1))
    }

    /// `n` random bytes.
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
