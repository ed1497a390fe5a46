import CKioskSystemd
import Glibc

/// Reads an sd-bus message's arguments into typed values (`DBusValue`): the thin part between
/// sd-bus and the pure decoding.
enum DBusMessageReader {
    /// Every argument of `m` (an `sd_bus_message *`), from its current position.
    static func read(_ m: OpaquePointer) throws(RaucDecodeError) -> [DBusValue] {
        var out: [DBusValue] = []
        var left = maxValues
        while let v = try next(m, depth: 0, left: &left) { out.append(v) }
        return out
    }

    /// The values one message may hold, all containers counted. RAUC's properties are a dozen
    /// entries; a value in memory takes ~45 bytes however small on the wire (kiosk-hud-fuzz's
    /// dbus target: a 4 MiB `ay` grew the daemon by 164 MB), so a message the bus takes whole
    /// (up to 128 MiB) is refused here at its 4,097th value.
    static let maxValues = 4096
    /// A string's bytes (RAUC's longest are an error's text and a path).
    static let maxStringBytes = 65536

    /// The SENDER field of `m`'s header (an `sd_bus_message *`): the unique name of the
    /// connection that sent it (":1.42"), or "org.freedesktop.DBus" for the bus's own — set by
    /// the bus, so it is who spoke whatever the message says. Nil when it has none (then
    /// nothing is believed).
    static func sender(_ m: OpaquePointer) -> String? {
        guard let p = kiosk_sd_bus_message_get_sender(m) else { return nil }
        return String(cString: p)
    }

    /// The next value in the current container, nil at its end.
    private static func next(_ m: OpaquePointer, depth: Int, left: inout Int) throws(RaucDecodeError) -> DBusValue? {
        guard depth < 32 else { throw RaucDecodeError("a D-Bus value nested too deep") }
        guard left > 0 else { throw RaucDecodeError("a D-Bus message of more than \(maxValues) values") }
        left -= 1
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = kiosk_sd_bus_message_peek_type(m, &type, &contents)
        if r < 0 { throw RaucDecodeError("reading a D-Bus message: \(errnoText(-r))") }
        if r == 0 { return nil }
        let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
        switch code {
        case "s", "o", "g":
            var p: UnsafePointer<CChar>?
            try check(kiosk_sd_bus_message_read_basic(m, type, &p))
            guard let p else { return .string("") }
            guard strnlen(p, maxStringBytes + 1) <= maxStringBytes else { throw RaucDecodeError("a D-Bus string of more than \(maxStringBytes) bytes") }
            return .string(String(cString: p))
        case "y":
            var v: UInt8 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .byte(v)
        case "b":
            var v: Int32 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .bool(v != 0)
        case "n":
            var v: Int16 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(Int64(v), .int16)
        case "q":
            var v: UInt16 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(Int64(v), .uint16)
        case "i", "h":
            var v: Int32 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(Int64(v), code == "i" ? .int32 : .unixFD)
        case "u":
            var v: UInt32 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(Int64(v), .uint32)
        case "x":
            var v: Int64 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(v, .int64)
        case "t":
            var v: UInt64 = 0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .integer(Int64(bitPattern: v), .uint64)
        case "d":
            var v = 0.0
            try check(kiosk_sd_bus_message_read_basic(m, type, &v))
            return .double(v)
        case "v", "r", "a", "e":
            try check(kiosk_sd_bus_message_enter_container(m, type, contents))
            var items: [DBusValue] = []
            while let v = try next(m, depth: depth + 1, left: &left) { items.append(v) }
            try check(kiosk_sd_bus_message_exit_container(m))
            switch code {
            case "v":
                guard items.count == 1 else { throw RaucDecodeError("a variant with \(items.count) values") }
                return .variant(items[0])
            case "r": return .structure(items)
            case "a": return .array(items)
            default:
                guard items.count == 2 else { throw RaucDecodeError("a dictionary entry with \(items.count) values") }
                return .dictEntry(items[0], items[1])
            }
        default:
            throw RaucDecodeError("a D-Bus type this reader does not know: \(code)")
        }
    }

    private static func check(_ r: Int32) throws(RaucDecodeError) {
        if r < 0 { throw RaucDecodeError("reading a D-Bus message: \(errnoText(-r))") }
    }
}
