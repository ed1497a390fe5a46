import KioskBehavior
import KioskBoards
import KioskCLI
import KioskDevices
import KioskIIO

/// The tilt effect's options, shared by `tilt` and `show`. Each overrides the board profile's
/// `[motion]` section.
struct MotionOptions {
    static let options: [OptionSpec] = [
        OptionSpec("iio-root", value: "dir", help: "A directory standing for / when looking for IIO devices and the udev database (tests)."),
        OptionSpec("accel", value: "name", help: "The accelerometer: iio:deviceN, a label or a name (default: the profile's, else the one labelled accel-display, else the first)."),
        OptionSpec("rate", value: "hz", help: "Accelerometer samples per second (default 30)."),
        OptionSpec("mount-matrix", value: "matrix", help: "Mount matrix \"x1, y1, z1; x2, y2, z2; x3, y3, z3\" (rows; panel = M · reading), instead of udev's or sysfs's."),
        OptionSpec("depth", value: "points", help: "How far the bezel moves each way, in points (default 10; 0 = off)."),
        OptionSpec("time-constant", value: "s", help: "Tilt low-pass time constant in seconds (default 0.15)."),
        OptionSpec("dead-zone", value: "deg", help: "Tilt dead zone in degrees (default 1.5)."),
        OptionSpec("neutral", value: "attitude", help: "Attitude with the bezel centred: resting (how the board stands at start) or face-up."),
        OptionSpec("reduce-motion", .inversibleFlag, help: "No tilt motion (default: the profile's reduce_motion, else off)."),
    ]

    var iioRoot: String?
    var accel: String?
    var rate: Double?
    var mountMatrix: String?
    var depth: Double?
    var timeConstant: Double?
    var deadZone: Double?
    var neutral: String?
    var reduceMotion: Bool?

    init(_ a: ParsedArguments) throws(UsageError) {
        iioRoot = a.string("iio-root")
        accel = a.string("accel")
        rate = try a.double("rate")
        mountMatrix = a.string("mount-matrix")
        depth = try a.double("depth")
        timeConstant = try a.double("time-constant")
        deadZone = try a.double("dead-zone")
        neutral = a.string("neutral")
        reduceMotion = a.optionalFlag("reduce-motion")
    }
}

/// The tilt effect's settings after the board profile and the options.
struct MotionSetup {
    var sampler: IIOSampler.Settings
    var filter: TiltFilter.Config
    /// Points each way (`HUDStyle.motionDepth`); 0 = off.
    var depth: Double
    /// False with depth 0 or reduce motion: don't start the accelerometer at all.
    var enabled: Bool { depth > 0 && !filter.reduceMotion }
}

extension MotionOptions {
    /// Applies the options over `profile`'s `[motion]` (and `style.motionDepth`), for a display
    /// rotated by `rotation`.
    func resolve(profile: BoardProfile, rotation: Rotation) throws -> MotionSetup {
        let m = profile.motion
        var matrix = m.mountMatrix
        if let text = mountMatrix {
            do { matrix = try MountMatrix.parse(text) } catch { throw UsageError("--mount-matrix: \(error)") }
        }
        let rate = self.rate ?? m.rate
        guard rate.isFinite, rate > 0, rate <= 1000 else { throw UsageError("--rate \(rate): expected samples per second in (0, 1000]") }
        let depth = self.depth ?? profile.style.motionDepth
        guard depth.isFinite, depth >= 0 else { throw UsageError("--depth \(depth): expected points ≥ 0") }
        let tc = timeConstant ?? m.timeConstant
        guard tc.isFinite, tc >= 0, tc <= 10 else { throw UsageError("--time-constant \(tc): expected seconds from 0 to 10") }
        let dz = deadZone ?? m.deadZone
        guard dz.isFinite, dz >= 0, dz <= 45 else { throw UsageError("--dead-zone \(dz): expected degrees from 0 to 45") }
        if let a = accel, a.isEmpty { throw UsageError("--accel: expected iio:deviceN, a label or a name") }
        let sampler = IIOSampler.Settings(root: iioRoot.map(IIORoot.init) ?? .system, accel: accel ?? m.accel,
                                          mountMatrix: matrix, rate: rate)
        var filter = TiltFilter.Config(timeConstant: tc, deadZone: dz, quarterTurns: rotation.rawValue / 90,
                                       reduceMotion: reduceMotion ?? m.reduceMotion)
        filter.neutral = m.neutral
        if let n = neutral {
            guard let v = MotionProfile.neutral(named: n) else { throw UsageError("--neutral \(n): expected resting or face-up") }
            filter.neutral = v
        }
        return MotionSetup(sampler: sampler, filter: filter, depth: depth)
    }
}
