// The TOML reader itself: a cursor over the document's bytes, blanks and comments, headers and
// keys, values (see TOML.swift's header).
// MARK: - The reader

/// Reads a document into a table: a cursor over the bytes with the current line, and one
/// function per construct of the grammar.
struct TOMLReader {
    let b: [UInt8]
    var i: Int
    var line = 1
    /// The offset of the current line's first byte.
    var lineStart: Int
    /// Columns count Unicode scalars: UTF-8 continuation bytes on the current line before
    /// `columnScan`, kept as the reader moves on so that positions cost nothing to compute.
    var columnScan: Int
    var continuationBytes = 0

    init(_ bytes: [UInt8]) throws(TOMLParseError) {
        guard bytes.count <= TOMLTable.maxDocumentBytes else { throw .documentTooLarge }
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        b = bytes
        i = bom
        lineStart = bom
        columnScan = bom
        if let bad = firstInvalidUTF8(in: bytes) {
            while i < bad { if !newline() { i += 1 } }
            throw fail("invalid UTF-8 (byte 0x\(String(b[bad], radix: 16, uppercase: true)))")
        }
    }

    // MARK: Cursor

    var atEnd: Bool { i >= b.count }
    /// The byte at the cursor; 0 at the end (check `atEnd` where a NUL byte would matter).
    var c: UInt8 { i < b.count ? b[i] : 0 }

    func byte(at k: Int) -> UInt8? { k < b.count ? b[k] : nil }

    /// The position of byte `k` of the current line.
    mutating func position(_ k: Int) -> Position {
        if columnScan < lineStart || columnScan > k { columnScan = lineStart; continuationBytes = 0 }
        while columnScan < k {
            if b[columnScan] & 0xC0 == 0x80 { continuationBytes += 1 }
            columnScan += 1
        }
        return Position(line: line, column: k - lineStart - continuationBytes + 1)
    }

    mutating func here() -> Position { position(i) }

    mutating func fail(_ message: String, at k: Int? = nil) -> TOMLParseError {
        TOMLParseError(message, position(k ?? i))
    }

    /// What is at `k`, for "expected …, found …".
    func found(at k: Int) -> String {
        guard k < b.count else { return "the end of the document" }
        let x = b[k]
        switch x {
        case .lf: return "the end of the line"
        case .cr: return byte(at: k + 1) == .lf ? "the end of the line" : "a carriage return without a line feed"
        case .space: return "a space"
        case .tab: return "a tab"
        case .quote: return "'\"'"
        case 0x21...0x7E: return "\"\(Character(Unicode.Scalar(x)))\""
        case 0x80...:
            var scalar: UInt32 = 0
            var utf8 = UTF8()
            var it = b[k...].makeIterator()
            if case let .scalarValue(u) = utf8.decode(&it) { scalar = u.value }
            return "U+" + hex4(scalar)
        default: return "U+" + hex4(UInt32(x))
        }
    }

    func foundHere() -> String { found(at: i) }

    /// Bytes of the document (a token) for a message, cut at about 80 characters.
    func text(_ range: Range<Int>) -> String {
        var out = ShortText()
        out.add(String(decoding: b[range], as: UTF8.self))
        return out.text
    }

    // MARK: Blanks, comments, line ends

    mutating func skipSpaces() {
        while i < b.count, b[i] == .space || b[i] == .tab { i += 1 }
    }

    /// A comment up to the end of the line, if one starts here.
    mutating func skipComment() throws(TOMLParseError) {
        guard c == .hash else { return }
        i += 1
        while i < b.count {
            let x = b[i]
            if x == .lf || (x == .cr && byte(at: i + 1) == .lf) { return }
            if isControl(x) { throw fail("control character U+\(hex4(UInt32(x))) in a comment") }
            i += 1
        }
    }

    /// Moves past a line end (LF or CRLF); false if there is none here.
    mutating func newline() -> Bool {
        if c == .lf { i += 1 } else if c == .cr && byte(at: i + 1) == .lf { i += 2 } else { return false }
        line += 1
        lineStart = i
        return true
    }

    /// Spaces, comments and line ends (between lines, and inside arrays).
    mutating func skipBlank() throws(TOMLParseError) {
        repeat {
            skipSpaces()
            try skipComment()
        } while newline()
    }

