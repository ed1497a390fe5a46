// Numbers: read exactly per RFC 8259's grammar (-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?)
// into the nearest Double, refused when that is not finite; written back as the shortest text
// that reads as the same Double.

enum JSONNumber {
    /// 2^53: every integer of smaller magnitude is exact in a Double.
    static let exactLimit = 9_007_199_254_740_992.0

    /// 10^0 … 10^22, each exact in a Double.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `v` as an integer if it is whole and |v| < 2^53, else nil.
    static func exactInteger(_ v: Double) -> Int64? {
        guard v.isFinite, abs(v) < exactLimit, v == v.rounded(.towardZero) else { return nil }
        return Int64(v)
    }

    /// `v` as JSON: "42", "-0", "0.15", "1e-07", "1e+300"; `null` when not finite (JSON has no
    /// NaN or infinity).
    static func write(_ v: Double, into out: inout [UInt8]) {
        guard v.isFinite else { out.append(contentsOf: "null".utf8); return }
        if let i = exactInteger(v) {
            if i == 0, v.sign == .minus { out.append(Byte.minus) }
            out.append(contentsOf: String(i).utf8)
            return
        }
        // Swift's description is the shortest text that reads back as `v`, and always in JSON's
        // grammar for a finite value ("0.15", "1e-07", "1.5e+300", "9007199254740992.0").
        out.append(contentsOf: v.description.utf8)
    }
}

extension JSONParser {
    /// The number at `i` (a "-" or a digit); `i` ends after it.
    mutating func number() throws(JSONError) -> Double {
        let start = i
        let negative = b[i] == Byte.minus
        if negative { i += 1 }
        guard i < b.count, Byte.isDigit(b[i]) else {
            throw JSONError(negative ? "expected a digit after \"-\"" : "expected a digit", at: i)
        }
        // The digits as an integer (while they fit, for the fast path) and how many there are.
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        if b[i] == Byte.zero {
            i += 1
            if i < b.count, Byte.isDigit(b[i]) { throw JSONError("leading zero in a number", at: start) }
            digits = 1
        } else {
            while i < b.count, Byte.isDigit(b[i]) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(b[i] - Byte.zero) }
                digits += 1
                i += 1
            }
        }
        if i < b.count, b[i] == Byte.dot {
            i += 1
            guard i < b.count, Byte.isDigit(b[i]) else { throw JSONError("expected a digit after the decimal point", at: i) }
            while i < b.count, Byte.isDigit(b[i]) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(b[i] - Byte.zero) }
                digits += 1
                fractionDigits += 1
                i += 1
            }
        }
        var exponent = 0
        if i < b.count, b[i] == Byte.lowerE || b[i] == Byte.upperE {
            i += 1
            var exponentNegative = false
            if i < b.count, b[i] == Byte.plus || b[i] == Byte.minus {
                exponentNegative = b[i] == Byte.minus
                i += 1
            }
            guard i < b.count, Byte.isDigit(b[i]) else { throw JSONError("expected a digit in the exponent", at: i) }
            while i < b.count, Byte.isDigit(b[i]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(b[i] - Byte.zero) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        // Fast path (Clinger): at most 15 digits and 10^|e| ≤ 10^22 are both exact, so one
        // multiplication or division rounds correctly.
        let scale = exponent - fractionDigits
        if digits <= 15, (-22...22).contains(scale) {
            let m = Double(mantissa)
            let v = scale >= 0 ? m * JSONNumber.powersOfTen[scale] : m / JSONNumber.powersOfTen[-scale]
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            let cut = text.utf8.count > 40 ? String(decoding: text.utf8.prefix(40), as: UTF8.self) + "…" : text
            throw JSONError("number out of range for a Double: \(cut)", at: start)
        }
        return v
    }
}
