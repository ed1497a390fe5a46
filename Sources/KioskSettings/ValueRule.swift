/// A value from a structured document (a board file's TOML, a client's JSON) as a rule reads
/// it: numbers (a float, or a whole number), booleans, strings and arrays.
public protocol StructuredValue {
    var double: Double? { get }
    var int: Int? { get }
    var bool: Bool? { get }
    var string: String? { get }
    var array: [Self]? { get }
}

extension TOMLValue: StructuredValue {}

/// A value did not meet its rule: what was expected (e.g. "a number from 0 to 1").
public struct RuleError: Error, Equatable, Sendable {
    public var expected: String
    public init(_ expected: String) { self.expected = expected }
}

/// What a setting's value must be: its type, its range or choices, its unit. Every value from
/// the command line, a board file or a client goes through one, so a value is checked the same
/// way wherever it comes from.
public struct ValueRule: Sendable {
    public enum Kind: Sendable {
        /// A finite number from `min` to `max` (`minOpen`: above `min`).
        case number(min: Double, max: Double, minOpen: Bool)
        /// A whole number from `min` to `max`.
        case integer(min: Int, max: Int)
        /// One of these whole numbers.
        case integerChoice([Int])
        /// true/false (on the command line a flag and its --no- form).
        case bool
        /// One of these words.
        case choice([String])
        /// Text of at most `maxBytes` UTF-8 bytes, without NUL; `nonEmpty`: at least one character.
        case text(maxBytes: Int, nonEmpty: Bool)
        /// WIDTHxHEIGHT, each side from `min` to `max`.
        case size(min: Int, max: Int)
        /// X,Y, each within ±`limit`.
        case point(limit: Double)
        /// #RRGGBB or #RRGGBBAA.
        case color
        /// Text parsed by `parse` (a matrix, a video mode), which says why a value is not valid.
        case custom(parse: @Sendable (String) throws(RuleError) -> SettingValue)
        /// A list of text values (repeated on the command line), each checked by `element`.
        case texts(maxCount: Int, element: TextElement)
        /// A list of whole numbers from `min` to `max`.
        case integers(min: Int, max: Int, maxCount: Int)
    }

    /// A list element's text rule.
    public struct TextElement: Sendable {
        public var maxBytes: Int
        public var nonEmpty: Bool
        public init(maxBytes: Int, nonEmpty: Bool = true) { self.maxBytes = maxBytes; self.nonEmpty = nonEmpty }
    }

    public var kind: Kind
    /// What a value is, for messages and help: "seconds", "points", "a colour #RRGGBB or #RRGGBBAA".
    public var expected: String
    /// The unit, for help ("s", "pt", "Hz"); nil: none.
    public var unit: String?

    public init(_ kind: Kind, expected: String, unit: String? = nil) {
        self.kind = kind; self.expected = expected; self.unit = unit
    }

    // MARK: Common rules

    /// A number in `range` (its lower end excluded with `minOpen`), described as `what`.
    public static func number(_ range: ClosedRange<Double>, minOpen: Bool = false, _ what: String = "a number", unit: String? = nil) -> ValueRule {
        number(range.lowerBound, range.upperBound, minOpen: minOpen, what, unit: unit)
    }

    /// A number in [min, max] (or (min, max] with `minOpen`), described as `what` (e.g. "seconds").
    public static func number(_ min: Double, _ max: Double, minOpen: Bool = false, _ what: String = "a number", unit: String? = nil) -> ValueRule {
        let range = minOpen ? "above \(formatNumber(min)) up to \(formatNumber(max))" : "from \(formatNumber(min)) to \(formatNumber(max))"
        return ValueRule(.number(min: min, max: max, minOpen: minOpen), expected: "\(what) \(range)", unit: unit)
    }

    public static func integer(_ min: Int, _ max: Int, _ what: String = "a whole number") -> ValueRule {
        ValueRule(.integer(min: min, max: max), expected: "\(what) from \(min) to \(max)")
    }

    public static func integerChoice(_ values: [Int]) -> ValueRule {
        ValueRule(.integerChoice(values), expected: listed(values.map(String.init)))
    }

    public static let bool = ValueRule(.bool, expected: "true or false")

    public static func choice(_ words: [String]) -> ValueRule { ValueRule(.choice(words), expected: listed(words)) }

