// Finding accelerometers: IIO devices with in_accel_{x,y,z}_raw, their name, label and udev
// properties, and which one to use.
import Glibc
import KioskSys

/// Where an accelerometer sits, from its `label` attribute (`accel-display`, `accel-base`) or
/// udev's `ACCEL_LOCATION`.
public enum AccelLocation: String, Sendable, Equatable {
    case display, base
}

/// One IIO device that measures acceleration on three axes.
public struct IIODevice: Sendable, Equatable, CustomStringConvertible {
    /// `iio:deviceN`.
    public var sysName: String
    /// N.
    public var number: Int
    /// Its sysfs directory.
    public var path: String
    /// The `name` attribute (the driver's chip name, e.g. `mxc4005`).
    public var name: String?
    /// The `label` attribute (e.g. `accel-display`), if the driver or firmware gives one.
    public var label: String?
    /// Its properties in udev's database (`E:` lines), e.g. `ACCEL_MOUNT_MATRIX`; empty if none.
    public var udev: [String: String]

    public init(sysName: String, number: Int, path: String, name: String? = nil, label: String? = nil, udev: [String: String] = [:]) {
        self.sysName = sysName; self.number = number; self.path = path
        self.name = name; self.label = label; self.udev = udev
    }

    /// From the label, else udev's ACCEL_LOCATION.
    public var location: AccelLocation? {
        switch label {
        case "accel-display": return .display
        case "accel-base": return .base
        default: return udev["ACCEL_LOCATION"].flatMap(AccelLocation.init(rawValue:))
        }
    }

    public var description: String {
        var extra: [String] = []
        if let name { extra.append(name) }
        if let label { extra.append("label \(label)") }
        return extra.isEmpty ? sysName : "\(sysName) (\(extra.joined(separator: ", ")))"
    }
}

/// Looks for accelerometers under `IIORoot.devicesDirectory`.
public enum IIODiscovery {
    /// Every `iio:deviceN` with `in_accel_x_raw`, `_y_raw` and `_z_raw`, by N. `log` hears about
    /// a udev database file that is there but cannot be used (too large, not a regular file).
    /// The directories and attributes are read through `kernel`.
    public static func accelerometers(root: IIORoot, kernel: any KernelFiles & KernelDescriptors = LinuxKernel(), log: (String) -> Void = { _ in }) -> [IIODevice] {
        let dir = root.devicesDirectory
        guard let names = kernel.listDirectory(dir) else { return [] }
        var out: [IIODevice] = []
        for n in names where n.hasPrefix("iio:device") {
            guard let number = Int(n.dropFirst("iio:device".count)), number >= 0 else { continue }
            let path = dir + "/" + n
            guard ["x", "y", "z"].allSatisfy({ kernel.fileExists("\(path)/in_accel_\($0)_raw") }) else { continue }
            out.append(IIODevice(sysName: n, number: number, path: path,
                                 name: readAttribute(path + "/name", kernel: kernel).flatMap { $0.isEmpty ? nil : $0 },
                                 label: readAttribute(path + "/label", kernel: kernel).flatMap { $0.isEmpty ? nil : $0 },
                                 udev: udevProperties(sysName: n, path: path, root: root, kernel: kernel, log: log)))
        }
        return out.sorted { $0.number < $1.number }
    }

    /// The device to use. With `wanted`: the one whose sysName (`iio:device2`), else label, else
    /// name is `wanted`, or nil. Without: the one at the display (label `accel-display`) before
    /// one with no location before one in the base (`accel-base`); lowest N first.
    public static func choose(_ devices: [IIODevice], wanted: String? = nil) -> IIODevice? {
        func rank(_ d: IIODevice) -> Int {
            switch d.location {
            case .display: 0
            case nil: 1
            case .base: 2
            }
        }
        let ordered = devices.sorted { (rank($0), $0.number) < (rank($1), $1.number) }
        guard let wanted else { return ordered.first }
        return ordered.first { $0.sysName == wanted } ?? ordered.first { $0.label == wanted } ?? ordered.first { $0.name == wanted }
    }

    /// udev's properties for a device: its database file `c<major>:<minor>` (from the `dev`
    /// attribute), else `+iio:<sysName>` (devices without a node). `E:KEY=VALUE` lines, read
    /// through `kernel`.
    public static func udevProperties(sysName: String, path: String, root: IIORoot, kernel: any KernelFiles & KernelDescriptors = LinuxKernel(),
                                      log: (String) -> Void = { _ in }) -> [String: String] {
        var files: [String] = []
        if let dev = readAttribute(path + "/dev", kernel: kernel), dev.split(separator: ":").count == 2,
           dev.allSatisfy({ $0 == ":" || $0.isASCII && $0.isNumber }) {
            files.append("\(root.udevDataDirectory)/c\(dev)")
        }
        files.append("\(root.udevDataDirectory)/+iio:\(sysName)")
        for f in files {
            do throws(SysError) {
                return parseUdevDatabase(try kernel.readSmallFile(f, limit: udevDatabaseLimit))
            } catch where error.errno == ENOENT {
                continue
            } catch {
                let why = error.errno == EFBIG ? "larger than \(udevDatabaseLimit / 1024) KiB" : "\(error)"
                log("tilt: udev database \(f): \(why); its properties (mount matrix, location) are not used")
            }
        }
        return [:]
    }

    /// The largest udev database file read (they are a few hundred bytes).
    public static let udevDatabaseLimit = 65536

    /// The `E:KEY=VALUE` lines of a udev database file.
    public static func parseUdevDatabase(_ text: String) -> [String: String] {
        var props: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("E:") {
            let kv = line.dropFirst(2)
            guard let eq = kv.firstIndex(of: "=") else { continue }
            props[String(kv[..<eq])] = String(kv[kv.index(after: eq)...])
        }
        return props
    }
}
