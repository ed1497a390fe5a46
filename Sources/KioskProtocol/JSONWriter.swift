extension JSON {
    /// `value` as one compact line of JSON: no white space, no raw line break (a newline in a
    /// string is written `\n`), object keys in their order. Strings: `"` and `\` escaped, the
    /// control characters U+0000–U+001F as `\b \f \n \r \t` or `\u00XX`, everything else kept
    /// as UTF-8 ("/" is not escaped). Numbers: whole ones with |x| < 2^53 without a fraction
    /// ("42", "-0"), others as Swift's shortest round-trip text ("0.15", "1e+300");
    /// a non-finite number (NaN, ±infinity), which JSON can not express, is written `null`.
    ///
    /// `JSON.parse(JSON.encode(v)) == v` for every `v` without non-finite numbers (and within
    /// the limits the reader is given).
    public static func encode(_ value: JSONValue) -> String {
        String(decoding: encodeBytes(value), as: UTF8.self)
    }

    /// `encode(value)` as UTF-8 bytes.
    public static func encodeBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.value(value, into: &out)
        return out
    }

    /// `encode(value)` appended to `bytes` (e.g. before the "\n" that ends a protocol line).
    public static func encode(_ value: JSONValue, into bytes: inout [UInt8]) {
        JSONWriter.value(value, into: &bytes)
    }
}

/// The writer: one function per kind of value, recursing once per nesting level.
enum JSONWriter {
    static func value(_ v: JSONValue, into out: inout [UInt8]) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: b ? "true".utf8 : "false".utf8)
        case let .number(x): JSONNumber.write(x, into: &out)
        case let .string(s): string(s, into: &out)
        case let .array(items):
            out.append(Byte.openBracket)
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(Byte.comma) }
                value(item, into: &out)
            }
            out.append(Byte.closeBracket)
        case let .object(object):
            out.append(Byte.openBrace)
            for n in 0..<object.count {
                if n > 0 { out.append(Byte.comma) }
                string(object.keys[n], into: &out)
                out.append(Byte.colon)
                value(object.values[n], into: &out)
            }
            out.append(Byte.closeBrace)
        }
    }

    /// `s` quoted, with the escapes RFC 8259 requires and no others.
    static func string(_ s: String, into out: inout [UInt8]) {
        var s = s
        out.append(Byte.quote)
        s.withUTF8 { bytes in
            for c in bytes {
                switch c {
                case Byte.quote, Byte.backslash:
                    out.append(Byte.backslash)
                    out.append(c)
                case 0x08: out.append(Byte.backslash); out.append(0x62) // \b
                case 0x0C: out.append(Byte.backslash); out.append(0x66) // \f
                case Byte.newline: out.append(Byte.backslash); out.append(0x6E) // \n
                case Byte.carriageReturn: out.append(Byte.backslash); out.append(0x72) // \r
                case Byte.tab: out.append(Byte.backslash); out.append(0x74) // \t
                case 0x00...0x1F:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigit(c >> 4))
                    out.append(hexDigit(c & 0xF))
                default: out.append(c)
                }
            }
        }
        out.append(Byte.quote)
    }

    /// A lower-case hexadecimal digit.
    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}
