// TOML's table and key definitions: what a document defines where, and TOML 1.0's rules on
// redefining (see TOML.swift's header).
// MARK: - Positions and entries

/// A line and a column (in Unicode scalars), both from 1. (32 bits each are plenty for 1 MiB,
/// and every key and value keeps one.)
struct Position {
    var line32: UInt32
    var column32: UInt32

    init(line: Int, column: Int) {
        line32 = UInt32(line)
        column32 = UInt32(column)
    }

    var line: Int { Int(line32) }
    var column: Int { Int(column32) }
    var text: String { "\(line):\(column)" }
}

/// Where a value starts, and for an array where each element starts.
struct Located {
    var at: Position
    var elements: [Located] = []
}

/// One part of a key (`a`, `"b c"` in `a."b c" = 1`) and where it is written.
struct KeyPart {
    var name: String
    var at: Position
}

/// How a table was made (TOML's rules on which tables may be added to later depend on it).
enum Origin {
    /// Named on the way to a header (`a` in `[a.b]`): a later `[a]` may still define it.
    case implicit
    /// By its `[header]`, as an element of an `[[array of tables]]`, or the document.
    case header
    /// By dotted keys (`a` in `a.b = 1`).
    case dotted
    /// `{ … }`: closed once read.
    case inline
}

struct Entry {
    var value: TOMLValue
    var key: Position
    var located: Located
    /// Made by `[[…]]` headers (rather than a static `[…]` value).
    var isArrayOfTables = false

    /// Appends an `[[array of tables]]` element.
    mutating func append(_ table: TOMLTable, at header: Position) {
        guard case .array(var tables) = value else { return }
        value = .boolean(false)  // `tables` is now the only owner of the array: no copy to append
        tables.append(.table(table))
        value = .array(tables)
        located.elements.append(Located(at: header))
    }

    /// What the key holds, for errors: "an inline table", "an integer", …
    var what: String {
        if isArrayOfTables { return "an array of tables" }
        switch value {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case let .table(t):
            switch t.origin {
            case .implicit, .header: return "a table"
            case .dotted: return "a table defined by dotted keys"
            case .inline: return "an inline table"
            }
        }
    }
}

// MARK: - TOML's rules on defining tables and keys

extension TOMLTable {
    /// What a key path is being used for, for errors.
    enum Use { case table, arrayOfTables, key }

    /// `[path]`: the table the lines after the header fill.
    func defineTable(_ path: [KeyPart], at header: Position) throws(TOMLParseError) -> TOMLTable {
        let parent = try walk(path, for: .table)
        let last = path[path.count - 1]
        guard let e = parent.entries[last.name] else { return try parent.addTable(last, .header, at: header) }
        guard case let .table(t) = e.value, t.origin == .implicit else {
            if case let .table(t) = e.value, t.origin == .header {
                throw TOMLParseError("table [\(keyText(path))] defined twice (first at \(e.located.at.text))", last.at)
            }
            throw conflict(.table, path, path.count - 1, e)
        }
        t.origin = .header
        parent.entries[last.name]?.located.at = header
        return t
    }

    /// `[[path]]`: a new element of that array of tables, which the lines after the header fill.
    func appendTable(_ path: [KeyPart], at header: Position) throws(TOMLParseError) -> TOMLTable {
        let parent = try walk(path, for: .arrayOfTables)
        let last = path[path.count - 1]
        guard parent.depth + 2 <= Self.maxNesting else { throw .tooDeep(last.at) }
        let t = TOMLTable(origin: .header, depth: parent.depth + 2)
        // No copy of the entry is kept while appending: the array would be copied too.
        switch parent.entries[last.name]?.isArrayOfTables {
        case nil: parent.add(last, .array([.table(t)]), Located(at: header, elements: [Located(at: header)]), arrayOfTables: true)
        case true?: parent.entries[last.name]?.append(t, at: header)
        case false?: throw conflict(.arrayOfTables, path, path.count - 1, parent.entries[last.name]!)
        }
        return t
    }

    /// `path = value` in this table (the current section, or an inline table being read).
    func insert(_ path: [KeyPart], _ value: TOMLValue, _ located: Located) throws(TOMLParseError) {
        let t = try walk(path, for: .key)
        let last = path[path.count - 1]
        if let e = t.entries[last.name] {
            throw TOMLParseError("duplicate key \(keyText(path)) (first at \(e.key.text))", last.at)
        }
        t.add(last, value, located)
    }

    /// The table that holds the last part of `path`, making the tables named on the way. A header
    /// goes through any table (the last element of an array of tables) but an inline table or a
    /// static array; dotted keys only through tables that dotted keys made, or that were only
    /// named on the way to a header so far.
    func walk(_ path: [KeyPart], for use: Use) throws(TOMLParseError) -> TOMLTable {
        var t = self
        for k in 0..<(path.count - 1) {
            let part = path[k]
            guard let e = t.entries[part.name] else {
                t = try t.addTable(part, use == .key ? .dotted : .implicit, at: part.at)
                continue
            }
            switch e.value {
            case let .table(next) where next.origin != .inline && (use != .key || next.origin != .header):
                if use == .key { next.origin = .dotted }
                t = next
            case let .array(elements) where e.isArrayOfTables && use != .key:
                guard case let .table(next)? = elements.last else { throw t.conflict(use, path, k, e) }
                t = next
            default:
                throw t.conflict(use, path, k, e)
            }
        }
        return t
    }

    func addTable(_ part: KeyPart, _ origin: Origin, at: Position) throws(TOMLParseError) -> TOMLTable {
        guard depth < Self.maxNesting else { throw .tooDeep(part.at) }
        let t = TOMLTable(origin: origin, depth: depth + 1)
        add(part, .table(t), Located(at: at))
        return t
    }

    func add(_ part: KeyPart, _ value: TOMLValue, _ located: Located, arrayOfTables: Bool = false) {
        keys.append(part.name)
        entries[part.name] = Entry(value: value, key: part.at, located: located, isArrayOfTables: arrayOfTables)
    }

    /// `cannot define [a.b]: a is already an integer (at 1:1)`.
    func conflict(_ use: Use, _ path: [KeyPart], _ k: Int, _ e: Entry) -> TOMLParseError {
        let target = switch use {
        case .table: "[\(keyText(path))]"
        case .arrayOfTables: "[[\(keyText(path))]]"
        case .key: keyText(path)
        }
        let name = keyText(path[...k])
        return TOMLParseError("cannot define \(target): \(name) is already \(e.what) (at \(e.key.text))", path[k].at)
    }
}

extension TOMLParseError {
    static func tooDeep(_ at: Position) -> TOMLParseError {
        TOMLParseError("nesting deeper than \(TOMLTable.maxNesting)", at)
    }
}

/// A key path as TOML writes it (`a."b c".d`), cut at about 80 characters.
func keyText(_ path: some Collection<KeyPart>) -> String {
    var out = ShortText()
    for (k, part) in path.enumerated() {
        if out.isFull { break }
        if k > 0 { out.add(".") }
        out.addKey(part.name)
    }
    return out.text
}
