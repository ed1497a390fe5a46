// What the KioskProtocol suites share: refusal helpers, a seeded generator (KioskTestSupport's) and a
// generator of JSON values.
import KioskProtocol
import Testing
import KioskTestSupport

/// Why `text` is refused, or nil (and a recorded issue) if it is read.
func refusal(_ text: String, limits: JSONLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    refusal(bytes: Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
}

func refusal(bytes: [UInt8], limits: JSONLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    do {
        let v = try JSON.parse(bytes, limits: limits)
        Issue.record("accepted: \(JSON.encode(v))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The value of `text`, or nil (and a recorded issue) if it is refused.
func parsed(_ text: String, limits: JSONLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
    parsed(bytes: Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
}

func parsed(bytes: [UInt8], limits: JSONLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
    do {
        return try JSON.parse(bytes, limits: limits)
    } catch {
        Issue.record("refused: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A refused document: where and why.
struct Refused: Sendable, CustomTestStringConvertible {
    var bytes: [UInt8]
    var offset: Int
    var message: String
    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    init(_ text: String, _ offset: Int, _ message: String) {
        self.init(bytes: Array(text.utf8), offset, message)
    }
    init(bytes: [UInt8], _ offset: Int, _ message: String) {
        self.bytes = bytes; self.offset = offset; self.message = message
    }
}

/// Checks that `r.bytes` is refused with exactly `r.message` at `r.offset`.
func expectRefused(_ r: Refused, limits: JSONLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let e = refusal(bytes: r.bytes, limits: limits, sourceLocation: sourceLocation) else { return }
    #expect(e.message == r.message, sourceLocation: sourceLocation)
    #expect(e.offset == r.offset, "\(e)", sourceLocation: sourceLocation)
    #expect(e.description == "at byte \(r.offset): \(r.message)", sourceLocation: sourceLocation)
}


/// Random JSON values: nested arrays and objects, strings with escapes, controls, non-ASCII and
/// astral characters, numbers at the edges of what a Double holds.
struct ValueGenerator {
    var rng: SeededGenerator

    /// Characters strings are made of: ASCII, everything JSON escapes, the edges of each UTF-8
    /// length, non-characters, the BOM, line and paragraph separators, astral ones.
    static let scalars: [Unicode.Scalar] = {
        var s: [Unicode.Scalar] = Array("abcXYZ019 _-/.:{}[],".unicodeScalars)
        s += (0x00...0x1F).map { Unicode.Scalar(UInt8($0)) }
        s += ["\"", "\\", "\u{7F}", "\u{80}", "é", "\u{301}", "\u{7FF}", "\u{800}", "€", "\u{D7FF}", "\u{E000}",
              "\u{FEFF}", "\u{FFFD}", Unicode.Scalar(0xFFFF)!, "\u{2028}", "\u{2029}", "\u{10000}", "😀", "𝄞", Unicode.Scalar(0x10FFFF)!]
        return s
    }()

    mutating func string(maxLength: Int = 12) -> String {
        var v = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &rng) { v.append(Self.scalars.randomElement(using: &rng)!) }
        return String(v)
    }

    mutating func number() -> Double {
        let edges: [Double] = [0, -0.0, 1, -1, 0.1, 0.15, 1e-7, 1e21, 1e22, 1e23, 9_007_199_254_740_991, -9_007_199_254_740_991,
                               9_007_199_254_740_992, -9_007_199_254_740_992, 9_007_199_254_740_994, .greatestFiniteMagnitude,
                               -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 0.1 + 0.2, 1 / 3.0]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return edges.randomElement(using: &rng)!
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
        case 2: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 1000
        default:
            while true {
                let v = Double(bitPattern: rng.next())
                if v.isFinite { return v }
            }
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        let kind = Int.random(in: 0..<(depth >= 6 ? 5 : 8), using: &rng)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2, 3: return .number(number())
        case 4: return .string(string())
        case 5: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth + 1) })
        default:
            var o = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let k = string(maxLength: 6)
                if !o.contains(k) { o.append(k, value(depth: depth + 1)) }
            }
            return .object(o)
        }
    }
}

/// A string of these code points (for the non-characters Swift's literals refuse).
func scalars(_ values: UInt32...) -> String {
    String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
}

/// "32.3 µs".
func micros(_ d: Duration) -> String {
    let us = Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    return "\((us * 10).rounded() / 10) µs"
}

/// "12.5 ms".
func millis(_ d: Duration) -> String {
    let ms = Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    return "\((ms * 10).rounded() / 10) ms"
}
