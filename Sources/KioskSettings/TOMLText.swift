// The TOML reader's byte-level helpers: short one-line descriptions, character classes, UTF-8.
// MARK: - Short one-line text

/// Text for messages and descriptions: at most `limit` Unicode scalars, then "…"; never builds
/// more than that, however large the value.
struct ShortText {
    static let limit = 80
    var buffer = ""
    var count = 0
    var cut = false

    var isFull: Bool { cut }
    var text: String { cut ? buffer + "…" : buffer }

    mutating func add(_ s: String) {
        for u in s.unicodeScalars {
            if cut { return }
            add(u)
        }
    }

    mutating func add(_ u: Unicode.Scalar) {
        guard count < Self.limit else { cut = true; return }
        buffer.unicodeScalars.append(u)
        count += 1
    }

    /// A basic string with escapes for `"`, `\` and control characters: one line.
    mutating func addQuoted(_ s: String) {
        add("\"")
        for u in s.unicodeScalars {
            if cut { return }
            if let e = basicStringEscape(u) { add(e) } else { add(u) }
        }
        add("\"")
    }

    /// Control characters escaped, the rest as it is (for a value that is not in quotes).
    mutating func addEscapingControls(_ s: String) {
        for u in s.unicodeScalars {
            if cut { return }
            if u.value < 0x20 || u.value == 0x7F { add("\\u" + hex4(u.value)) } else { add(u) }
        }
    }

    /// A key bare if it can be, else quoted.
    mutating func addKey(_ key: String) {
        if !key.isEmpty && key.utf8.allSatisfy(isBare) { add(key) } else { addQuoted(key) }
    }
}

/// How a TOML basic string writes `u`: an escape for `"`, `\` and control characters, nil for
/// the character itself.
func basicStringEscape(_ u: Unicode.Scalar) -> String? {
    switch u {
    case "\"": "\\\""
    case "\\": "\\\\"
    case "\n": "\\n"
    case "\t": "\\t"
    case "\r": "\\r"
    case _ where u.value < 0x20 || u.value == 0x7F: "\\u" + hex4(u.value)
    default: nil
    }
}

/// `0041` for U+0041.
func hex4(_ v: UInt32) -> String {
    let h = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - h.count)) + h
}

// MARK: - Bytes

extension UInt8 {
    static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
    static let hash = UInt8(ascii: "#"), equals = UInt8(ascii: "="), dot = UInt8(ascii: "."), comma = UInt8(ascii: ",")
    static let plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-"), underscore = UInt8(ascii: "_"), colon = UInt8(ascii: ":")
    static let lbracket = UInt8(ascii: "["), rbracket = UInt8(ascii: "]"), lbrace = UInt8(ascii: "{"), rbrace = UInt8(ascii: "}")
}

/// A-Z a-z 0-9 _ -
func isBare(_ x: UInt8) -> Bool {
    (x >= 0x41 && x <= 0x5A) || (x >= 0x61 && x <= 0x7A) || (x >= 0x30 && x <= 0x39) || x == .underscore || x == .minus
}

/// Control characters other than tab: not allowed in strings or comments.
func isControl(_ x: UInt8) -> Bool { (x < 0x20 && x != .tab) || x == 0x7F }

func isDigit(_ x: UInt8) -> Bool { x >= 0x30 && x <= 0x39 }

/// The value of a digit in base 16 or below, or nil.
func digitValue(_ x: UInt8) -> UInt64? {
    switch x {
    case 0x30...0x39: UInt64(x - 0x30)
    case 0x41...0x46: UInt64(x - 0x41 + 10)
    case 0x61...0x66: UInt64(x - 0x61 + 10)
    default: nil
    }
}

/// The offset of the first byte that does not start a well-formed UTF-8 sequence (no overlong
/// forms, surrogates or values above U+10FFFF), or nil.
func firstInvalidUTF8(in b: [UInt8]) -> Int? {
    var i = 0
    while i < b.count {
        let x = b[i]
        if x < 0x80 { i += 1; continue }
        let length: Int, second: ClosedRange<UInt8>
        switch x {
        case 0xC2...0xDF: length = 2; second = 0x80...0xBF
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; second = 0x80...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; second = 0x80...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return i
        }
        guard i + length <= b.count, second.contains(b[i + 1]) else { return i }
        for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
        i += length
    }
    return nil
}
