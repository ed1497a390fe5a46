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

    /// What a variant holds (a value that is not one is itself).
    public var unwrapped: DBusValue {
        if case let .variant(v) = self { return v.unwrapped }
        return self
    }
}
