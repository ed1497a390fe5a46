import KioskBehavior
import KioskBoards
import KioskCLI
import KioskDevices
import KioskIIO
import KioskInput
import KioskSettings
import KioskSys

/// The command line's view of the settings table (KioskBoards' `HUDSettings.table`): each
/// command's options are the settings it takes, made from their declarations, and
/// `resolveSettings` applies what was given over the board profile.
enum SettingOptions {
    /// `--board`: every command that starts from a profile takes it.
    static let board = OptionSpec("board", rule: .path, help: "Board profile (TOML); default: the built-in generic profile.")

    /// The options of the settings with these option names, in the table's order.
    static func options(_ names: Set<String>) -> [OptionSpec] {
        HUDSettings.table.settings.filter { $0.option.map(names.contains) ?? false }.map { OptionSpec($0) }
    }

    /// The options of every setting in `group` (e.g. the HUD's look and content), except `excluded`.
    static func options(group: String, excluding excluded: Set<String> = []) -> [OptionSpec] {
        HUDSettings.table.settings.filter { $0.group == group && $0.option.map { !excluded.contains($0) } ?? false }.map { OptionSpec($0) }
    }

    /// The canvas: `render` and `show --offscreen`.
    static let canvas: Set<String> = ["size", "scale", "format", "underlay-color"]
    /// Choosing and turning the real display: `show`.
    static let screen: Set<String> = ["card", "connector", "video-mode", "rotate", "wait-display", "display-switch", "wait-real-timeout"]
    /// Where touch comes from: `show`, `touch`.
    static let input: Set<String> = ["seat", "input", "touch-matrix", "bind-touch"]

    /// Settings: the defaults, the `--board` profile over them, the options over that.
    static func resolve(_ a: ParsedArguments) throws -> HUDSettings {
        var s = HUDSettings.defaults
        if let board = try a.value("board")?.string { s.profile = try loadProfile(board) }
        do {
            try HUDSettings.table.apply(options: { a.strings($0).isEmpty ? nil : a.strings($0) },
                                        flag: { a.optionalFlag($0) }, to: &s)
        } catch { throw UsageError(error.description) }
        return s
    }
}

/// The board profile at `path`.
func loadProfile(_ path: String) throws -> BoardProfile {
    let bytes: [UInt8]
    do { bytes = try readFileBytes(path, limit: TOMLTable.maxDocumentBytes) } catch { throw UsageError("cannot read board profile: \(error)") }
    do { return try BoardProfile.parse(bytes, source: path) } catch { throw UsageError(error.description) }
}

/// The tilt effect's settings for a display rotated by `rotation`.
struct MotionSetup {
    var sampler: IIOSampler.Settings
    var filter: TiltFilter.Config
    /// Points each way (`HUDStyle.motionDepth`); 0 = off.
    var depth: Double
    /// False with depth 0 or reduce motion: don't start the accelerometer at all.
    var enabled: Bool { depth > 0 && !filter.reduceMotion }

    init(_ s: HUDSettings, rotation: Rotation) {
        let m = s.profile.motion
        sampler = IIOSampler.Settings(root: s.iioRoot.map(IIORoot.init) ?? .system, accel: m.accel, mountMatrix: m.mountMatrix, rate: m.rate)
        filter = TiltFilter.Config(timeConstant: m.timeConstant, deadZone: m.deadZone, quarterTurns: rotation.rawValue / 90,
                                   reduceMotion: m.reduceMotion)
        filter.neutral = m.neutral
        depth = s.profile.style.motionDepth
    }
}

extension HUDSettings {
    /// libinput's options for a picture `transform` on `output`: the seat or devices, the
    /// profile's (or --touch-matrix's) calibration, the bindings (the profile's touch device
    /// bound to `output` when no --bind-touch is given).
    func libinputOptions(transform: DisplayTransform, output: String?, log: @escaping (String) -> Void) throws -> LibinputOptions {
        var options = LibinputOptions(transform: transform)
        options.backend = inputs.isEmpty ? .udev(seat: seat) : .path(inputs)
        options.output = output
        do {
            options.bindings = try bindings.map { text throws(LibinputError) in try TouchBinding(parsing: text) }
        } catch { throw UsageError(error.description) }
        if let m = profile.touch.matrix, m.count == 6 { options.calibration = CalibrationMatrix(m.map { Float($0) }) }
        if bindings.isEmpty, let device = profile.touch.device, let output {
            options.bindings = [TouchBinding(device: DeviceMatch(device), output: output)]
        }
        options.log = log
        return options
    }
}
