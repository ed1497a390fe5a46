import KioskPresentation
import KioskBoards
import KioskCLI
import KioskSeams
import KioskIIO
import KioskInput
import KioskSettings
import KioskSys

/// The command line's view of the settings table (KioskBoards' `HUDSettings.table`): each
/// command's options are the settings it takes, made from their declarations, and
/// `resolveSettings` applies what was given over the board profile.
public enum SettingOptions {
    /// `--board` of `render`: the generic profile unless told otherwise.
    public static let board = OptionSpec(.board, value: "auto|NAME|FILE", rule: .path,
                                  help: "Board profile: a name (kiosk-hud boards list), a TOML file, or auto (detect this board). Default: the built-in generic.")
    /// `--board` of the commands that run on the board (show, daemon, run, touch, tilt): detected.
    public static let boardAuto = OptionSpec(.board, value: "auto|NAME|FILE", rule: .path,
                                      help: "Board profile: auto (the most specific profile whose [match] rules hold on this board, else generic; "
                                          + "kiosk-hud boards detect says why), a name (kiosk-hud boards list) or a TOML file. Default: auto (with --offscreen: the built-in generic).")

    /// The options of the settings with these option names, in the table's order.
    public static func options(_ names: Set<String>) -> [OptionSpec] {
        HUDSettings.table.settings.filter { $0.option.map(names.contains) ?? false }.map { OptionSpec($0) }
    }

    /// The options of every setting in `group` (e.g. the HUD's look and content), except `excluded`.
    public static func options(group: String, excluding excluded: Set<String> = []) -> [OptionSpec] {
        HUDSettings.table.settings.filter { $0.group == group && $0.option.map { !excluded.contains($0) } ?? false }.map { OptionSpec($0) }
    }

    /// The canvas: `render` and `show --offscreen`.
    public static let canvas: Set<String> = ["size", "scale", "format", "underlay-color", "underlay-fit"]
    /// Choosing and turning the real display: `show`.
    public static let screen: Set<String> = ["card", "connector", "video-mode", "rotate", "wait-display", "display-switch", "wait-real-timeout"]
    /// Where touch comes from: `show`, `touch`.
    public static let input: Set<String> = ["seat", "input", "touch-matrix", "bind-touch"]

    /// Settings: the defaults, the `--board` profile over them (render and --offscreen: the
    /// built-in generic unless given; the others: detected unless given), the options over that.
    /// The board is chosen once per run; which and why is one log line on stderr, after the
    /// options are known to be good (so that a bad option's error is the first line) — not for
    /// render (its output is the picture), nor when `log` is false (run's first look, for the
    /// HUD's content: the line comes when its own display starts, not before a daemon's HUD).
    public static func resolve(_ a: ParsedArguments, log: Bool = true) throws -> HUDSettings {
        // render, and a display command drawing offscreen, are not about this board's display:
        // without --board they take the built-in generic profile (no file read, the same picture
        // on any machine), and say nothing about it.
        let render = a.command.count > 1 && a.command[1] == "render"
        let builtIn = a.string(.board) == nil && (render || a.given(.offscreen))
        let selection = try builtIn ? BoardSelection.builtInGeneric : selectBoard(BoardSelection.Request(a.string(.board) ?? "auto"))
        var s: HUDSettings
        do { s = try HUDSettings.resolved(profile: selection.profile, arguments: a) } catch { throw UsageError(error.description) }
        // The HUD's own words in the profile's language, or the system's (render draws none).
        if !render { s.words = s.profile.localize(system: systemLanguage()) }
        // Options given by their earlier names: a note each, once, after the options are good.
        if log, !render { noteFormerOptions(a) }
        if log, !render, !builtIn, !logged {
            logged = true
            for note in selection.notes { showLog(note) }
            showLog(selection.line)
        }
        return s
    }

    /// The board chosen in this run (a command that resolves its settings twice, `run`, detects once).
    nonisolated(unsafe) public static var chosen: (request: BoardSelection.Request, selection: BoardSelection)?
    /// Whether the board's line was logged in this run.
    nonisolated(unsafe) public static var logged = false

