// TOML 1.0 for board profiles, read strictly, without Foundation.
//
// What it reads: all of TOML 1.0 (https://toml.io/en/v1.0.0) except dates and times — bare,
// quoted and dotted keys; `[table]` and `[[array of tables]]` headers; inline tables; basic,
// literal and multi-line strings with every escape; integers (decimal, 0x, 0o, 0b; 64-bit);
// floats (with inf and nan); booleans; arrays (mixed types); comments; and TOML's rules on
// defining tables (no table defined twice, no key set twice, inline tables and static arrays
// closed). Offset date-times, local date-times, local dates and local times are refused with a
// message starting `not supported: `. Anything else that is not TOML 1.0 is an error, never
// guessed at: the input is bytes and must be UTF-8 (invalid sequences are errors, a BOM at the
// start is skipped), lines end in LF or CRLF, and control characters other than tab are refused
// in strings and comments.
//
// Limits, so that no input can crash the reader or make it balloon:
// - a document is at most 1 MiB (`TOMLTable.maxDocumentBytes`), so keys and strings are too;
// - tables, arrays and inline tables nest at most 32 deep (`TOMLTable.maxNesting`), counted
//   from the top level. The reader recurses only into arrays and inline tables, so its stack
//   depth is bounded by that limit, and so are `description` and the freeing of a document.
// What is read is in proportion: a 1 MiB document of the worst kind (300,000 empty inline
// tables, or 100,000 keys) takes about 35 MB while read; a board profile of 2 kB, a few kB.
//
// Errors are one line, `line:column: message`, the column counting Unicode scalars from 1.
// Every key and value keeps where it starts (`TOMLTable.position(of:)`), so that a value found
// wrong later, by the board profile, can be reported as `file:line:column`.
//
// Why not a TOML package: the one at hand (TOMLKit) brings in Foundation with its calendar and
// ICU data; linked into `kiosk-hud` that cost about 4 MB of resident memory and a millisecond
// of start-up before the first frame, against a 12 MB and 10 ms budget, to read a file of
// sixty lines. This reader is plain Swift with no imports and is tested on its own, against
// the toml-test suite too (TOMLSuiteTests).

/// A TOML table: the document itself, a `[table]`, an element of an `[[array of tables]]`, an
/// inline table, or a table made by dotted keys. Keys keep the order of the file.
public final class TOMLTable: CustomStringConvertible {
    /// The largest document read, in bytes.
    public static let maxDocumentBytes = 1 << 20
    /// How deep tables, arrays and inline tables may nest, counted from the top level.
    public static let maxNesting = 32

    /// Keys in file order.
    public internal(set) var keys: [String] = []
    var entries: [String: Entry] = [:]
    /// How the table was made, which decides what may add to it later.
    var origin: Origin
    /// Tables, arrays and inline tables around it (the document: 0).
    let depth: Int

    init(origin: Origin, depth: Int) {
        self.origin = origin
        self.depth = depth
    }

    /// Reads a whole document: UTF-8 bytes (a BOM at the start is skipped), at most
    /// `maxDocumentBytes`.
    public convenience init(bytes: [UInt8]) throws(TOMLParseError) {
        self.init(origin: .header, depth: 0)
        var reader = try TOMLReader(bytes)
        try reader.document(into: self)
    }

    /// Reads a whole document from a string. A string is always valid Unicode, so bytes that were
    /// not UTF-8 cannot be detected any more: read files with `init(bytes:)`.
    public convenience init(string: String) throws(TOMLParseError) {
        guard string.utf8.count <= Self.maxDocumentBytes else { throw .documentTooLarge }
        try self.init(bytes: Array(string.utf8))
    }

    /// The value of `key`, nil if there is none.
    public subscript(key: String) -> TOMLValue? { entries[key]?.value }

    /// Where the value of `key` starts, or with `indices`, an element of that array: `[2]` its
    /// third element, `[2, 0]` the first element of that one. A table's position is that of its
    /// `[header]` (or `{`, or its first dotted key); an array of tables' elements are at their
    /// `[[header]]`s.
    public func position(of key: String, at indices: [Int] = []) -> (line: Int, column: Int)? {
        guard var node = entries[key]?.located else { return nil }
        for k in indices {
            guard node.elements.indices.contains(k) else { return nil }
            node = node.elements[k]
        }
        return (node.at.line, node.at.column)
    }

    /// Where `key` itself is written (its first appearance, for a table named on several lines).
    public func position(ofKey key: String) -> (line: Int, column: Int)? {
        entries[key].map { ($0.key.line, $0.key.column) }
    }

    /// `{key = value, …}`, cut at about 80 characters.
    public var description: String {
        var out = ShortText()
        write(to: &out)
        return out.text
    }

    func write(to out: inout ShortText) {
        out.add("{")
        for (k, key) in keys.enumerated() {
            if out.isFull { return }
            if k > 0 { out.add(", ") }
            out.addKey(key)
            out.add(" = ")
            entries[key]?.value.write(to: &out)
        }
        out.add("}")
    }
}

/// A TOML value.
public enum TOMLValue: CustomStringConvertible {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The string, or nil if the value is not one (and so on for each type; an integer is not
    /// a `double`).
    public var string: String? { if case let .string(s) = self { return s }; return nil }
    public var int: Int? { if case let .integer(i) = self { return i }; return nil }
    public var double: Double? { if case let .float(d) = self { return d }; return nil }
    public var bool: Bool? { if case let .boolean(b) = self { return b }; return nil }
    /// An array, or the tables of an `[[array of tables]]`.
    public var array: [TOMLValue]? { if case let .array(a) = self { return a }; return nil }
    public var table: TOMLTable? { if case let .table(t) = self { return t }; return nil }

    /// The value as TOML would write it, on one line, cut at about 80 characters with "…".
    public var description: String {
        var out = ShortText()
        write(to: &out)
        return out.text
    }

    func write(to out: inout ShortText) {
        switch self {
        case let .string(s): out.addQuoted(s)
        case let .integer(i): out.add(String(i))
        case let .float(d): out.add(d.description)
        case let .boolean(b): out.add(b ? "true" : "false")
        case let .array(a):
            out.add("[")
            for (k, v) in a.enumerated() {
                if out.isFull { return }
                if k > 0 { out.add(", ") }
                v.write(to: &out)
            }
            out.add("]")
        case let .table(t): t.write(to: &out)
        }
    }
}

/// Where and why a document is not TOML 1.0 (or uses what this reader does not support).
public struct TOMLParseError: Error, CustomStringConvertible, Equatable {
    /// One line: what is wrong, e.g. `leading zero in a number`, `not supported: local date values`.
    public var message: String
    /// Where the fault is: line and column (in Unicode scalars) from 1.
    public var line: Int
    public var column: Int

    init(_ message: String, _ pos: (Int, Int)) { self.message = message; line = pos.0; column = pos.1 }
    init(_ message: String, _ pos: Position) { self.init(message, (pos.line, pos.column)) }

    static var documentTooLarge: TOMLParseError { TOMLParseError("document larger than 1 MiB", (1, 1)) }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
