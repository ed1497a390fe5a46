/// Byte-level mutations (as a fuzzer's havoc stage): flips, interesting bytes, tokens inserted or
/// overwritten, ranges deleted, duplicated or spliced in from another input, truncation. Each is
/// drawn from the case's own stream, so a mutated input is reproducible from seed and index.
enum Mutate {
    /// Bytes that matter to text formats.
    static let interesting: [UInt8] = [0, 0x01, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x23, 0x27, 0x2B, 0x2C, 0x2D, 0x2E, 0x30, 0x31, 0x39,
                                       0x3D, 0x5B, 0x5C, 0x5D, 0x5F, 0x65, 0x78, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2,
                                       0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]

    /// `count` mutations of `input`; `tokens` are inserted or written over, `other` is spliced from.
    static func havoc(_ input: [UInt8], _ rng: inout Rng, count: Int, tokens: [[UInt8]] = [], other: [UInt8] = [],
                      maxSize: Int = 2 << 20) -> [UInt8] {
        var b = input
        for _ in 0..<count {
            let at = rng.below(b.count + 1)
            switch rng.below(tokens.isEmpty ? 9 : 12) {
            case 0 where !b.isEmpty:  // flip a bit
                let i = rng.below(b.count)
                b[i] ^= UInt8(1) << UInt8(rng.below(8))
            case 1 where !b.isEmpty:  // an interesting byte
                b[rng.below(b.count)] = rng.pick(interesting)
            case 2:  // insert an interesting byte
                b.insert(rng.pick(interesting), at: at)
            case 3 where !b.isEmpty:  // delete a range
                let n = min(b.count - min(at, b.count - 1), 1 + rng.length(64))
                let s = min(at, b.count - 1)
                b.removeSubrange(s..<min(b.count, s + n))
            case 4 where !b.isEmpty:  // duplicate a range
                let s = rng.below(b.count), n = min(b.count - s, 1 + rng.length(256))
                b.insert(contentsOf: b[s..<s + n], at: at)
            case 5 where !b.isEmpty:  // truncate
                b.removeSubrange(rng.below(b.count)...)
            case 6 where !other.isEmpty:  // splice from another input
                let s = rng.below(other.count), n = min(other.count - s, 1 + rng.length(512))
                b.insert(contentsOf: other[s..<s + n], at: at)
            case 7:  // random bytes
                b.insert(contentsOf: rng.bytes(1 + rng.length(16)), at: at)
            case 8 where !b.isEmpty:  // a byte +/- small
                let i = rng.below(b.count)
                b[i] = b[i] &+ UInt8(truncatingIfNeeded: rng.int(-16...16))
            case 9, 10:  // insert a token
                b.insert(contentsOf: rng.pick(tokens), at: at)
            case 11 where !b.isEmpty:  // overwrite with a token
                let t = rng.pick(tokens)
                let s = rng.below(b.count)
                b.replaceSubrange(s..<min(b.count, s + t.count), with: t)
            default:
                b.insert(rng.pick(interesting), at: at)
            }
            if b.count > maxSize { b.removeSubrange(maxSize...) }
        }
        return b
    }

    /// Lines of `input` (kept with their newline).
    static func lines(_ input: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: [UInt8] = []
        for b in input {
            current.append(b)
            if b == 0x0A { out.append(current); current = [] }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Line-level changes: a line deleted, duplicated, moved, or taken from `other`.
    static func shuffleLines(_ input: [UInt8], _ rng: inout Rng, count: Int, other: [UInt8] = []) -> [UInt8] {
        var ls = lines(input)
        let others = lines(other)
        for _ in 0..<count {
            guard !ls.isEmpty else { break }
            let i = rng.below(ls.count)
            switch rng.below(others.isEmpty ? 3 : 4) {
            case 0: ls.remove(at: i)
            case 1: ls.insert(ls[i], at: rng.below(ls.count + 1))
            case 2: let l = ls.remove(at: i); ls.insert(l, at: rng.below(ls.count + 1))
            default: ls.insert(rng.pick(others), at: rng.below(ls.count + 1))
            }
        }
        return Array(ls.joined())
    }
}

/// An interesting integer: boundaries of the usual widths, around zero, powers of two.
func interestingInteger(_ rng: inout Rng) -> Int64 {
    let values: [Int64] = [0, 1, -1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 4095, 4096,
                           8191, 8192, 8193, 16383, 16384, 16385, 32767, 32768, 65535, 65536, 1 << 20, 1 << 24, 1 << 31 - 1,
                           1 << 31, 1 << 32 - 1, 1 << 32, 1 << 53, 1 << 62, Int64.max, Int64.min, Int64.min + 1, -32768, -65536]
    switch rng.below(4) {
    case 0: return Int64(rng.int(-100...100))
    case 1: return Int64(bitPattern: rng.next())
    default: return rng.pick(values) &+ Int64(rng.int(-1...1))
    }
}

/// An interesting decimal number as text: boundaries, tiny and huge magnitudes, non-finite
/// spellings, odd syntax.
func interestingNumberText(_ rng: inout Rng) -> String {
    let special = ["0", "-0", "+0", "0.0", "-0.0", "1", "-1", "0.5", ".5", "5.", "1e308", "1.7976931348623157e308", "1.8e308",
                   "-1.8e308", "1e309", "1e-320", "4.9e-324", "2.5e-324", "1e-400", "nan", "NaN", "-nan", "inf", "-inf",
                   "+inf", "Infinity", "1e", "e5", "1e+", "0x10", "0x1p3", "1_000", "1__0", "١٢", "１", "1,5", " 1", "1 ",
                   "--1", "+-1", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                   "99999999999999999999999999999999", "0.1e-5", "1E5", "1e5.5", "00001", "0b101", "0o17", "∞", "",
                   String(repeating: "9", count: 400), "0." + String(repeating: "0", count: 400) + "1", "1" + String(repeating: "0", count: 309)]
    switch rng.below(3) {
    case 0: return String(interestingInteger(&rng))
    case 1: return String(Double(bitPattern: rng.next()))
    default: return rng.pick(special)
    }
}
