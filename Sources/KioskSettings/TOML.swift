/// The part of TOML that board profiles use, read without Foundation: `[table]` headers,
/// `key = value` with bare or quoted keys, basic and literal strings, integers, floats, booleans
/// and (multi-line) arrays, comments. Anything else — dotted keys, inline tables, dates,
/// multi-line strings, hex numbers — is an error naming its line and column, never guessed at.
///
/// Why not a TOML package: the one at hand (TOMLKit) brings in Foundation with its calendar and
/// ICU data; linked into `kiosk-hud` that cost about 4 MB of resident memory and a millisecond
/// of start-up before the first frame, against a 12 MB and 10 ms budget, to read a file of
/// thirty lines. This reader is two hundred lines of Swift and is tested on its own.
public final class TOMLTable: CustomStringConvertible {
    /// Keys in file order.
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]
    private var positions: [String: (Int, Int)] = [:]

    init() {}

    public subscript(key: String) -> TOMLValue? { values[key] }

    /// Where `key`'s value (or table header) starts: line and column, from 1; (0, 0) if absent.
    public func position(of key: String) -> (line: Int, column: Int) {
        let p = positions[key] ?? (0, 0)
        return (p.0, p.1)
    }

    func set(_ key: String, _ value: TOMLValue, at pos: (Int, Int)) throws(TOMLParseError) {
        if values[key] != nil { throw TOMLParseError("duplicate key \"\(key)\"", pos) }
        keys.append(key)
        values[key] = value
        positions[key] = pos
    }

    /// Parses a whole document.
    public convenience init(string: String) throws(TOMLParseError) {
        self.init()
        var p = TOMLParser(Array(string.utf8))
        try p.document(into: self)
    }

    public var description: String { "{" + keys.map { "\($0) = \(values[$0]!)" }.joined(separator: ", ") + "}" }
}

/// A TOML value.
public enum TOMLValue: CustomStringConvertible {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case let .string(s) = self { return s }; return nil }
    public var int: Int? { if case let .integer(i) = self { return i }; return nil }
    public var double: Double? { if case let .float(d) = self { return d }; return nil }
    public var bool: Bool? { if case let .boolean(b) = self { return b }; return nil }
    public var array: [TOMLValue]? { if case let .array(a) = self { return a }; return nil }
    public var table: TOMLTable? { if case let .table(t) = self { return t }; return nil }

    public var description: String {
        switch self {
        case let .string(s): return "\"\(s)\""
        case let .integer(i): return "\(i)"
        case let .float(d): return "\(d)"
        case let .boolean(b): return b ? "true" : "false"
        case let .array(a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case let .table(t): return t.description
        }
    }
}

/// Where and why a document is not (our subset of) TOML.
public struct TOMLParseError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var line: Int
    public var column: Int

    init(_ message: String, _ pos: (Int, Int)) { self.message = message; line = pos.0; column = pos.1 }

    public var description: String { "\(line):\(column): \(message)" }
}

struct TOMLParser {
    let b: [UInt8]
    var i = 0
    var line = 1, lineStart = 0

    init(_ bytes: [UInt8]) { b = bytes }

    var pos: (Int, Int) { (line, i - lineStart + 1) }
    var atEnd: Bool { i >= b.count }
    var c: UInt8 { i < b.count ? b[i] : 0 }

    mutating func fail(_ m: String) -> TOMLParseError { TOMLParseError(m, pos) }

    mutating func skipSpaces() { while !atEnd && (c == 0x20 || c == 0x09) { i += 1 } }

    mutating func skipComment() {
        if c == UInt8(ascii: "#") { while !atEnd && c != 0x0A { i += 1 } }
    }

    /// Spaces, comments and newlines.
    mutating func skipBlank() {
        while !atEnd {
            skipSpaces()
            skipComment()
            if c == 0x0D && i + 1 < b.count && b[i + 1] == 0x0A { i += 1 }
            if c == 0x0A { i += 1; line += 1; lineStart = i } else { break }
        }
    }

    /// The end of a line: spaces, a comment, then a newline or the end.
    mutating func endOfLine() throws(TOMLParseError) {
        skipSpaces()
        skipComment()
        if c == 0x0D { i += 1 }
        if atEnd { return }
        guard c == 0x0A else { throw fail("expected the end of the line") }
        i += 1; line += 1; lineStart = i
    }