    /// After a header or a key's value: spaces, a comment, then a line end or the end.
    mutating func endOfLine(after what: String) throws(TOMLParseError) {
        skipSpaces()
        try skipComment()
        guard atEnd || newline() else { throw fail("expected the end of the line after \(what), found \(foundHere())") }
    }

    // MARK: Document, headers, keys

    mutating func document(into root: TOMLTable) throws(TOMLParseError) {
        var table = root
        while true {
            try skipBlank()
            if atEnd { return }
            if c == .lbracket {
                table = try header(in: root)
                try endOfLine(after: "the table header")
            } else {
                let path = try key()
                try keyValue(path, into: table)
                try endOfLine(after: "the value")
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: the table that the following lines fill.
    mutating func header(in root: TOMLTable) throws(TOMLParseError) -> TOMLTable {
        let at = here()
        let isArray = byte(at: i + 1) == .lbracket
        i += isArray ? 2 : 1
        let path = try key()
        guard c == .rbracket, !isArray || byte(at: i + 1) == .rbracket else {
            throw fail("expected \(isArray ? "]]" : "]") after the table name, found \(foundHere())")
        }
        i += isArray ? 2 : 1
        return isArray ? try root.appendTable(path, at: at) : try root.defineTable(path, at: at)
    }

    /// `= value` after `path`, set in `table`.
    mutating func keyValue(_ path: [KeyPart], into table: TOMLTable) throws(TOMLParseError) {
        guard c == .equals else { throw fail("expected = after the key \(keyText(path)), found \(foundHere())") }
        i += 1
        skipSpaces()
        let (value, located) = try value(depth: table.depth + path.count)
        try table.insert(path, value, located)
    }

