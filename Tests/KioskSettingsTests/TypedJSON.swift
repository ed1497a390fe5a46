// A strict JSON reader (RFC 8259) for toml-test's expected values, and the comparison of a read
// TOML document with them. toml-test writes each value as {"type": "integer", "value": "42"},
// tables as objects and arrays as arrays.
import KioskSettings

enum JSON: Equatable {
    case object([String: JSON])
    case array([JSON])
    case string(String)
    /// The number as written.
    case number(String)
    case bool(Bool)
    case null

    struct ParseError: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "byte \(offset): \(message)" }
    }

    /// Reads one JSON value, with nothing but white space around it.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSON {
        var r = Reader(b: bytes)
        let v = try r.value(depth: 0)
        r.skipSpace()
        guard r.i == bytes.count else { throw r.fail("text after the value") }
        return v
    }

    private struct Reader {
        let b: [UInt8]
        var i = 0

        var c: UInt8? { i < b.count ? b[i] : nil }

        func fail(_ m: String) -> ParseError { ParseError(message: m, offset: i) }

        mutating func skipSpace() {
            while let x = c, x == 0x20 || x == 0x09 || x == 0x0A || x == 0x0D { i += 1 }
        }

        mutating func literal(_ word: String, _ v: JSON) throws(ParseError) -> JSON {
            let w = Array(word.utf8)
            guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { throw fail("expected \(word)") }
            i += w.count
            return v
        }

        mutating func value(depth: Int) throws(ParseError) -> JSON {
            guard depth < 100 else { throw fail("nested too deep") }
            skipSpace()
            switch c {
            case UInt8(ascii: "{"):
                i += 1
                var members: [String: JSON] = [:]
                skipSpace()
                if c == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard c == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                    let name = try string()
                    skipSpace()
                    guard c == UInt8(ascii: ":") else { throw fail("expected :") }
                    i += 1
                    guard members[name] == nil else { throw fail("duplicate member \(name)") }
                    members[name] = try value(depth: depth + 1)
                    skipSpace()
                    if c == UInt8(ascii: ",") { i += 1; continue }
                    guard c == UInt8(ascii: "}") else { throw fail("expected , or }") }
                    i += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [JSON] = []
                skipSpace()
                if c == UInt8(ascii: "]") { i += 1; return .array(elements) }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if c == UInt8(ascii: ",") { i += 1; continue }
                    guard c == UInt8(ascii: "]") else { throw fail("expected , or ]") }
                    i += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        mutating func digits() throws(ParseError) {
            let s = i
            while let x = c, x >= 0x30 && x <= 0x39 { i += 1 }
            guard i > s else { throw fail("expected a digit") }
        }

        mutating func number() throws(ParseError) -> JSON {
            let s = i
            if c == UInt8(ascii: "-") { i += 1 }
            if c == UInt8(ascii: "0") { i += 1 } else { try digits() }
            if c == UInt8(ascii: ".") { i += 1; try digits() }
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                i += 1
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 }
                try digits()
            }
            return .number(String(decoding: b[s..<i], as: UTF8.self))
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let x = c, let d = UInt32(String(UnicodeScalar(x)), radix: 16) else { throw fail("bad \\u escape") }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws(ParseError) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard let x = c else { throw fail("unterminated string") }
                i += 1
                switch x {
                case UInt8(ascii: "\""):
                    guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
                    return s
                case UInt8(ascii: "\\"):
                    guard let e = c else { throw fail("unterminated string") }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var v = try hex4()
                        if (0xD800...0xDBFF).contains(v) {
                            guard c == UInt8(ascii: "\\"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "u") else {
                                throw fail("lone surrogate")
                            }
                            i += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw fail("bad surrogate pair") }
                            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(v) else { throw fail("lone surrogate") }
                        out.append(contentsOf: UTF8.encode(u)!)
                    default: throw fail("bad escape")
                    }
                case 0..<0x20: throw fail("control character in a string")
                default: out.append(x)
                }
            }
        }
    }
}

extension JSON {
    /// toml-test's typed value: (type, value), or nil for a table or an array.
    var typed: (type: String, value: String)? {
        guard case let .object(members) = self, members.count == 2,
              case let .string(type)? = members["type"], case let .string(value)? = members["value"] else { return nil }
        return (type, value)
    }

    static let dateTimeTypes: Set<String> = ["datetime", "datetime-local", "date-local", "time-local"]

    /// Whether a date or a time is among the expected values.
    var hasDateOrTime: Bool {
        if let t = typed { return Self.dateTimeTypes.contains(t.type) }
        switch self {
        case let .object(members): return members.values.contains { $0.hasDateOrTime }
        case let .array(elements): return elements.contains { $0.hasDateOrTime }
        default: return false
        }
    }
}

/// Where a read document differs from toml-test's expected values, or nil if it has exactly them.
func difference(_ table: TOMLTable, _ expected: JSON, at path: String = "") -> String? {
    guard expected.typed == nil, case let .object(members) = expected else { return "\(path): a table, expected \(expected)" }
    guard Set(table.keys) == Set(members.keys), table.keys.count == members.count else {
        return "\(path): keys \(table.keys.sorted()), expected \(members.keys.sorted())"
    }
    for key in table.keys {
        if let d = difference(table[key]!, members[key]!, at: path + "." + key) { return d }
    }
    return nil
}

func difference(_ value: TOMLValue, _ expected: JSON, at path: String) -> String? {
    if let (type, text) = expected.typed {
        let same: Bool
        switch type {
        case "string": same = value.string == text
        case "integer": same = value.int != nil && value.int == Int(text)
        case "bool": same = value.bool != nil && value.bool == (text == "true")
        case "float":
            guard let d = value.double else { same = false; break }
            switch text {
            case "nan", "+nan", "-nan": same = d.isNaN
            case "inf", "+inf": same = d == .infinity
            case "-inf": same = d == -.infinity
            default: same = Double(text) == d  // as toml-test compares: -0.0 is 0
            }
        default: same = false
        }
        return same ? nil : "\(path): \(value), expected \(type) \(text)"
    }
    switch (value, expected) {
    case let (.table(t), _): return difference(t, expected, at: path)
    case let (.array(a), .array(e)):
        guard a.count == e.count else { return "\(path): \(a.count) elements, expected \(e.count)" }
        for k in a.indices {
            if let d = difference(a[k], e[k], at: "\(path)[\(k)]") { return d }
        }
        return nil
    default: return "\(path): \(value), expected \(expected)"
    }
}