    /// The profile `request` names (once per run; KIOSK_BOARD_ROOT stands for / in detection and
    /// for /etc/kiosk-hud/boards, for tests).
    public static func selectBoard(_ request: BoardSelection.Request) throws -> BoardSelection {
        if let c = chosen, c.request == request { return c.selection }
        let root = environmentValue("KIOSK_BOARD_ROOT") ?? ""
        let selection: BoardSelection
        do {
            selection = try BoardSelection.select(request, catalog: .system(root: root), facts: BoardFacts(root: root))
        } catch { throw UsageError(error.description) }
        chosen = (request, selection)
        return selection
    }
}

/// The tilt effect's settings for a display rotated by `rotation`.
public struct MotionSetup {
    /// The accelerometer: where, which, its mount matrix and rate.
    public var sampler: IIOSampler.Settings
    /// The tilt filter: time constant, dead zone, the display's quarter turns, reduce motion.
    public var filter: TiltFilter.Config
    /// Points each way (`HUDStyle.motionDepth`); 0 = off.
    public var depth: Double
    /// False with depth 0 or reduce motion: don't start the accelerometer at all.
    public var enabled: Bool { depth > 0 && !filter.reduceMotion }

    /// The setup `s` (its profile's [motion] and the tilt options) asks for.
    public init(_ s: HUDSettings, rotation: Rotation) {
        let m = s.profile.motion
        sampler = IIOSampler.Settings(root: s.iioRoot.map(IIORoot.init) ?? .system, accel: m.accel, mountMatrix: m.mountMatrix, rate: m.rate)
        filter = TiltFilter.Config(timeConstant: m.timeConstant, deadZone: m.deadZone, quarterTurns: rotation.rawValue / 90,
                                   reduceMotion: m.reduceMotion)
        filter.neutral = m.neutral
        depth = s.profile.style.motionDepth
    }
}

extension HUDSettings {
    /// libinput's options for a picture `transform` on `connector`: the seat or devices, the
    /// profile's (or --touch-matrix's) calibration, the bindings (the profile's touch device
    /// bound to `connector` when no --bind-touch is given).
    public func libinputOptions(transform: DisplayTransform, connector: String?, log: @escaping (String) -> Void) throws -> LibinputOptions {
        var options = LibinputOptions(transform: transform)
        options.backend = inputs.isEmpty ? .udev(seat: seat) : .path(inputs)
        options.connector = connector
        do {
            options.bindings = try bindings.map { text throws(LibinputError) in try TouchBinding(parsing: text) }
        } catch { throw UsageError(error.description) }
        if let m = profile.touch.matrix, m.count == 6 { options.calibration = CalibrationMatrix(m.map { Float($0) }) }
        if bindings.isEmpty, let device = profile.touch.device, let connector {
            options.bindings = [TouchBinding(device: DeviceMatch(device), connector: connector)]
        }
        options.log = log
        return options
    }

    /// `libinputOptions(transform:connector:log:)`'s earlier form.
    @available(*, deprecated, renamed: "libinputOptions(transform:connector:log:)")
    public func libinputOptions(transform: DisplayTransform, output: String?, log: @escaping (String) -> Void) throws -> LibinputOptions {
        try libinputOptions(transform: transform, connector: output, log: log)
    }
}

/// A note on stderr for each option given by its earlier, deprecated name (`--underlay`, `touch
/// --output`), once per run.
func noteFormerOptions(_ a: ParsedArguments) {
    guard !FormerOptions.noted else { return }
    FormerOptions.noted = true
    for note in a.deprecations { showLog(note) }
}

private enum FormerOptions { nonisolated(unsafe) static var noted = false }

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let board = OptionKey("board")
    public static let underlayImage = OptionKey("underlay-image")
    /// `underlayImage`'s earlier name (the option was `--underlay`).
    @available(*, deprecated, renamed: "underlayImage")
    public static var underlay: OptionKey { underlayImage }
    public static let logo = OptionKey("logo")
}
