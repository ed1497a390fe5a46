/// A JSON object: members with distinct keys, kept in their order.
///
/// Keys are compared code point by code point (RFC 8259 §8.3), not by Swift's canonical
/// equivalence. Lookup is a scan for small objects and a hash table from 9 members on.
/// Building an object with a key twice (`init`, `append`, a dictionary literal) is a programming
/// error; a duplicate key in parsed text is a `JSONError`.
public struct JSONObject: Sendable {
    /// The keys, in their order.
    public private(set) var keys: [String] = []
    /// The values, in the keys' order.
    public private(set) var values: [JSONValue] = []
    /// Key → position, built once the object has more than `scanLimit` members.
    private var index: [ExactKey: Int]?

    private static let scanLimit = 8

    /// An empty object.
    public init() {}

    /// An object with these members in this order. A key given twice is a programming error.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (k, v) in members { append(k, v) }
    }

    /// How many members.
    public var count: Int { keys.count }

    /// Whether there are no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value for `key`, or nil.
    public subscript(key: String) -> JSONValue? {
        position(of: key).map { values[$0] }
    }

    /// The members, in their order.
    public var members: [(key: String, value: JSONValue)] {
        (0..<keys.count).map { (keys[$0], values[$0]) }
    }

    /// Whether there is a member named `key`.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Adds a member at the end. `key` already present is a programming error.
    public mutating func append(_ key: String, _ value: JSONValue) {
        precondition(position(of: key) == nil, "JSONObject: duplicate key \"\(key)\"")
        appendNew(key, value)
    }

    /// Adds a member whose key the caller knows is new (the parser checked it).
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![ExactKey(key)] = keys.count - 1
        } else if keys.count > Self.scanLimit {
            var table: [ExactKey: Int] = [:]
            table.reserveCapacity(keys.count * 2)
            for (i, k) in keys.enumerated() { table[ExactKey(k)] = i }
            index = table
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        return keys.firstIndex { sameScalars($0, key) }
    }

    /// A key hashed and compared by its UTF-8 bytes.
    private struct ExactKey: Hashable {
        var text: String
        init(_ text: String) { self.text = text }
        static func == (a: ExactKey, b: ExactKey) -> Bool { sameScalars(a.text, b.text) }
        func hash(into hasher: inout Hasher) {
            var t = text
            t.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}

extension JSONObject: Equatable {
    /// The same keys in the same order, with equal values.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.keys.count == b.keys.count && a.keys.elementsEqual(b.keys, by: sameScalars) && a.values == b.values
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// The literal's members in its order; a key given twice is a programming error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
