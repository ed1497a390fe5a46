import Glibc
import KioskCLI
import KioskSeams
import KioskInput
import KioskSys

/// `kiosk-hud touch`: prints input events as the HUD sees them (bring-up aid for calibration).
///
/// One line per event on stdout, in picture coordinates (after calibration and rotation):
/// `down SLOT X Y`, `motion SLOT X Y`, `up SLOT`, `cancel SLOT`, `frame`, `pointer X Y`,
/// `button pressed|released`, `key CODE pressed|released`. Devices, calibration and a latency
/// summary on stderr; "touch: listening …" on stderr once the devices present are set up.
public struct TouchCommand {
    /// `kiosk-hud touch`'s options, help and manual page.
    public static let spec = CommandSpec(
        "touch", abstract: "Print touch, pointer and key events in screen coordinates.",
        discussion: """
        --size is the panel's own size (the display mode, before rotation); by default the mode \
        of the first connected DRM connector (--connector picks one), from /sys/class/drm. \
        --touch-matrix takes libinput's six calibration numbers a,b,c,d,e,f (or rotate-90, \
        rotate-180, rotate-270 for a sensor mounted rotated); without it, udev's \
        LIBINPUT_CALIBRATION_MATRIX applies. --bind-touch DEVICE=OUTPUT (DEVICE: event5 or part \
        of the device name; OUTPUT: a connector) ties a touch screen to a connector: devices \
        bound to another connector than --connector are ignored. (--output is --connector's \
        earlier name, deprecated.)
        """,
        groups: [
            OptionGroup([SettingOptions.boardAuto] + SettingOptions.options(["rotate"]) + [
                OptionSpec(.size, value: "WxH", rule: .size(1, 8192), help: "Panel size in pixels (the display mode, before rotation)."),
                OptionSpec(.connector, value: "NAME", rule: .text(32, nonEmpty: true, "a connector name"),
                           help: "The connector the picture is on (for --bind-touch, WL_OUTPUT and --size's default).",
                           formerNames: ["output"]),
                OptionSpec(.count, rule: .integer(1, 1_000_000_000, "a count"), help: "Stop after this many events (exit 1 if --timeout comes first)."),
                OptionSpec(.timeout, value: "s", rule: .number(0, 31_536_000, minOpen: true, "seconds"), help: "Stop after this many seconds."),
            ]),
            OptionGroup("Input", SettingOptions.options(SettingOptions.input)),
        ])

    let arguments: ParsedArguments
    /// The command with its parsed options.
    public init(_ a: ParsedArguments) { arguments = a }

    /// Prints the events until --count, --timeout or a signal.
    public func run() throws {
        let a = arguments
        let settings = try SettingOptions.resolve(a)
        let rotation = settings.profile.display.rotation ?? .none
        let rotate = rotation.rawValue
        let count = try a.int(.count), timeout = try a.double(.timeout), connector = a.string(.connector)
        let (pw, ph, sizeSource) = try panelSize(connector: connector)
        let options = try settings.libinputOptions(transform: DisplayTransform(
            rotation: rotation, width: rotation == .none || rotation == .half ? pw : ph,
            height: rotation == .none || rotation == .half ? ph : pw), connector: connector, log: { writeLine($0, to: 2) })
        let inputs = settings.inputs, seat = settings.seat

        let source = try LibinputSource(options: options)
        defer { source.close() }
        let t = source.transform
        let clock = SystemClock()
        let loop = PollEventLoop(clock: clock)
        writeLine("touch: listening on \(inputs.isEmpty ? seat : inputs.joined(separator: " ")) (\(source.devices.count) device(s)); "
            + "panel \(pw)x\(ph) (\(sizeSource)), rotate \(rotate) → picture \(t.width)x\(t.height)"
            + (options.calibration.map { ", touch matrix \($0)" } ?? ""), to: 2)

        var printed = 0
        var latency: [Double] = []
        var reason = "interrupted"
        for s in [SIGINT, SIGTERM] { loop.onSignal(s) { loop.stop() } }
        if let timeout { loop.schedule(at: timeout) { reason = "timeout"; loop.stop() } }
        try source.attach(to: loop) {
            let now = monotonicSeconds()
            for e in source.takeAll() {
                latency.append(now - e.time)
                writeLine(describe(e.event), to: 1)
                printed += 1
                if let count, printed >= count { reason = "count"; loop.stop(); return }
            }
        }
        try loop.run()
        let mean = latency.isEmpty ? 0 : latency.reduce(0, +) / Double(latency.count)
        writeLine("touch: \(printed) event(s), \(reason); event→queue latency mean \(touchFmt(mean * 1000)) ms, "
            + "max \(touchFmt((latency.max() ?? 0) * 1000)) ms", to: 2)
        if let count, printed < count, reason == "timeout" {
            writeLine("touch: timeout after \(touchFmt(timeout ?? 0)) s with \(printed) of \(count) events", to: 2)
            throw ExitCode(1)
        }
    }

    /// --size, else the first mode of the --connector connector (or the first connected one).
    private func panelSize(connector wanted: String?) throws -> (Int, Int, String) {
        if case let .size(w, h) = try arguments.value(.size) { return (w, h, "--size") }
        let base = "/sys/class/drm", kernel = LinuxKernel()
        for entry in kernel.listDirectory(base) ?? [] {
            guard let dash = entry.firstIndex(of: "-"), entry.hasPrefix("card") else { continue }
            let connector = String(entry[entry.index(after: dash)...])
            if let wanted, connector != wanted { continue }
            guard (try? kernel.readSmallFile("\(base)/\(entry)/status"))?.hasPrefix("connected") == true,
                  let mode = (try? kernel.readSmallFile("\(base)/\(entry)/modes"))?.split(separator: "\n").first else { continue }
            let parts = mode.split(separator: "x")
            if parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1].prefix { $0.isNumber }) {
                return (w, h, "\(connector) mode")
            }
        }
        throw UsageError("no connected DRM connector\(wanted.map { " named \($0)" } ?? "") to take the panel size from; give --size WxH")
    }
}

/// The line printed for an event.
private func describe(_ e: InputEvent) -> String {
    switch e {
    case let .touchDown(slot, x, y): "down \(slot) \(touchFmt(x)) \(touchFmt(y))"
    case let .touchMotion(slot, x, y): "motion \(slot) \(touchFmt(x)) \(touchFmt(y))"
    case let .touchUp(slot): "up \(slot)"
    case let .touchCancel(slot): "cancel \(slot)"
    case .touchFrame: "frame"
    case let .pointerMotion(x, y): "pointer \(touchFmt(x)) \(touchFmt(y))"
    case let .pointerButton(pressed): "button \(pressed ? "pressed" : "released")"
    case let .key(code, pressed): "key \(code) \(pressed ? "pressed" : "released")"
    }
}

/// Two decimals at most ("400.0", "133.33"), never "-0.0".
private func touchFmt(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return String(r == 0 ? 0 : r)
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let count = OptionKey("count")
    public static let connector = OptionKey("connector")
    /// `connector`'s earlier name (`touch --output`).
    @available(*, deprecated, renamed: "connector")
    public static var output: OptionKey { connector }
}