    /// A key: its parts separated by dots, with the spaces around them.
    mutating func key() throws(TOMLParseError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            skipSpaces()
            // Each part before the last is a table: more than this cannot be read anyway.
            guard parts.count <= TOMLTable.maxNesting else { throw .tooDeep(here()) }
            let at = here()
            parts.append(KeyPart(name: try simpleKey(), at: at))
            skipSpaces()
            guard c == .dot else { return parts }
            i += 1
        }
    }

    mutating func simpleKey() throws(TOMLParseError) -> String {
        if c == .quote || c == .apostrophe {
            let delimiter = c
            if byte(at: i + 1) == delimiter && byte(at: i + 2) == delimiter {
                throw fail("a multi-line string cannot be a key")
            }
            i += 1
            return try string(delimiter, multiline: false)
        }
        let s = i
        while i < b.count, isBare(b[i]) { i += 1 }
        guard i > s else { throw fail("expected a key, found \(foundHere())") }
        return String(decoding: b[s..<i], as: UTF8.self)
    }

    // MARK: Values

    /// A value; `depth`: how deep it is if it is an array or an inline table.
    mutating func value(depth: Int) throws(TOMLParseError) -> (TOMLValue, Located) {
        let at = here()
        switch c {
        case .quote, .apostrophe:
            let delimiter = c
            let multiline = byte(at: i + 1) == delimiter && byte(at: i + 2) == delimiter
            i += multiline ? 3 : 1
            return (.string(try string(delimiter, multiline: multiline)), Located(at: at))
        case .lbracket:
            guard depth <= TOMLTable.maxNesting else { throw .tooDeep(at) }
            return try array(depth: depth, at: at)
        case .lbrace:
            guard depth <= TOMLTable.maxNesting else { throw .tooDeep(at) }
            return (.table(try inlineTable(depth: depth, at: at)), Located(at: at))
        default:
            return (try scalar(at: at), Located(at: at))
        }
    }

    /// `[a, b, …]`, over lines and with comments; a trailing comma is allowed.
    mutating func array(depth: Int, at: Position) throws(TOMLParseError) -> (TOMLValue, Located) {
        i += 1
        var values: [TOMLValue] = []
        var positions: [Located] = []
        while true {
            try skipBlank()
            if c == .rbracket { break }
            guard !atEnd else { throw fail("unterminated array (opened at \(at.text))") }
            let (value, located) = try value(depth: depth + 1)
            values.append(value)
            positions.append(located)
            try skipBlank()
            if c == .comma { i += 1; continue }
            if c == .rbracket { break }
            throw fail(atEnd ? "unterminated array (opened at \(at.text))" : "expected , or ] in the array, found \(foundHere())")
        }
        i += 1
        return (.array(values), Located(at: at, elements: positions))
    }

    /// `{a = 1, b.c = 2}`: on one line (but for line ends inside its values), no trailing comma.
    mutating func inlineTable(depth: Int, at: Position) throws(TOMLParseError) -> TOMLTable {
        i += 1
        let table = TOMLTable(origin: .inline, depth: depth)
        skipSpaces()
        if c == .rbrace { i += 1; return table }
        while true {
            let path = try key()
            try keyValue(path, into: table)
            skipSpaces()
            if c == .comma {
                i += 1
                skipSpaces()
                if c == .rbrace { throw fail("trailing comma in an inline table") }
                continue
            }
            if c == .rbrace { i += 1; return table }
            if atEnd { throw fail("unterminated inline table (opened at \(at.text))") }
            if c == .lf || c == .cr || c == .hash { throw fail("line end in an inline table (opened at \(at.text))") }
            throw fail("expected , or } in the inline table, found \(foundHere())")
        }
    }

    /// A string after its opening delimiter (one, or three for a multi-line string). Basic strings
    /// (`"`) have escapes; literal strings (`'`) do not. Line ends in a multi-line string read as
    /// LF; a line end right after the opening delimiter is dropped.
    mutating func string(_ delimiter: UInt8, multiline: Bool) throws(TOMLParseError) -> String {
        let opened = position(i - (multiline ? 3 : 1))
        if multiline { _ = newline() }
        var out: [UInt8] = []  // used only once an escape or a CRLF changes the text
        var changed = false
        var run = i  // the start of the bytes not yet copied to `out`
        while true {
            guard i < b.count else { throw fail("unterminated string (opened at \(opened.text))") }
            let x = b[i]
            if x == delimiter {
                var end = i + 1
                if multiline {
                    while end < b.count && b[end] == delimiter { end += 1 }
                    let quotes = end - i
                    guard quotes >= 3 else { i = end; continue }
                    guard quotes <= 5 else { throw fail("too many \(Character(Unicode.Scalar(x))) at the end of a multi-line string", at: i + 5) }
                    i = end - 3  // up to two delimiters are content, just before the closing three
                }
                let text: String
                if changed {
                    out += b[run..<i]
                    text = String(decoding: out, as: UTF8.self)
                } else {
                    text = String(decoding: b[run..<i], as: UTF8.self)
                }
                i = end
                return text
            }
            if x == .backslash && delimiter == .quote {
                out += b[run..<i]
                changed = true
                try escape(into: &out, multiline: multiline)
                run = i
            } else if x == .lf || x == .cr {
                guard multiline else {
                    if x == .lf || byte(at: i + 1) == .lf { throw fail("unterminated string (opened at \(opened.text))") }
                    throw fail("control character U+000D in a string")
                }
                if x == .cr {
                    guard byte(at: i + 1) == .lf else { throw fail("control character U+000D in a string") }
                    out += b[run..<i]
                    out.append(.lf)
                    changed = true
                    _ = newline()
                    run = i
                } else {
                    _ = newline()
                }
            } else if isControl(x) {
                throw fail("control character U+\(hex4(UInt32(x))) in a string")
            } else {
                i += 1
            }
        }
    }

    /// An escape in a basic string, from its backslash.
    mutating func escape(into out: inout [UInt8], multiline: Bool) throws(TOMLParseError) {
        let start = i
        i += 1
        guard i < b.count else { throw fail("unterminated string") }
        let e = b[i]
        i += 1
        switch e {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case .quote: out.append(.quote)
        case .backslash: out.append(.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = e == UInt8(ascii: "u") ? 4 : 8
            var v: UInt64 = 0
            for k in 0..<digits {
                guard let d = byte(at: i + k).flatMap(digitValue) else {
                    throw fail("invalid escape \(escapeText(start, length: digits + 2))", at: start)
                }
                v = v * 16 + d
            }
            guard let scalar = Unicode.Scalar(UInt32(v)) else {
                throw fail("invalid escape \(escapeText(start, length: digits + 2)): not a Unicode scalar value", at: start)
            }
            i += digits
            out.append(contentsOf: UTF8.encode(scalar)!)
        case .space, .tab, .lf, .cr:
            // A line-ending backslash: it, the rest of the line's spaces, and all spaces and line
            // ends after it are dropped.
            guard multiline else { throw fail("invalid escape \(escapeText(start, length: 2))", at: start) }
            i -= 1
            skipSpaces()
            guard newline() else {
                throw fail("invalid escape: only spaces may follow a backslash that ends a line", at: start)
            }
            repeat { skipSpaces() } while newline()
        default:
            throw fail("invalid escape \(escapeText(start, length: 2))", at: start)
        }
    }

    /// The escape at `start` as written (`\u+041`), for a message.
    func escapeText(_ start: Int, length: Int) -> String {
        var end = start + 1
        while end < min(start + length, b.count), b[end] > 0x20, b[end] < 0x7F, b[end] != .quote { end += 1 }
        return end == start + 1 ? "\\ followed by \(found(at: end))" : String(decoding: b[start..<end], as: UTF8.self)
    }

    /// A boolean, number, or (refused) date or time: the bytes up to a space, comma, bracket, …
    mutating func scalar(at: Position) throws(TOMLParseError) -> TOMLValue {
        let s = i
        while i < b.count, isBare(b[i]) || b[i] == .plus || b[i] == .dot || b[i] == .colon { i += 1 }
        let token = b[s..<i]
        guard !token.isEmpty else { throw fail("expected a value, found \(foundHere())") }
        if token.elementsEqual("true".utf8) { return .boolean(true) }
        if token.elementsEqual("false".utf8) { return .boolean(false) }
        if startsLikeDateOrTime(token) || token.contains(.colon) {
            try dateOrTime(from: s, at: at)
        }
        return try number(s, i, at: at)
    }

    /// `dddd-` (a date) or `dd:` (a time).
    func startsLikeDateOrTime(_ token: ArraySlice<UInt8>) -> Bool {
        let s = token.startIndex
        func digits(_ n: Int) -> Bool { token.count > n && token[s..<(s + n)].allSatisfy(isDigit) }
        return digits(4) && token[s + 4] == .minus || digits(2) && token[s + 2] == .colon
    }

    /// Integers and floats (TOML's grammar, checked here; the conversion of a float's digits is
    /// Swift's, correctly rounded).
    mutating func number(_ s: Int, _ e: Int, at: Position) throws(TOMLParseError) -> TOMLValue {
        var k = s
        let negative = b[k] == .minus
        if b[k] == .plus || b[k] == .minus { k += 1 }
        if b[k..<e].elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if b[k..<e].elementsEqual("nan".utf8) { return .float(negative ? -.nan : .nan) }
        if e - k >= 2, b[k] == UInt8(ascii: "0"), let radix = radixPrefix(b[k + 1]) {
            guard k == s else { throw fail("a sign is not allowed on a 0x, 0o or 0b integer", at: s) }
            var j = k + 2
            try digits(&j, to: e, radix: radix, in: "the integer")
            guard j == e else { throw fail("invalid number \(text(s..<e))", at: s) }
            return .integer(try integer(k + 2, e, radix: radix, negative: false, at: s))
        }
        var j = k
        guard j < e, isDigit(b[j]) else { throw fail("expected a value, found \(text(s..<e))", at: s) }
        try digits(&j, to: e, radix: 10, in: "the number")
        if b[k] == UInt8(ascii: "0") && j - k > 1 { throw fail("leading zero in a number", at: s) }
        var isFloat = false
        if j < e && b[j] == .dot {
            j += 1
            try digits(&j, to: e, radix: 10, in: "the fraction after the decimal point")
            isFloat = true
        }
        if j < e && (b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E")) {
            j += 1
            if j < e && (b[j] == .plus || b[j] == .minus) { j += 1 }
            try digits(&j, to: e, radix: 10, in: "the exponent")
            isFloat = true
        }
        guard j == e else { throw fail("invalid number \(text(s..<e))", at: s) }
        guard isFloat else { return .integer(try integer(k, e, radix: 10, negative: negative, at: s)) }
        var digitsOnly = ""
        digitsOnly.reserveCapacity(e - s)
        for x in b[s..<e] where x != .underscore { digitsOnly.unicodeScalars.append(Unicode.Scalar(x)) }
        guard let d = Double(digitsOnly) else { throw fail("invalid number \(text(s..<e))", at: s) }
        return .float(d)
    }

    func radixPrefix(_ x: UInt8) -> UInt64? {
        switch x {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// At least one digit from `j`, with single underscores between digits; stops at anything else.
    mutating func digits(_ j: inout Int, to e: Int, radix: UInt64, in part: String) throws(TOMLParseError) {
        let start = j
        while j < e {
            if let d = digitValue(b[j]), d < radix {
                j += 1
            } else if b[j] == .underscore {
                guard j > start, j + 1 < e, let d = digitValue(b[j + 1]), d < radix else {
                    throw fail("misplaced _ in a number (only between digits)", at: j)
                }
                j += 1
            } else {
                break
            }
        }
        guard j > start else { throw fail("expected digits in \(part), found \(found(at: j))", at: j) }
    }

    /// The integer of the (checked) digits in `k..<e`, if it fits in 64 bits.
    mutating func integer(_ k: Int, _ e: Int, radix: UInt64, negative: Bool, at s: Int) throws(TOMLParseError) -> Int {
        var magnitude: UInt64 = 0
        for x in b[k..<e] where x != .underscore {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, o2) = shifted.addingReportingOverflow(digitValue(x)!)
            if o1 || o2 { throw fail("integer out of range (64 bits)", at: s) }
            magnitude = sum
        }
        let limit = UInt64(Int.max) + (negative ? 1 : 0)
        guard magnitude <= limit else { throw fail("integer out of range (64 bits)", at: s) }
        return negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude)
    }

    /// A date, a time or a date-time from `s` (which starts like one): checked, then refused as
    /// not supported. The space between a date and a time is read here.
    mutating func dateOrTime(from s: Int, at: Position) throws(TOMLParseError) -> Never {
        var k = s
        func number(_ count: Int, _ range: ClosedRange<Int>) -> Int? {
            guard k + count <= b.count else { return nil }
            var v = 0
            for x in b[k..<(k + count)] {
                guard isDigit(x) else { return nil }
                v = v * 10 + Int(x - 0x30)
            }
            k += count
            return range.contains(v) ? v : nil
        }
        func skip(_ x: UInt8) -> Bool {
            guard byte(at: k) == x else { return false }
            k += 1
            return true
        }
        var hasDate = false, hasTime = false, hasOffset = false
        var valid = true
        if b[s + 2] != .colon {
            if let year = number(4, 0...9999), skip(.minus), let month = number(2, 1...12), skip(.minus),
               let day = number(2, 1...31), day <= daysIn(month, of: year) {
                hasDate = true
            } else {
                valid = false
            }
        }
        if valid && hasDate {
            if byte(at: k) == UInt8(ascii: "T") || byte(at: k) == UInt8(ascii: "t") {
                k += 1
                hasTime = true
            } else if byte(at: k) == .space, byte(at: k + 1).map(isDigit) == true, byte(at: k + 2).map(isDigit) == true,
                      byte(at: k + 3) == .colon {
                k += 1
                hasTime = true
            }
        }
        if valid && (hasTime || !hasDate) {
            hasTime = true
            if number(2, 0...23) != nil, skip(.colon), number(2, 0...59) != nil, skip(.colon), number(2, 0...60) != nil {
                if skip(.dot) {
                    let digits = k
                    while byte(at: k).map(isDigit) == true { k += 1 }
                    valid = k > digits
                }
            } else {
                valid = false
            }
            if valid && hasDate {
                if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) {
                    hasOffset = true
                } else if skip(.plus) || skip(.minus) {
                    valid = number(2, 0...23) != nil && skip(.colon) && number(2, 0...59) != nil
                    hasOffset = true
                }
            }
        }
        while k < b.count, isBare(b[k]) || b[k] == .plus || b[k] == .dot || b[k] == .colon { k += 1; valid = false }
        i = k
        guard valid else { throw TOMLParseError("invalid date or time \(text(s..<k))", at) }
        let what = hasOffset ? "offset date-time" : hasDate && hasTime ? "local date-time" : hasDate ? "local date" : "local time"
        throw TOMLParseError("not supported: \(what) values", at)
    }

    func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