    mutating func document(into root: TOMLTable) throws(TOMLParseError) {
        var current = root
        while true {
            skipBlank()
            if atEnd { return }
            if c == UInt8(ascii: "[") {
                let at = pos
                i += 1
                if c == UInt8(ascii: "[") { throw fail("arrays of tables are not supported") }
                skipSpaces()
                let name = try key()
                skipSpaces()
                if c == UInt8(ascii: ".") { throw fail("dotted table names are not supported") }
                guard c == UInt8(ascii: "]") else { throw fail("expected ] after the table name") }
                i += 1
                let t = TOMLTable()
                try root.set(name, .table(t), at: at)
                current = t
                try endOfLine()
                continue
            }
            let at = pos
            let k = try key()
            skipSpaces()
            if c == UInt8(ascii: ".") { throw fail("dotted keys are not supported") }
            guard c == UInt8(ascii: "=") else { throw fail("expected = after the key \"\(k)\"") }
            i += 1
            skipSpaces()
            let v = try value()
            try current.set(k, v, at: at)
            try endOfLine()
        }
    }

    mutating func key() throws(TOMLParseError) -> String {
        if c == UInt8(ascii: "\"") { return try basicString() }
        if c == UInt8(ascii: "'") { return try literalString() }
        let s = i
        while !atEnd, isBare(c) { i += 1 }
        guard i > s else { throw fail("expected a key") }
        return String(decoding: b[s..<i], as: UTF8.self)
    }

    func isBare(_ x: UInt8) -> Bool {
        (x >= 0x41 && x <= 0x5A) || (x >= 0x61 && x <= 0x7A) || (x >= 0x30 && x <= 0x39) || x == 0x5F || x == 0x2D
    }

    mutating func value() throws(TOMLParseError) -> TOMLValue {
        switch c {
        case UInt8(ascii: "\""):
            if i + 2 < b.count && b[i + 1] == 0x22 && b[i + 2] == 0x22 { throw fail("multi-line strings are not supported") }
            return .string(try basicString())
        case UInt8(ascii: "'"): return .string(try literalString())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): throw fail("inline tables are not supported")
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            if matches("true") { i += 4; return .boolean(true) }
            if matches("false") { i += 5; return .boolean(false) }
            throw fail("expected a value")
        default: return try number()
        }
    }

    func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { return false }
        return i + w.count == b.count || !isBare(b[i + w.count])
    }

    mutating func number() throws(TOMLParseError) -> TOMLValue {
        let start = pos
        let s = i
        while !atEnd, isBare(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || c == UInt8(ascii: ":") { i += 1 }
        var text = String(decoding: b[s..<i], as: UTF8.self)
        guard !text.isEmpty else { throw fail("expected a value") }
        if text.contains(":") || (text.count >= 10 && text.dropFirst(4).first == "-") {
            throw TOMLParseError("dates and times are not supported", start)
        }
        let lower = text.lowercased()
        if lower.hasPrefix("0x") || lower.hasPrefix("0o") || lower.hasPrefix("0b") {
            throw TOMLParseError("only decimal numbers are supported", start)
        }
        // Underscores only between digits.
        let chars = Array(text)
        for (k, ch) in chars.enumerated() where ch == "_" {
            guard k > 0, k + 1 < chars.count, chars[k - 1].isNumber, chars[k + 1].isNumber else {
                throw TOMLParseError("misplaced _ in the number \(text)", start)
            }
        }
        text.removeAll { $0 == "_" }
        if let v = Int(text) { return .integer(v) }
        let body = text.hasPrefix("+") || text.hasPrefix("-") ? String(text.dropFirst()) : text
        if ["inf", "nan"].contains(body) { return .float(text.hasPrefix("-") ? -.infinity : (body == "nan" ? .nan : .infinity)) }
        guard body.first?.isNumber == true, body.last?.isNumber == true, let d = Double(text) else {
            throw TOMLParseError("expected a value, found \(text)", start)
        }
        return .float(d)
    }

    mutating func array() throws(TOMLParseError) -> TOMLValue {
        i += 1
        var out: [TOMLValue] = []
        while true {
            skipBlank()
            if c == UInt8(ascii: "]") { i += 1; return .array(out) }
            if atEnd { throw fail("unterminated array") }
            out.append(try value())
            skipBlank()
            if c == UInt8(ascii: ",") { i += 1; continue }
            if c == UInt8(ascii: "]") { i += 1; return .array(out) }
            throw fail("expected , or ] in the array")
        }
    }

    mutating func literalString() throws(TOMLParseError) -> String {
        i += 1
        let s = i
        while !atEnd && c != UInt8(ascii: "'") {
            if c == 0x0A { throw fail("unterminated string") }
            i += 1
        }
        guard !atEnd else { throw fail("unterminated string") }
        defer { i += 1 }
        return String(decoding: b[s..<i], as: UTF8.self)
    }

    mutating func basicString() throws(TOMLParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard !atEnd, c != 0x0A else { throw fail("unterminated string") }
            let ch = c
            i += 1
            if ch == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard ch == UInt8(ascii: "\\") else { out.append(ch); continue }
            let e = c
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let n = e == UInt8(ascii: "u") ? 4 : 8
                guard i + n <= b.count, let v = UInt32(String(decoding: b[i..<(i + n)], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(v) else { throw fail("bad \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i += n
            default: throw fail("unknown escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
    }
}
