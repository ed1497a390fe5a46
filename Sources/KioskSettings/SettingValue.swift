/// A setting's value, checked by its rule, on its way from the command line, a board file or a
/// client into the settings it changes.
public enum SettingValue: Equatable, Sendable {
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case text(String)
    /// WIDTHxHEIGHT.
    case size(width: Int, height: Int)
    /// X,Y.
    case point(x: Double, y: Double)
    /// #RRGGBBAA.
    case color(UInt32)
    /// A matrix or another fixed list of numbers.
    case numbers([Double])
    case texts([String])
    case integers([Int])

    public var double: Double { if case let .number(v) = self { return v }; if case let .integer(i) = self { return Double(i) }; return 0 }
    public var int: Int { if case let .integer(i) = self { return i }; if case let .number(v) = self { return Int(v) }; return 0 }
    public var bool: Bool { if case let .bool(b) = self { return b }; return false }
    public var string: String { if case let .text(s) = self { return s }; return "" }
    public var strings: [String] { if case let .texts(s) = self { return s }; return [] }
    public var ints: [Int] { if case let .integers(i) = self { return i }; return [] }
    public var doubles: [Double] { if case let .numbers(n) = self { return n }; return [] }

    /// How the value is written in a board file (TOML).
    public var toml: String {
        switch self {
        case let .number(v): return formatNumber(v, alwaysFraction: true)
        case let .integer(i): return String(i)
        case let .bool(b): return b ? "true" : "false"
        case let .text(s): return tomlString(s)
        case let .size(w, h): return "\"\(w)x\(h)\""
        case let .point(x, y): return "\"\(formatNumber(x)),\(formatNumber(y))\""
        case let .color(c): return "\"\(hexColor(c))\""
        case let .numbers(n): return "\"" + n.map { formatNumber($0) }.joined(separator: ", ") + "\""
        case let .texts(t): return "[" + t.map(tomlString).joined(separator: ", ") + "]"
        case let .integers(i): return "[" + i.map(String.init).joined(separator: ", ") + "]"
        }
    }

    /// How the value is written on the command line (and in help: "default 30").
    public var text: String {
        switch self {
        case let .number(v): return formatNumber(v)
        case let .integer(i): return String(i)
        case let .bool(b): return b ? "on" : "off"
        case let .text(s): return s
        case let .size(w, h): return "\(w)x\(h)"
        case let .point(x, y): return "\(formatNumber(x)),\(formatNumber(y))"
        case let .color(c): return hexColor(c)
        case let .numbers(n): return n.map { formatNumber($0) }.joined(separator: ",")
        case let .texts(t): return t.joined(separator: ", ")
        case let .integers(i): return i.map(String.init).joined(separator: ", ")
        }
    }
}

/// "30", "0.15", "1.0" (with `alwaysFraction`), never "-0".
public func formatNumber(_ v: Double, alwaysFraction: Bool = false) -> String {
    if v == v.rounded(), abs(v) < 1e15 {
        let i = Int(v)
        return alwaysFraction ? "\(i).0" : "\(i)"
    }
    return "\(v)"
}

/// "#RRGGBB" when opaque, else "#RRGGBBAA".
public func hexColor(_ rgba: UInt32) -> String {
    func hex(_ v: UInt32, _ digits: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
    return rgba & 0xFF == 0xFF ? "#" + hex(rgba >> 8, 6) : "#" + hex(rgba, 8)
}

/// A TOML basic string: quotes, backslashes and control characters escaped.
func tomlString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        if let e = basicStringEscape(u) { out += e } else { out.unicodeScalars.append(u) }
    }
    return out + "\""
}

/// `value` for an error message: as given, cut at 80 characters with "…" (an 80 KB value must
/// not come back as an 80 KB line), with control characters shown escaped.
public func shown(_ value: String) -> String {
    var t = ShortText()
    t.addEscapingControls(value)
    return t.text
}

/// The message for a command-line value that breaks its rule: "--progress 5: expected a fraction
/// from 0 to 1", "--out: empty value; expected a path".
public func optionError(_ option: String, _ value: String, expected: String) -> String {
    value.isEmpty ? "--\(option): empty value; expected \(expected)" : "--\(option) \(shown(value)): expected \(expected)"
}
