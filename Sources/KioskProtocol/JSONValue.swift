/// One JSON value (RFC 8259).
///
/// Equality: strings (and object keys) are equal when their code points are, not by Swift's
/// canonical equivalence ("é" is not "e\u{301}" here); numbers by Double's == (so 0 == -0);
/// objects when they have the same keys in the same order with equal values.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; `JSON.parse` only makes finite ones, and `JSON.encode` writes a non-finite one
    /// as `null`.
    case number(Double)
    /// A string (any Unicode text; the reader makes it from checked UTF-8).
    case string(String)
    /// An array, its items in order.
    case array([JSONValue])
    /// An object, its keys in order.
    case object(JSONObject)
}

extension JSONValue {
    /// The string, or nil for any other kind of value.
    public var string: String? { if case let .string(s) = self { return s }; return nil }

    /// The number, or nil for any other kind of value.
    public var double: Double? { if case let .number(v) = self { return v }; return nil }

    /// The number if it is a whole number strictly between -2^53 and 2^53 (where every integer
    /// is exact in a Double), else nil: 3 and 3.0 give 3; 3.5, 1e300 and "3" give nil.
    public var int: Int? {
        guard case let .number(v) = self, let i = JSONNumber.exactInteger(v) else { return nil }
        return Int(exactly: i) // nil past Int.max on a 32-bit target
    }

    /// The Boolean, or nil for any other kind of value.
    public var bool: Bool? { if case let .bool(b) = self { return b }; return nil }

    /// The items, or nil for any other kind of value.
    public var array: [JSONValue]? { if case let .array(a) = self { return a }; return nil }

    /// The object, or nil for any other kind of value.
    public var object: JSONObject? { if case let .object(o) = self { return o }; return nil }

    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The member named `key` of an object; nil when there is none or this is not an object.
    public subscript(key: String) -> JSONValue? { object?[key] }
}

extension JSONValue: Equatable {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return sameScalars(x, y)
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x == y
        default: return false
        }
    }
}

/// Whether two strings have the same code points (the same UTF-8 bytes).
@inline(__always)
func sameScalars(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
}

/// Values written as Swift literals: `["cmd": "update", "progress": 0.5, "buttons": ["OK"], "icon": nil]`.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with the keys in the literal's order; a key given twice is a programming error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
