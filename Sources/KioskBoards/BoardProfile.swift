// KioskBoards — board profiles (Boards/*.toml): what a real board needs to start the HUD right
// (canvas, scale, fonts, colours, timings, display, rotation, touch calibration, accelerometer
// mounting). Every setting is declared once in `HUDSettings.table` (HUDSettingsTable.swift): the
// board file's keys, the command line's options and their checks come from there. Strict:
// unknown keys and bad values are errors that name the file, line, section and key.
@_exported import KioskWords
import KioskPresentation
import KioskSeams
import KioskHUD
import KioskRaster
import KioskSettings
import KioskText

/// The settings a board starts from (Boards/*.toml): canvas, fonts, colours, timings. Command-line
/// options override them. Unknown keys are errors, so a typo never passes silently.
public struct BoardProfile: Equatable, Sendable {
    public var name = "generic"
    /// `[match]`: what a machine must have for `--board auto` to choose this profile.
    public var match = BoardMatch()
    public var width = 800, height = 480
    /// Pixels per point; nil: chosen from the panel's physical size on a real display (1
    /// offscreen).
    public var scale: Double?
    public var format = PixelFormat.xrgb8888
    public var style = HUDStyle()
    public var underlayColor = Color.black
    /// `[display] underlay_fit`: how the underlay picture covers the frame.
    public var underlayFit = UnderlayFit.fill
    /// `[display] underlay_image`: the picture under the HUD (a PNG path); nil: none.
    public var underlayImage: String?
    /// `[style] logo`: the logo picture (a PNG path), placed and sized by `style.logoPlacement`
    /// and `style.logoSize`; nil: none.
    public var logo: String?
    /// `[style] theme`: light or dark (it set the colours; kept to say so).
    public var theme = "light"
    /// `[style] blur_radius`: used when the bezel is blurred.
    public var blurRadius = 10.0
    /// `[style] dim_color`: used when the background is dim.
    public var dimColor = Color(white: 0, a: 0.5)
    public var timing = PresentationConfig()
    /// `[motion]`: the tilt effect's accelerometer and filter (its depth is `style.motionDepth`).
    public var motion = MotionProfile()
    /// `[display]` for a real screen: which card, connectors and mode, and the rotation.
    public var display = DisplayProfile()
    /// `[touch]`: calibration and what the button answers to.
    public var touch = TouchProfile()
    /// `[plymouth]`: what the daemon's Plymouth front end shows (`kiosk-hud daemon --plymouth`).
    public var plymouth = PlymouthProfile()
    /// `[words]`: the language of the HUD's own words, and the board's own texts for them.
    public var words = WordsProfile()

    public init() {}
}

/// Plymouth's operation modes, as `plymouth change-mode --MODE` names them.
public enum PlymouthMode: String, CaseIterable, Sendable {
    case bootUp = "boot-up", shutdown, reboot, updates, systemUpgrade = "system-upgrade", firmwareUpgrade = "firmware-upgrade"

    /// The mode's board file key prefix: boot_up, system_upgrade, …
    public var key: String { String(rawValue.map { $0 == "-" ? "_" : $0 }) }
}

/// `[plymouth]` of a board profile: where boot status messages go, and the label and HUD mode
/// for each of Plymouth's modes.
public struct PlymouthProfile: Sendable, Equatable {
    /// What a mode shows: the label, and the HUD's mode (a bar for progress, a spinner …).
    public struct Look: Sendable, Equatable {
        public var label: String
        public var mode: HUDMode
        public init(label: String, mode: HUDMode) { self.label = label; self.mode = mode }
    }

    /// Boot status messages (the units systemd starts) on the details line; false: not shown.
    public var statusOnDetails = true
    /// The details line for a unit systemd starts, `{unit}` where its name goes (`localize`
    /// puts it in the profile's language).
    public var unitStatus = Word.startingUnit.text(.en)
    /// The look of each mode.
    public var looks: [PlymouthMode: Look] = PlymouthProfile.defaultLooks

    /// The HUD modes a Plymouth mode may have (custom needs a picture; success and error are
    /// ends, not modes).
    public static let hudModes: [HUDMode] = [.indeterminate, .determinate, .annular, .bar, .text]

