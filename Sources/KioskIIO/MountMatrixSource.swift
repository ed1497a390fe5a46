// Which mount matrix applies to a device, in iio-sensor-proxy's order.
import KioskPresentation
import KioskSys

/// Where a device's mount matrix came from.
public enum MountMatrixOrigin: Sendable, Equatable, CustomStringConvertible {
    /// Given by the board profile or `--mount-matrix`.
    case configured
    /// udev's `ACCEL_MOUNT_MATRIX` (hwdb).
    case udev
    /// A sysfs attribute: `mount_matrix`, `in_accel_mount_matrix` or `in_mount_matrix`.
    case sysfs(String)
    /// None found.
    case identity

    public var description: String {
        switch self {
        case .configured: "configured"
        case .udev: "udev ACCEL_MOUNT_MATRIX"
        case let .sysfs(a): "sysfs \(a)"
        case .identity: "identity (none found)"
        }
    }
}

/// A device's mount matrix and where it came from.
public struct ResolvedMountMatrix: Sendable, Equatable {
    /// The matrix to apply (panel = M · chip).
    public var matrix: MountMatrix
    /// Where the text came from (`identity` when none was found). When that text was malformed
    /// this is still its origin, `matrix` is the identity and `warning` says why.
    public var origin: MountMatrixOrigin
    /// Set when the first matrix found was malformed and the identity is used instead.
    public var warning: String?

    public init(matrix: MountMatrix, origin: MountMatrixOrigin, warning: String? = nil) {
        self.matrix = matrix; self.origin = origin; self.warning = warning
    }

    /// Picks the matrix for `device`: `configured` (board profile or command line), else udev's
    /// `ACCEL_MOUNT_MATRIX`, else the sysfs attributes `mount_matrix`, `in_accel_mount_matrix`,
    /// `in_mount_matrix`, else the identity (iio-sensor-proxy's order). The first one present
    /// decides: if it is malformed the identity is used, with a warning naming it. The sysfs
    /// attributes are read through `kernel`.
    public static func resolve(for device: IIODevice, configured: MountMatrix?, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) -> ResolvedMountMatrix {
        if let configured { return ResolvedMountMatrix(matrix: configured, origin: .configured) }
        var candidates: [(MountMatrixOrigin, String)] = []
        if let u = device.udev["ACCEL_MOUNT_MATRIX"] { candidates.append((.udev, u)) }
        for attr in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"] {
            // Looked for first: an attribute the driver does not have is no open tried.
            let path = device.path + "/" + attr
            if kernel.fileExists(path), let text = try? kernel.readSmallFile(path) { candidates.append((.sysfs(attr), text)) }
        }
        guard let (origin, text) = candidates.first else { return ResolvedMountMatrix(matrix: .identity, origin: .identity) }
        do {
            return ResolvedMountMatrix(matrix: try MountMatrix.parse(text), origin: origin)
        } catch {
            return ResolvedMountMatrix(matrix: .identity, origin: origin,
                                       warning: "\(device.sysName): \(origin): \(error); using the identity")
        }
    }
}