    public static func text(_ maxBytes: Int, nonEmpty: Bool = false, _ what: String = "text") -> ValueRule {
        ValueRule(.text(maxBytes: maxBytes, nonEmpty: nonEmpty), expected: "\(what) of at most \(maxBytes) bytes")
    }

    /// A file path (at most PATH_MAX bytes, not empty).
    public static let path = ValueRule(.text(maxBytes: 4095, nonEmpty: true), expected: "a path")

    public static func size(_ min: Int, _ max: Int) -> ValueRule {
        ValueRule(.size(min: min, max: max), expected: "WIDTHxHEIGHT, each from \(min) to \(max)")
    }

    public static func point(_ limit: Double, _ what: String) -> ValueRule {
        ValueRule(.point(limit: limit), expected: "X,Y in \(what), each from -\(formatNumber(limit)) to \(formatNumber(limit))")
    }

    public static let color = ValueRule(.color, expected: "a colour #RRGGBB or #RRGGBBAA")

    public static func paths(max: Int) -> ValueRule {
        ValueRule(.texts(maxCount: max, element: TextElement(maxBytes: 4095)), expected: "a list of at most \(max) paths")
    }

    // MARK: Checking

    /// The value of command-line text `s`, or why not.
    public func parse(_ s: String) throws(RuleError) -> SettingValue {
        switch kind {
        case .number:
            guard let v = parseDouble(s) else { throw RuleError(expected) }
            return try number(v)
        case let .integer(lo, hi):
            guard let v = parseInt(s), v >= lo, v <= hi else { throw RuleError(expected) }
            return .integer(v)
        case let .integerChoice(values):
            guard let v = parseInt(s), values.contains(v) else { throw RuleError(expected) }
            return .integer(v)
        case .bool:
            switch s {
            case "true", "on", "yes", "1": return .bool(true)
            case "false", "off", "no", "0": return .bool(false)
            default: throw RuleError(expected)
            }
        case let .choice(words):
            guard words.contains(s) else { throw RuleError(expected) }
            return .text(s)
        case let .text(maxBytes, nonEmpty):
            try checkText(s, maxBytes: maxBytes, nonEmpty: nonEmpty)
            return .text(s)
        case let .size(lo, hi):
            let p = s.split(separator: "x", maxSplits: 2, omittingEmptySubsequences: false)
            guard p.count == 2, let w = parseInt(String(p[0])), let h = parseInt(String(p[1])),
                  (lo...hi).contains(w), (lo...hi).contains(h) else { throw RuleError(expected) }
            return .size(width: w, height: h)
        case let .point(limit):
            let p = s.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            guard p.count == 2, let x = parseDouble(trimmed(p[0])), let y = parseDouble(trimmed(p[1])),
                  x.isFinite, y.isFinite, abs(x) <= limit, abs(y) <= limit else { throw RuleError(expected) }
            return .point(x: x, y: y)
        case .color:
            guard let c = parseColor(s) else { throw RuleError(expected) }
            return .color(c)
        case let .custom(parse):
            guard s.utf8.count <= 4096, !s.utf8.contains(0) else { throw RuleError(expected) }
            return try parse(s)
        case let .texts(maxCount, element):
            try checkText(s, maxBytes: element.maxBytes, nonEmpty: element.nonEmpty)
            _ = maxCount
            return .texts([s])
        case let .integers(lo, hi, _):
            let parts = s.split(whereSeparator: { $0 == "," || $0 == " " })
            let v = parts.compactMap { parseInt(String($0)) }
            guard !parts.isEmpty, v.count == parts.count, v.allSatisfy({ (lo...hi).contains($0) }) else { throw RuleError(expected) }
            return .integers(v)
        }
    }

    /// Several command-line values of a repeatable option, as one list value.
    public func parse(all values: [String]) throws(RuleError) -> SettingValue {
        if case let .integers(_, _, maxCount) = kind {
            var out: [Int] = []
            for v in values { out += try parse(v).ints }
            guard out.count <= maxCount else { throw RuleError(expected) }
            return .integers(out)
        }
        if case let .texts(maxCount, _) = kind {
            guard values.count <= maxCount else { throw RuleError(expected) }
            var out: [String] = []
            for v in values { out += try parse(v).strings }
            return .texts(out)
        }
        return try parse(values.last ?? "")
    }