    /// The declared defaults (HUDSettings.table has them too).
    public static let defaultLooks: [PlymouthMode: Look] = [
        .bootUp: Look(label: "Starting…", mode: .bar),
        .shutdown: Look(label: "Shutting down…", mode: .indeterminate),
        .reboot: Look(label: "Restarting…", mode: .indeterminate),
        .updates: Look(label: "Installing updates…", mode: .bar),
        .systemUpgrade: Look(label: "Upgrading the system…", mode: .bar),
        .firmwareUpgrade: Look(label: "Updating firmware…", mode: .bar),
    ]

    public init() {}

    /// The look of `mode`.
    public func look(_ mode: PlymouthMode) -> Look { looks[mode] ?? PlymouthProfile.defaultLooks[mode]! }
}

/// `[motion]` of a board profile: which accelerometer, its mounting, and the tilt filter.
public struct MotionProfile: Sendable, Equatable {
    /// `iio:deviceN`, a label or a name; nil: the one labelled accel-display, else the first.
    public var accel: String?
    /// Overrides udev's ACCEL_MOUNT_MATRIX and the sysfs mount matrix.
    public var mountMatrix: MountMatrix?
    /// Samples per second.
    public var rate = 30.0
    /// Low-pass time constant, seconds.
    public var timeConstant = TiltFilter.Config().timeConstant
    /// Dead zone, degrees.
    public var deadZone = TiltFilter.Config().deadZone
    /// No tilt motion.
    public var reduceMotion = false
    /// The attitude at which the bezel is centred: how the board rests when the HUD starts (a
    /// kiosk upright or on a wall), or face up.
    public var neutral = TiltFilter.Neutral.firstSample

    public init() {}
}

/// `[display]` of a board profile, for a real screen.
public struct DisplayProfile: Sendable, Equatable {
    /// The DRM card; nil: the first with dumb buffers.
    public var card: String?
    /// Only these connectors (e.g. "HDMI-A-1"); empty: every connected one.
    public var connectors: [String] = []
    /// "WIDTHxHEIGHT[@HZ]"; nil: preferred, else active, else first.
    public var mode: String?
    /// The picture's rotation on the panel; nil: the connector's panel orientation.
    public var rotation: Rotation?
    /// Seconds to wait for a display that is not there yet (early boot), as the profile or the
    /// command line gives it (0: none); nil: neither does, and the command's default applies
    /// (`waitSeconds(daemon:)`).
    public var waitGiven: Double?
    /// The daemon's wait when neither the profile nor the command line gives one: it is the boot
    /// splash (dist/systemd/kiosk-hud.service), started before the display's driver has loaded.
    public static let daemonWait: Double = 8
    /// The wait in effect: the one given, else `daemonWait` for the daemon and none for the others.
    public func waitSeconds(daemon: Bool) -> Double { waitGiven ?? (daemon ? Self.daemonWait : 0) }
    /// The wait given, 0 when none was.
    @available(*, deprecated, message: "waitGiven (nil: not given) or waitSeconds(daemon:) (the one in effect): the daemon waits 8 s unless told otherwise")
    public var wait: Double {
        get { waitGiven ?? 0 }
        set { waitGiven = newValue }
    }
    /// Which display to be on as devices come and go: "first", "wait-real" or a driver's name.
    public var switchRule = "first"
    /// With "wait-real": seconds to wait for the real DRM card.
    public var realTimeout: Double = 8
    /// The kernel modules the display needs, its whole chain (DRM driver, bridge, panel, its
    /// regulator, the I²C bus to it): the initramfs-tools hook puts them in the initramfs.
    public var modules: [String] = []

    public init() {}
}

/// Whether `s` reads as WIDTHxHEIGHT or WIDTHxHEIGHT@HZ (sides 1…8192, 0 < HZ < 1000).
func isModeString(_ s: String) -> Bool {
    let parts = s.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2 else { return false }
    let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2, let w = parseInt(String(size[0])), let h = parseInt(String(size[1])),
          (1...Bitmap.maxCanvasSide).contains(w), (1...Bitmap.maxCanvasSide).contains(h) else { return false }
    if parts.count == 2 { return parseDouble(String(parts[1])).map { $0 > 0 && $0 < 1000 } ?? false }
    return true
}

/// `[touch]` of a board profile.
public struct TouchProfile: Sendable, Equatable {
    /// libinput calibration matrix (a, b, c, d, e, f); nil: what udev gives (or identity).
    public var matrix: [Double]?
    /// Only the touch device whose name or sysname contains this.
    public var device: String?
    /// Keys that press the button.
    public var keys: [Int] = [28, 57, 1, 96]
    /// Report taps outside the bezel.
    public var tapOutside = false

    public init() {}
}
