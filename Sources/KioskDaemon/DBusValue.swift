/// A D-Bus value as a message holds it, typed: what `RaucBus` reads from sd-bus and what
/// `RaucDecoding` decodes, so that decoding is pure and tested without a bus.
public indirect enum DBusValue: Equatable, Sendable {
    /// `y`.
    case byte(UInt8)
    /// `b`.
    case bool(Bool)
    /// `n`, `q`, `i`, `u`, `x`, `t`, `h`: the integer and its type code.
    case integer(Int64, DBusType)
    /// `d`.
    case double(Double)
    /// `s`, `o` or `g`.
    case string(String)
    /// `v`.
    case variant(DBusValue)
    /// `(…)`.
    case structure([DBusValue])
    /// `a…` (a dictionary is an array of `dictEntry`).
    case array([DBusValue])
    /// `{…}`.
    case dictEntry(DBusValue, DBusValue)

    /// The integer types of D-Bus.
    public enum DBusType: Character, Sendable {
        case int16 = "n", uint16 = "q", int32 = "i", uint32 = "u", int64 = "x", uint64 = "t", unixFD = "h"
    }

    /// An `i`'s value, else nil.
    public var int32: Int32? {
        if case let .integer(v, .int32) = self { return Int32(v) }
        return nil
    }

    /// A string's (`s`, `o`, `g`) value, else nil.
    public var string: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// The value's D-Bus type signature ("s", "(isi)", "a{sv}"; an empty array's element "?",
    /// its type being unknown once read), at most `signatureLimit` characters ("…" past that):
    /// what a log line says of a value of the wrong type — never the value itself, which any
    /// bus client can make as large as a message (a log flood).
    public var signature: String {
        let full = fullSignature
        return full.count > DBusValue.signatureLimit ? String(full.prefix(DBusValue.signatureLimit - 1)) + "…" : full
    }

    /// The longest `signature` (D-Bus's own limit is 255).
    public static let signatureLimit = 64

    private var fullSignature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case let .integer(_, t): String(t.rawValue)
        case .double: "d"
        case .string: "s"
        case .variant: "v"
        case let .structure(f): "(" + f.map(\.fullSignature).joined() + ")"
        case let .array(items): "a" + (items.first?.fullSignature ?? "?")
        case let .dictEntry(k, v): "{" + k.fullSignature + v.fullSignature + "}"
        }
    }

    /// What a variant holds (a value that is not one is itself).
    public var unwrapped: DBusValue {
        if case let .variant(v) = self { return v.unwrapped }
        return self
    }
}
