// The accelerometer's life cycle as a synchronous state machine: find → attach → read at the
// rate → on failure close, report once, look again every `retryInterval` → re-attach. It makes
// the calls and may block in them; `IIOMotionSource` runs it on its own thread (tests call
// `step(at:)` directly, with a manual clock).
import KioskPresentation
import KioskSeams
import KioskSys

/// Where the sampler stands.
public enum IIOStatus: Sendable, Equatable, CustomStringConvertible {
    /// Not looked yet.
    case starting
    /// No matching accelerometer (motion effect off).
    case absent
    /// Reading this device.
    case running(IIODevice)
    /// The device failed (gone, EIO, garbage); looking for it again.
    case failed(String)

    /// Whether a device is delivering good readings.
    public var isRunning: Bool { if case .running = self { true } else { false } }

    public var description: String {
        switch self {
        case .starting: "starting"
        case .absent: "absent"
        case let .running(d): "running \(d.sysName)"
        case let .failed(why): "failed: \(why)"
        }
    }
}

/// Finds, attaches, reads and re-attaches an accelerometer. Not thread-safe: one owner.
public final class IIOSampler {
    /// What to read and how often.
    public struct Settings: Sendable, Equatable {
        /// Where devices and the udev database are.
        public var root: IIORoot
        /// `iio:deviceN`, a label or a name (see `IIODiscovery.choose`); nil: the best one.
        public var accel: String?
        /// Overrides the udev/sysfs mount matrix (board profile or command line).
        public var mountMatrix: MountMatrix?
        /// Samples per second (also asked of the device's `sampling_frequency`).
        public var rate: Double
        /// How often to look for a missing device, in seconds.
        public var retryInterval: Double

        public init(root: IIORoot = .system, accel: String? = nil, mountMatrix: MountMatrix? = nil,
                    rate: Double = 30, retryInterval: Double = 1) {
            self.root = root; self.accel = accel; self.mountMatrix = mountMatrix
            self.rate = rate; self.retryInterval = retryInterval
        }

        /// Seconds between reads (rate sanitised to 0.1…1000 Hz).
        public var period: Double { 1 / (rate.isFinite ? min(1000, max(0.1, rate)) : 30) }
    }

    public let settings: Settings
    /// Where it stands (running from the first good reading).
    public private(set) var status: IIOStatus = .starting
    /// The attached device, if any.
    public private(set) var accelerometer: IIOAccelerometer?
    private let log: @Sendable (String) -> Void
    private var nextSearch = -Double.infinity
    private var reportedAbsent = false
    /// Whether the attached device has given a good reading yet (it is announced then).
    private var announced = false
    /// The last problem logged, so a device that keeps failing the same way is reported once.
    private var lastProblem: String?
    /// Discovery warnings already logged (each once).
    private var warned: Set<String> = []

    /// The seam discovery and the device's attributes are read through.
    private let kernel: any KernelFiles & KernelDescriptors

    /// `log` gets one line per change worth knowing (no sensor, using a device, lost, cannot use).
    /// Devices are found and read through `kernel`.
    public init(settings: Settings, kernel: any KernelFiles & KernelDescriptors = LinuxKernel(), log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.kernel = kernel
        self.log = log
    }

    deinit { accelerometer?.close() }

    /// Seconds until `step` should run again: the sampling period while attached, else the
    /// retry interval.
    public var interval: Double { accelerometer != nil ? settings.period : max(settings.period, settings.retryInterval) }

    /// One turn at `now`: attaches if there is no device (at most once per retry interval), then
    /// reads once. Returns the reading (nil if none was taken).
    ///
    /// A device counts as running from its first good reading (logged once: "using …"). A read
    /// that fails after that is "lost" (logged once); the device is closed and looked for again
    /// every `retryInterval`, quietly while it keeps failing the same way.
    public func step(at now: Double) -> IIOReading? {
        if accelerometer == nil {
            guard now >= nextSearch else { return nil }
            nextSearch = now + settings.retryInterval
            attach()
        }
        guard let acc = accelerometer else { return nil }
        do {
            let r = try acc.read()
            if !announced { announce(acc) }
            return r
        } catch {
            acc.close()
            accelerometer = nil
            nextSearch = now + settings.retryInterval
            let msg = "\(acc.device.sysName): \(error)"
            if status.isRunning {
                log("tilt: \(acc.device.sysName) lost: \(error); the bezel eases back to centre; will re-attach when it returns")
            } else if lastProblem != msg {
                log("tilt: cannot use \(msg); will retry")
            }
            lastProblem = msg
            status = .failed(msg)
            return nil
        }
    }

    /// The next step looks for a device at once (an IIO device appeared), if none is attached.
    public func searchNow() { nextSearch = -.infinity }

    /// Closes the device; the next step looks for it again.
    public func close() {
        accelerometer?.close()
        accelerometer = nil
        nextSearch = -.infinity
    }

    private func announce(_ acc: IIOAccelerometer) {
        announced = true
        lastProblem = nil
        status = .running(acc.device)
        if let w = acc.mountMatrix.warning { log("tilt: warning: \(w)") }
        let cal = acc.calibration
        let scales = cal.allSatisfy { $0 == cal[0] } ? "scale \(cal[0].scale), offset \(cal[0].offset)"
            : "scales \(cal.map(\.scale)), offsets \(cal.map(\.offset))"
        log("tilt: using \(acc.device) at \(sysfsNumber(1 / settings.period)) Hz; \(scales); mount matrix \(acc.mountMatrix.matrix) (\(acc.mountMatrix.origin))"
            + (acc.samplingNote.map { "; \($0)" } ?? ""))
    }

    private func attach() {
        var warnings: [String] = []
        let found = IIODiscovery.accelerometers(root: settings.root, kernel: kernel) { warnings.append($0) }
        for w in warnings where !warned.contains(w) {
            warned.insert(w)
            log(w)
        }
        guard let dev = IIODiscovery.choose(found, wanted: settings.accel) else {
            if case .failed = status { return }   // already said so; keep looking quietly
            status = .absent
            if !reportedAbsent {
                reportedAbsent = true
                let what = settings.accel.map { "no accelerometer matching \"\($0)\"" } ?? "no accelerometer"
                let seen = found.isEmpty ? "" : " (found: \(found.map(\.description).joined(separator: ", ")))"
                log("tilt: \(what) in \(settings.root.devicesDirectory)\(seen); motion effect off")
            }
            return
        }
        do {
            accelerometer = try IIOAccelerometer(device: dev, configuredMatrix: settings.mountMatrix, rate: settings.rate, kernel: kernel)
            announced = false
        } catch {
            let msg = "\(dev.sysName): \(error)"
            if lastProblem != msg { log("tilt: cannot use \(msg); will retry") }
            lastProblem = msg
            status = .failed(msg)
        }
    }
}
