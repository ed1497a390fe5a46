import KioskSys

/// Why an accelerometer could not be attached or read.
public enum IIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: EIO from the bus, ENODEV after the device went away, ENOENT, …
    case sys(SysError)
    /// An attribute holds something other than what it should (`expected`).
    case garbage(path: String, text: String, expected: String)
    /// A reading no accelerometer gives (beyond ±`IIOAccelerometer.absurdLimit`, or not finite).
    case absurd(axis: String, value: Double)
    /// The device's directory is gone.
    case gone(path: String)

    public var description: String {
        switch self {
        case let .sys(e): return e.description
        case let .garbage(path, text, expected):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\(path) holds \"\(escaped(shown))\", expected \(expected)"
        case let .absurd(axis, value): return "absurd \(axis) reading \(value) m/s² (beyond ±20 g; wrong scale?)"
        case let .gone(path): return "\(path) is gone"
        }
    }
}

private func escaped(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        switch u {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case _ where u.value < 0x20 || u.value == 0x7F: out += "\\x" + String(u.value, radix: 16)
        default: out.unicodeScalars.append(u)
        }
    }
    return out
}