    /// The value of a board file's TOML value or a client's JSON value, or why not.
    public func check<V: StructuredValue>(_ v: V) throws(RuleError) -> SettingValue {
        switch kind {
        case .number:
            if let x = v.double { return try number(x) }
            if let i = v.int { return try number(Double(i)) }
            throw RuleError(expected)
        case .integer, .integerChoice:
            if let i = v.int { return try parse(String(i)) }
            if let d = v.double, d == d.rounded(), abs(d) < 1e15 { return try parse(String(Int(d))) }
            throw RuleError(expected)
        case .bool:
            guard let b = v.bool else { throw RuleError(expected) }
            return .bool(b)
        case let .texts(maxCount, element):
            guard let a = v.array, a.count <= maxCount else { throw RuleError(expected) }
            var out: [String] = []
            for e in a {
                guard let s = e.string else { throw RuleError(expected) }
                try checkText(s, maxBytes: element.maxBytes, nonEmpty: element.nonEmpty)
                out.append(s)
            }
            return .texts(out)
        case let .integers(lo, hi, maxCount):
            guard let a = v.array, a.count <= maxCount else { throw RuleError(expected) }
            var out: [Int] = []
            for e in a {
                guard let i = e.int, (lo...hi).contains(i) else { throw RuleError(expected) }
                out.append(i)
            }
            return .integers(out)
        default:
            guard let s = v.string else { throw RuleError(expected) }
            return try parse(s)
        }
    }

    /// `v` if it is finite and in the rule's range.
    public func number(_ v: Double) throws(RuleError) -> SettingValue {
        guard case let .number(lo, hi, open) = kind, v.isFinite, open ? v > lo : v >= lo, v <= hi else { throw RuleError(expected) }
        return .number(v)
    }

    private func checkText(_ s: String, maxBytes: Int, nonEmpty: Bool) throws(RuleError) {
        if nonEmpty && s.isEmpty { throw RuleError(expected) }
        if s.utf8.count > maxBytes { throw RuleError(expected) }
        if s.utf8.contains(0) { throw RuleError(expected + " (without NUL characters)") }
    }
}

/// "a, b or c".
public func listed(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + words.last!
}

/// A decimal number as people write it: digits, one point, an exponent; no hex floats, no
/// "inf"/"nan", no leading "+" or spaces (Double(_:) takes all of those).
public func parseDouble(_ s: String) -> Double? {
    let b = Array(s.utf8)
    guard !b.isEmpty, b.count <= 64 else { return nil }
    var sawDigit = false, sawPoint = false, sawExponent = false
    for (i, c) in b.enumerated() {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
        case UInt8(ascii: "-") where i == 0: break
        case UInt8(ascii: "-"), UInt8(ascii: "+"):
            // Only right after the exponent's e.
            guard i > 0, b[i - 1] == UInt8(ascii: "e") || b[i - 1] == UInt8(ascii: "E") else { return nil }
        case UInt8(ascii: "."):
            guard !sawPoint, !sawExponent else { return nil }
            sawPoint = true
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            guard sawDigit, !sawExponent else { return nil }
            sawExponent = true
        default: return nil
        }
    }
    guard sawDigit, let last = b.last, last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9") || last == UInt8(ascii: ".") else { return nil }
    return Double(s)
}

/// A decimal whole number ("-12"), no "+" or spaces.
public func parseInt(_ s: String) -> Int? {
    guard !s.isEmpty, s.utf8.count <= 20, s.utf8.enumerated().allSatisfy({ $0.element >= 48 && $0.element <= 57 || ($0.offset == 0 && $0.element == 45) }) else { return nil }
    return Int(s)
}

/// "#RRGGBB" or "#RRGGBBAA" → 0xRRGGBBAA.
public func parseColor(_ s: String) -> UInt32? {
    guard s.hasPrefix("#") else { return nil }
    let h = s.dropFirst()
    guard h.count == 6 || h.count == 8, h.allSatisfy(\.isHexDigit), let v = UInt32(h, radix: 16) else { return nil }
    return h.count == 6 ? v << 8 | 0xFF : v
}

private func trimmed(_ s: Substring) -> String {
    String(String(s.drop { $0 == " " }.reversed()).drop { $0 == " " }.reversed())
}
