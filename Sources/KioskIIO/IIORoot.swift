/// Where to look for IIO devices and the udev database: the real system, or a directory that
/// stands for `/` (tests build a fake sysfs tree there; `kiosk-hud --iio-root DIR`).
///
/// With prefix `P`: devices are `P/sys/bus/iio/devices/iio:deviceN`, udev's database is
/// `P/run/udev/data`.
public struct IIORoot: Sendable, Equatable, CustomStringConvertible {
    /// "" for the real system, else a directory standing for `/` (no trailing slash).
    public let prefix: String

    /// The real system.
    public static let system = IIORoot("")

    /// `prefix` stands for `/` ("" or "/" = the real system).
    public init(_ prefix: String) {
        var p = Substring(prefix)
        while p.hasSuffix("/") { p = p.dropLast() }
        self.prefix = String(p)
    }

    /// `…/sys/bus/iio/devices`.
    public var devicesDirectory: String { prefix + "/sys/bus/iio/devices" }
    /// `…/run/udev/data` (files `c<major>:<minor>` and `+iio:iio:deviceN`).
    public var udevDataDirectory: String { prefix + "/run/udev/data" }

    public var description: String { prefix.isEmpty ? "/" : prefix }
}
