// A fake sysfs tree in a temp dir (devices, attributes rewritten in place between samples, udev
// database files), a thread-safe log, and sensor readings for a given tilt.
import Glibc
import KioskPresentation
import KioskIIO
import Synchronization
import Testing

/// A directory standing for `/`: `sys/bus/iio/devices/iio:deviceN/…` and `run/udev/data/…`.
final class FakeSysfs {
    let prefix: String
    var root: IIORoot { IIORoot(prefix) }

    init() {
        var template = Array("/tmp/kiosk-iio-test.XXXXXX".utf8CString)
        let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(p != nil, "mkdtemp failed")
        prefix = String(cString: p!)
        mkdirs(prefix + "/sys/bus/iio/devices")
        mkdirs(prefix + "/run/udev/data")
    }

    deinit { removeTree(prefix) }

    func devicePath(_ n: Int) -> String { "\(prefix)/sys/bus/iio/devices/iio:device\(n)" }

    /// An accelerometer (raw x y z, shared scale) plus any extra attributes; nil values are left out.
    @discardableResult
    func addAccelerometer(_ n: Int, name: String? = "mxc4005", label: String? = nil, raw: (Int, Int, Int) = (0, 0, 1024),
                          scale: String? = "0.009582", extra: [String: String] = [:]) -> String {
        let d = devicePath(n)
        mkdirs(d)
        if let name { write(d + "/name", name + "\n") }
        if let label { write(d + "/label", label + "\n") }
        if let scale { write(d + "/in_accel_scale", scale + "\n") }
        setRaw(n, raw)
        for (k, v) in extra { write(d + "/" + k, v) }
        return d
    }

    /// Sets the raw counts in place (the sampler's kept-open descriptors see the new text).
    func setRaw(_ n: Int, _ raw: (Int, Int, Int)) {
        let d = devicePath(n)
        write(d + "/in_accel_x_raw", "\(raw.0)\n")
        write(d + "/in_accel_y_raw", "\(raw.1)\n")
        write(d + "/in_accel_z_raw", "\(raw.2)\n")
    }

    func setAttribute(_ n: Int, _ name: String, _ text: String) { write(devicePath(n) + "/" + name, text) }
    func removeAttribute(_ n: Int, _ name: String) { unlink(devicePath(n) + "/" + name) }
    func removeDevice(_ n: Int) { removeTree(devicePath(n)) }

    /// udev's database file for a device: `c<dev>` or `+iio:iio:deviceN`.
    func setUdev(file: String, _ props: [String: String]) {
        let text = "I:12345\n" + props.map { "E:\($0.key)=\($0.value)\n" }.sorted().joined() + "G:systemd\nQ:systemd\n"
        write(prefix + "/run/udev/data/" + file, text)
    }
    func removeUdev(file: String) { unlink(prefix + "/run/udev/data/" + file) }

    /// Overwrites `path` in place (O_TRUNC, same inode).
    func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "open \(path): \(errno)")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

func mkdirs(_ path: String) {
    var cur = ""
    for part in path.split(separator: "/") {
        cur += "/" + part
        mkdir(cur, 0o755)
    }
}

func removeTree(_ path: String) {
    if let d = opendir(path) {
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let p = path + "/" + name
            if e.pointee.d_type == UInt8(DT_DIR) { removeTree(p) } else { unlink(p) }
        }
        closedir(d)
        rmdir(path)
    } else {
        unlink(path)
    }
}

/// Log lines collected from any thread.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { [self] l in lines.withLock { $0.append(l) } } }
    func count(containing s: String) -> Int { all.filter { $0.contains(s) }.count }
}

/// Raw counts at 1024 per g (mxc4005 at ±2 g, scale 0.009582) for a resting sensor whose panel
/// is tilted right edge down by `right` degrees and top edge down by `top` degrees (identity
/// mount matrix; the sensor reports the reaction to gravity, +z face up).
func rawCounts(right: Double = 0, top: Double = 0) -> (Int, Int, Int) {
    let x = -sin(right * .pi / 180), y = -sin(top * .pi / 180)
    let z = max(0, 1 - x * x - y * y).squareRoot()
    return (Int((x * 1024).rounded()), Int((y * 1024).rounded()), Int((z * 1024).rounded()))
}

/// m/s² for the same tilt.
func gravityVector(right: Double = 0, top: Double = 0) -> (x: Double, y: Double, z: Double) {
    let g = TiltFilter.standardGravity
    let x = -sin(right * .pi / 180), y = -sin(top * .pi / 180)
    return (x * g, y * g, max(0, 1 - x * x - y * y).squareRoot() * g)
}

func approx(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool { abs(a - b) <= tol }
