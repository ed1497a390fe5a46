// Strings: UTF-8 checked strictly (Unicode's table 3-7: no overlong forms, no surrogates, nothing
// above U+10FFFF), no raw control characters, every RFC 8259 escape, and the string's decoded
// size kept under `maxStringBytes` while it is read.

extension JSONParser {
    /// The string whose opening quote is at `i`; `i` ends after its closing quote.
    mutating func string() throws(JSONError) -> String {
        let open = i
        let limit = limits.maxStringBytes
        i += 1
        // Bytes copied as they are start at `run`; once an escape is met, the decoded string so
        // far is in `decoded` (without an escape the string is made straight from the input).
        var run = i
        var decoded: [UInt8] = []
        var escaped = false
        while true {
            guard i < b.count else {
                throw JSONError("the input ends inside a string (opened at byte \(open))", at: i)
            }
            let c = b[i]
            if c < 0x80 {
                if c == Byte.quote { break }
                if c == Byte.backslash {
                    if !escaped { decoded.reserveCapacity(min(limit, 2 * (i - run) + 16)) }
                    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<i]))
                    try escape(into: &decoded)
                    escaped = true
                    run = i
                } else if c < 0x20 {
                    throw JSONError("raw control character \(codePoint(UInt32(c))) in a string", at: i)
                } else {
                    i += 1
                }
            } else {
                i = try endOfScalar(at: i)
            }
            if decoded.count + (i - run) > limit {
                throw JSONError("string longer than \(limit) bytes (maxStringBytes)", at: open)
            }
        }
        let text: String
        if escaped {
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<i]))
            text = String(decoding: decoded, as: UTF8.self)
        } else {
            text = String(decoding: UnsafeBufferPointer(rebasing: b[run..<i]), as: UTF8.self)
        }
        i += 1
        return text
    }

    /// The escape at `i` (a backslash) decoded into `out`; `i` ends after it.
    private mutating func escape(into out: inout [UInt8]) throws(JSONError) {
        let at = i
        guard i + 1 < b.count else { throw JSONError("the input ends inside a string escape", at: i + 1) }
        let e = b[i + 1]
        let simple: UInt8
        switch e {
        case Byte.quote, Byte.backslash, Byte.slash: simple = e
        case 0x62: simple = 0x08 // b
        case 0x66: simple = 0x0C // f
        case 0x6E: simple = Byte.newline // n
        case 0x72: simple = Byte.carriageReturn // r
        case 0x74: simple = Byte.tab // t
        case 0x75: // u
            var scalar = try hex4(at: at)
            i += 6
            if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONError("lone surrogate escape \\u\(hex(scalar, digits: 4)) in a string (a low surrogate with no high one before it)", at: at)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                guard i + 1 < b.count, b[i] == Byte.backslash, b[i + 1] == 0x75 else {
                    throw JSONError("lone surrogate escape \\u\(hex(scalar, digits: 4)) in a string (a high surrogate with no \\u escape of a low one after it)", at: at)
                }
                let low = try hex4(at: i)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONError("lone surrogate escape \\u\(hex(scalar, digits: 4)) in a string (followed by \\u\(hex(low, digits: 4)), not a low surrogate)", at: at)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            }
            appendUTF8(scalar, to: &out)
            return
        default:
            let what = (0x21...0x7E).contains(e) ? "\"\\\(Character(Unicode.Scalar(e)))\"" : "(\"\\\" followed by \(shown(e)))"
            throw JSONError("invalid escape \(what) in a string", at: at)
        }
        out.append(simple)
        i += 2
    }

    /// The four hex digits after the `\u` at `at`.
    private func hex4(at: Int) throws(JSONError) -> UInt32 {
        var v: UInt32 = 0
        for k in 2..<6 {
            guard at + k < b.count else { throw JSONError("the input ends inside a string escape", at: b.count) }
            let c = b[at + k]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default:
                var shownText = "\\u"
                var j = at + 2
                while j < at + 6, j < b.count, (0x21...0x7E).contains(b[j]), b[j] != Byte.quote, b[j] != Byte.backslash {
                    shownText.unicodeScalars.append(Unicode.Scalar(b[j]))
                    j += 1
                }
                throw JSONError("invalid escape \"\(shownText)\" in a string (\\u takes four hex digits)", at: at)
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// The end of the multi-byte UTF-8 sequence that starts at `at`, checked strictly.
    private func endOfScalar(at: Int) throws(JSONError) -> Int {
        func invalid(_ why: String) -> JSONError { JSONError("invalid UTF-8 (\(why))", at: at) }
        let lead = b[at]
        var length = 0
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        case 0x80...0xBF: throw invalid("continuation byte 0x\(hex(UInt32(lead), digits: 2)) with no lead byte")
        case 0xC0, 0xC1: throw invalid("an overlong encoding")
        default: throw invalid("byte 0x\(hex(UInt32(lead), digits: 2)) never occurs in UTF-8")
        }
        guard at + 1 < b.count else { throw invalid("a sequence cut short") }
        let second = b[at + 1]
        if second < low || second > high {
            guard (0x80...0xBF).contains(second) else { throw invalid("a sequence cut short") }
            switch lead {
            case 0xED: throw invalid("a surrogate (U+D800–U+DFFF) encoded in UTF-8")
            case 0xF4: throw invalid("a code point above U+10FFFF")
            default: throw invalid("an overlong encoding")
            }
        }
        for k in 2..<length where at + k >= b.count || !(0x80...0xBF).contains(b[at + k]) {
            throw invalid("a sequence cut short")
        }
        return at + length
    }
}

/// `scalar` (a code point, not a surrogate) appended to `out` as UTF-8.
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
        out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | scalar >> 6))
        out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | scalar >> 12))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    default:
        out.append(UInt8(0xF0 | scalar >> 18))
        out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    }
}
