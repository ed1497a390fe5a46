import KioskTestSupport

/// A deterministic random stream: the tests' `SeededGenerator` (SplitMix64), started at a point
/// hashed from the run's seed and the case's index, so case `i` of seed `s` is the same input on
/// every machine and in every run, whatever ran before it (a failure is reproduced with
/// `--seed s --case i`). The starting point is hashed so that neighbouring cases do not share a
/// shifted stream.
struct Rng {
    private var g: SeededGenerator

    /// The stream of case `index` of run `seed`.
    init(seed: UInt64, index: UInt64) {
        var run = SeededGenerator(seed: seed)
        var start = SeededGenerator(seed: run.next() &+ index)
        g = SeededGenerator(seed: start.next())
    }

    /// 64 random bits.
    mutating func next() -> UInt64 { g.next() }

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
