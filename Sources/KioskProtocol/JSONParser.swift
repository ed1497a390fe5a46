/// JSON text in and out: `JSON.parse` (strict RFC 8259, bounded by `JSONLimits`) and
/// `JSON.encode` (one compact line).
public enum JSON {
    /// The one JSON value in `bytes` (UTF-8), with nothing but white space around it.
    ///
    /// Strict RFC 8259: anything else is a `JSONError` saying what and where — invalid UTF-8, a
    /// byte order mark, white space other than space, tab, LF and CR, a raw control character
    /// or a bad escape in a string, a lone surrogate escape, a number outside the grammar or
    /// not finite as a Double, a duplicate key, text after the value — and so is going over any
    /// of `limits` (the input's size is checked first, before any byte is read).
    /// Never recurses: a deep input costs one small frame per open container, up to
    /// `limits.maxDepth`.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        let count = bytes.count
        guard count <= limits.maxBytes else {
            throw JSONError("input longer than \(limits.maxBytes) bytes (maxBytes)", at: limits.maxBytes)
        }
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            var parser = JSONParser(buffer, limits: limits)
            return Result { () throws(JSONError) in try parser.document() }
        }
        if let parsed { return try parsed.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, limits: limits)
            return Result { () throws(JSONError) in try parser.document() }
        }.get()
    }
}

/// The reader: a cursor over the input's bytes and a stack of the containers still open.
struct JSONParser {
    let b: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    /// The next byte to read.
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.b = bytes
        self.limits = limits
    }

    /// An array or object still open: the items or members read so far.
    private struct Frame {
        var isObject: Bool
        /// Where its "[" or "{" is.
        var offset: Int
        var items: [JSONValue] = []
        var object = JSONObject()
        /// The key of the member whose value is being read, and where that key starts.
        var key = ""
        var keyOffset = 0
    }

    /// The whole input: one value, white space around it.
    mutating func document() throws(JSONError) -> JSONValue {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            throw JSONError("a byte order mark (U+FEFF) before the value", at: 0)
        }
        var stack: [Frame] = []
        var value: JSONValue
        skipSpace()
        readValue: while true {
            // A value starts at `i`.
            let start = i
            guard i < b.count else { throw expected("a value") }
            switch b[i] {
            case Byte.openBracket, Byte.openBrace:
                guard stack.count < limits.maxDepth else {
                    throw JSONError("nesting deeper than \(limits.maxDepth) (maxDepth)", at: i)
                }
                let isObject = b[i] == Byte.openBrace
                i += 1
                skipSpace()
                if i < b.count, b[i] == (isObject ? Byte.closeBrace : Byte.closeBracket) {
                    i += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    var frame = Frame(isObject: isObject, offset: start)
                    if isObject { try member(of: &frame) }
                    stack.append(frame)
                    continue readValue
                }
            case Byte.quote: value = .string(try string())
            case Byte.minus, Byte.zero...Byte.nine: value = .number(try number())
            case 0x41...0x5A, 0x61...0x7A: value = try literal()
            case Byte.plus, Byte.dot:
                throw JSONError("a number can not start with \(shown(b[i]))", at: i)
            default: throw expected("a value")
            }

            // A whole value (starting at `valueStart`): into its container, closing the
            // containers that end after it.
            var valueStart = start
            while !stack.isEmpty {
                let top = stack.count - 1
                skipSpace()
                if stack[top].isObject {
                    guard stack[top].object.count < limits.maxElements else {
                        throw JSONError("object with more than \(limits.maxElements) members (maxElements)", at: stack[top].keyOffset)
                    }
                    stack[top].object.appendNew(stack[top].key, value)
                    if i < b.count, b[i] == Byte.comma {
                        i += 1
                        skipSpace()
                        if i < b.count, b[i] == Byte.closeBrace { throw JSONError("a comma before \"}\" (trailing comma)", at: i) }
                        try member(of: &stack[top])
                        continue readValue
                    }
                    guard i < b.count, b[i] == Byte.closeBrace else { throw expected("\",\" or \"}\" after an object member") }
                    i += 1
                    let closed = stack.removeLast()
                    value = .object(closed.object)
                    valueStart = closed.offset
                } else {
                    guard stack[top].items.count < limits.maxElements else {
                        throw JSONError("array with more than \(limits.maxElements) items (maxElements)", at: valueStart)
                    }
                    stack[top].items.append(value)
                    if i < b.count, b[i] == Byte.comma {
                        i += 1
                        skipSpace()
                        if i < b.count, b[i] == Byte.closeBracket { throw JSONError("a comma before \"]\" (trailing comma)", at: i) }
                        continue readValue
                    }
                    guard i < b.count, b[i] == Byte.closeBracket else { throw expected("\",\" or \"]\" after an array item") }
                    i += 1
                    let closed = stack.removeLast()
                    value = .array(closed.items)
                    valueStart = closed.offset
                }
            }
            break
        }
        skipSpace()
        guard i == b.count else { throw JSONError("unexpected text after the value", at: i) }
        return value
    }

    /// An object member's key and its colon, up to the value: `"key" :`.
    private mutating func member(of frame: inout Frame) throws(JSONError) {
        guard i < b.count, b[i] == Byte.quote else { throw expected("a key (a string)") }
        let offset = i
        let key = try string()
        if frame.object.contains(key) { throw JSONError("duplicate key \(quoted(key))", at: offset) }
        skipSpace()
        guard i < b.count, b[i] == Byte.colon else { throw expected("\":\" after the key \(quoted(key))") }
        i += 1
        skipSpace()
        frame.key = key
        frame.keyOffset = offset
    }

    /// `true`, `false` or `null`; any other word is named in the error.
    private mutating func literal() throws(JSONError) -> JSONValue {
        let start = i
        var end = i
        while end < b.count, end - start < 32, Byte.isWordByte(b[end]) { end += 1 }
        let word = UnsafeBufferPointer(rebasing: b[start..<end])
        i = end
        if word.elementsEqual("true".utf8) { return .bool(true) }
        if word.elementsEqual("false".utf8) { return .bool(false) }
        if word.elementsEqual("null".utf8) { return .null }
        let more = end < b.count && Byte.isWordByte(b[end]) ? "…" : ""
        throw JSONError("invalid literal \"\(String(decoding: word, as: UTF8.self))\(more)\" (expected a value)", at: start)
    }

    /// Skips the four white space characters of RFC 8259 (space, tab, LF, CR).
    @inline(__always)
    mutating func skipSpace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// "expected WHAT, found X" at the current byte.
    func expected(_ what: String) -> JSONError {
        JSONError("expected \(what), found \(i < b.count ? shown(b[i]) : "the end of the input")", at: i)
    }
}

