// One attached accelerometer: calibration read once, the three _raw attributes kept open and
// re-read with pread(2) at offset 0 (sysfs regenerates the value on every read from 0).
import Glibc
import KioskPresentation
import KioskSys

/// A three-component vector (m/s² unless said otherwise).
public struct IIOVector: Sendable, Equatable {
    /// Components along x, y, z.
    public var x: Double, y: Double, z: Double
    public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
}

/// How one axis's raw counts become m/s²: `(raw + offset) × scale`.
public struct AxisCalibration: Sendable, Equatable {
    /// m/s² per count.
    public var scale: Double
    /// Counts added before scaling.
    public var offset: Double
    public init(scale: Double = 1, offset: Double = 0) { self.scale = scale; self.offset = offset }
    /// m/s² for `raw` counts.
    public func apply(_ raw: Int) -> Double { (Double(raw) + offset) * scale }
}

/// One reading of all three axes.
public struct IIOReading: Sendable, Equatable {
    /// The `_raw` counts, x y z.
    public var raw: [Int]
    /// m/s² in the chip's axes.
    public var chip: IIOVector
    /// m/s² in the panel's axes (after the mount matrix).
    public var panel: IIOVector
}

/// An attached accelerometer. Not thread-safe: one owner (the sampler thread) uses it.
public final class IIOAccelerometer {
    /// Any axis beyond this (20 g) is garbage, not acceleration.
    public static let absurdLimit = 20 * 9.80665

    /// The device read.
    public let device: IIODevice
    /// x, y, z: the per-axis attribute (`in_accel_x_scale`, `in_accel_x_offset`) where there is
    /// one, else the shared one (`in_accel_scale`, `in_accel_offset`), else scale 1 and offset 0.
    public let calibration: [AxisCalibration]
    /// The matrix applied to each reading, and where it came from.
    public let mountMatrix: ResolvedMountMatrix
    /// What was done about `sampling_frequency` (nil: the device has no list of frequencies).
    public let samplingNote: String?
    private var fds: [Int32]
    /// The seam the attributes are opened, read and closed through.
    private let kernel: any KernelFiles & KernelDescriptors
    private let buffer: UnsafeMutableRawBufferPointer
    private let axisPaths: [String]

    static let axes = ["x", "y", "z"]

    /// Reads the calibration, resolves the mount matrix, sets the sampling frequency to the
    /// lowest available one ≥ `rate` (when the device lists them and the attribute is writable)
    /// and opens the three `_raw` attributes.
    /// Every attribute is read and written through `kernel` (the real one unless a test plays it).
    public init(device: IIODevice, configuredMatrix: MountMatrix? = nil, rate: Double? = nil,
                kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) throws(IIOError) {
        self.device = device
        self.kernel = kernel
        var cal: [AxisCalibration] = []
        let shared = (scale: try Self.number(device.path + "/in_accel_scale", kernel),
                      offset: try Self.number(device.path + "/in_accel_offset", kernel))
        for a in Self.axes {
            let s = try Self.number("\(device.path)/in_accel_\(a)_scale", kernel) ?? shared.scale ?? 1
            let o = try Self.number("\(device.path)/in_accel_\(a)_offset", kernel) ?? shared.offset ?? 0
            cal.append(AxisCalibration(scale: s, offset: o))
        }
        calibration = cal
        mountMatrix = ResolvedMountMatrix.resolve(for: device, configured: configuredMatrix, kernel: kernel)
        samplingNote = rate.flatMap { Self.setSamplingFrequency(device.path, rate: $0, kernel: kernel) }
        let paths = Self.axes.map { "\(device.path)/in_accel_\($0)_raw" }
        // Open before the last stored property is set: a throw after full initialisation would
        // run deinit.
        var opened: [Int32] = []
        do {
            for p in paths { opened.append(try kernel.openRegularFile(p).fd) }
        } catch {
            for fd in opened { kernel.close(fd) }
            throw .sys(error)
        }
        axisPaths = paths
        fds = opened
        buffer = .allocate(byteCount: 64, alignment: 8)
    }

    deinit {
        close()
        buffer.deallocate()
    }

    /// Closes the attributes (reads fail afterwards).
    public func close() {
        for fd in fds { kernel.close(fd) }
        fds = []
    }

    /// Reads the three axes: checks the device is still there, three preads, parse, calibrate,
    /// mount matrix. Throws on a failed call (EIO, ENODEV), text that is not an integer, or an
    /// absurd value.
    public func read() throws(IIOError) -> IIOReading {
        guard fds.count == 3, kernel.fileExists(device.path) else { throw .gone(path: device.path) }
        var raw: [Int] = [0, 0, 0]
        var v: [Double] = [0, 0, 0]
        for i in 0..<3 {
            let n: Int
            do { n = try kernel.pread(fds[i], into: buffer, at: 0) } catch {
                throw .sys(SysError(call: error.call, errno: error.errno, target: axisPaths[i]))
            }
            guard let r = parseInteger(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) else {
                throw .garbage(path: axisPaths[i], text: String(decoding: buffer[0..<n], as: UTF8.self), expected: "an integer")
            }
            raw[i] = r
            v[i] = calibration[i].apply(r)
            guard v[i].isFinite, abs(v[i]) <= Self.absurdLimit else { throw .absurd(axis: Self.axes[i], value: v[i]) }
        }
        let p = mountMatrix.matrix.apply(x: v[0], y: v[1], z: v[2])
        return IIOReading(raw: raw, chip: IIOVector(x: v[0], y: v[1], z: v[2]), panel: IIOVector(x: p.x, y: p.y, z: p.z))
    }

    /// A calibration attribute: nil if absent, the number, or garbage.
    static func number(_ path: String, _ kernel: any KernelFiles & KernelDescriptors) throws(IIOError) -> Double? {
        guard kernel.fileExists(path) else { return nil }
        let text = try readAttributeOrThrow(path, kernel: kernel)
        guard let v = parseDecimal(text), v.isFinite else { throw .garbage(path: path, text: text, expected: "a decimal number") }
        return v
    }

    /// Picks the lowest listed frequency ≥ `rate` (else the highest) and writes it. Lists are
    /// `sampling_frequency_available` (or the `in_accel_` one): numbers separated by blanks, or
    /// `[min step max]`. Returns a note for the log; nil if the device lists no frequencies.
    static func setSamplingFrequency(_ dir: String, rate: Double, kernel: any KernelFiles & KernelDescriptors) -> String? {
        for prefix in ["", "in_accel_"] {
            guard let list = readAttribute("\(dir)/\(prefix)sampling_frequency_available", kernel: kernel) else { continue }
            let attr = "\(dir)/\(prefix)sampling_frequency"
            var choice: Double?
            if list.hasPrefix("["), list.hasSuffix("]") {
                let parts = list.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { parseDecimal(String($0)) }
                if parts.count == 3, parts[1] > 0 {
                    let steps = ((rate - parts[0]) / parts[1]).rounded(.up)
                    choice = min(parts[2], max(parts[0], parts[0] + max(0, steps) * parts[1]))
                }
            } else {
                let values = list.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { parseDecimal(String($0)) }.sorted()
                choice = values.first { $0 >= rate } ?? values.last
            }
            guard let f = choice else { return "\(prefix)sampling_frequency_available \"\(list)\" not understood; left as is" }
            do {
                try writeAttribute(attr, sysfsNumber(f), kernel: kernel)
                return "\(prefix)sampling_frequency set to \(sysfsNumber(f)) Hz"
            } catch {
                return "\(prefix)sampling_frequency not set (\(error))"
            }
        }
        return nil
    }
}