/// A key or string in a message: quoted and escaped as JSON, cut at 80 characters.
func quoted(_ s: String) -> String {
    var cut = s
    let long = s.unicodeScalars.count > 80
    if long { cut = String(String.UnicodeScalarView(s.unicodeScalars.prefix(80))) }
    var out: [UInt8] = []
    JSONWriter.string(cut, into: &out)
    if long { out.insert(contentsOf: "…".utf8, at: out.count - 1) }
    return String(decoding: out, as: UTF8.self)
}

/// One byte in a message: "\"x\"" for printable ASCII, "U+0009" for a control character,
/// "byte 0xC3" for a byte of a multi-byte sequence.
func shown(_ c: UInt8) -> String {
    switch c {
    case Byte.quote: return "'\"'"
    case 0x21...0x7E: return "\"\(Character(Unicode.Scalar(c)))\""
    case 0x20: return "a space"
    case 0x00...0x1F, 0x7F: return "control character \(codePoint(UInt32(c)))"
    default: return "byte 0x\(hex(UInt32(c), digits: 2))"
    }
}

/// "U+0009", "U+1F600".
func codePoint(_ v: UInt32) -> String { "U+" + hex(v, digits: 4) }

/// Upper-case hexadecimal, at least `digits` digits.
func hex(_ v: UInt32, digits: Int) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
}

/// The bytes the reader looks for.
enum Byte {
    static let tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
    static let quote: UInt8 = 0x22, plus: UInt8 = 0x2B, comma: UInt8 = 0x2C, minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E, slash: UInt8 = 0x2F, zero: UInt8 = 0x30, nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A, openBracket: UInt8 = 0x5B, backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D, openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- zero < 10 }

    /// A letter, digit or "_": the bytes of a mistyped literal ("True", "NaN", "nul1").
    static func isWordByte(_ c: UInt8) -> Bool {
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        default: return false
        }
    }
}
