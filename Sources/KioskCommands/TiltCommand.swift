import Glibc
import KioskBoards
import KioskCLI
import KioskSeams
import KioskIIO
import KioskSession
import KioskSys

/// `kiosk-hud tilt`: reads the accelerometer and prints the filtered bezel offset (bring-up aid).
///
/// One line per sample: `t ax ay az dx dy` — seconds since start, the reading in m/s² in the
/// panel's axes (after the mount matrix), and the bezel offset in pixels (depth × the profile's
/// scale). While the sensor is lost and the offset eases back, lines have `-` for the reading.
/// Status lines and, at the end (also on SIGINT/SIGTERM), read statistics on stderr.
public struct TiltCommand {
    /// `kiosk-hud tilt`'s options, help and manual page.
    public static let spec = CommandSpec(
        "tilt", abstract: "Print the tilt offset the accelerometer gives.",
        groups: [
            OptionGroup([SettingOptions.boardAuto] + SettingOptions.options(["rotate"]) + [
                OptionSpec(.samples, rule: .integer(1, 1_000_000_000, "a count"), help: "Stop after this many samples."),
                OptionSpec(.duration, value: "s", rule: .number(0, 31_536_000, minOpen: true, "seconds"), help: "Stop after this many seconds."),
            ]),
            OptionGroup("Tilt", SettingOptions.options(group: SettingGroup.tilt)),
        ])

    let arguments: ParsedArguments
    /// The command with its parsed options.
    public init(_ a: ParsedArguments) { arguments = a }

    /// Prints the samples until --samples, --duration or a signal.
    public func run() throws {
        let settings = try SettingOptions.resolve(arguments)
        let profile = settings.profile
        var setup = MotionSetup(settings, rotation: profile.display.rotation ?? .none)
        if setup.depth == 0 || setup.filter.reduceMotion {
            writeLine("tilt: motion effect is off (depth 0 or reduce motion); printing zero offsets", to: 2)
        }
        setup.filter.reduceMotion = setup.filter.reduceMotion || setup.depth == 0
        let samples = try arguments.int(.samples), duration = try arguments.double(.duration)
        let clock = SystemClock()
        let kernel = LinuxKernel()
        let loop = PollEventLoop(kernel: kernel, clock: clock)
        let source = try IIOMotionSource.start(settings: setup.sampler, clock: clock, kernel: kernel, log: { writeLine($0, to: 2) })
        defer { source.stop() }
        let printer = TiltPrinter(source: source, setup: setup, depth: setup.depth * (profile.scale ?? 1),
                                  limit: samples, loop: loop)
        writeLine("# t ax ay az (m/s², panel axes) dx dy (px; depth \(printer.fmt(printer.depth, 2)))", to: 1)
        for s in [SIGINT, SIGTERM] { loop.onSignal(s) { loop.stop() } }
        if let duration { loop.schedule(at: duration) { loop.stop() } }
        try source.attach(to: loop) { printer.take() }
        try loop.run()
        let st = source.stats
        writeLine("tilt: \(st.samples) samples, read cost mean \(printer.fmt(st.meanSeconds * 1e6, 1)) µs, max \(printer.fmt(st.maxSeconds * 1e6, 1)) µs (existence check + 3 preads + parse)", to: 2)
    }
}

/// Prints each sample as the tilt filter sees it, and the offset easing back while the sensor is
/// lost (a frame every sample period, until it is centred).
final class TiltPrinter {
    let source: IIOMotionSource
    let tracker: TiltTracker
    let depth: Double
    let period: Double
    let limit: Int?
    let loop: PollEventLoop
    var printed = 0
    var easing: LoopToken?

    init(source: IIOMotionSource, setup: MotionSetup, depth: Double, limit: Int?, loop: PollEventLoop) {
        self.source = source; self.depth = depth; self.limit = limit; self.loop = loop
        tracker = TiltTracker(source: source, config: setup.filter)
        period = setup.sampler.period
    }

    func fmt(_ v: Double, _ digits: Int) -> String {
        let p = [1.0, 10, 100, 1000][digits]
        let r = (v * p).rounded() / p
        return String(r == 0 ? 0 : r)
    }

    /// The samples that arrived, and whether the sensor went quiet.
    func take() {
        let now = loop.now
        for s in source.samples(until: now) {
            tracker.feed(s)
            let d = tracker.offset(at: s.time, depth: depth)
            line("\(fmt(s.time, 3)) \(fmt(s.x, 3)) \(fmt(s.y, 3)) \(fmt(s.z, 3)) \(fmt(d.dx, 2)) \(fmt(d.dy, 2))")
        }
        if let easing { loop.cancel(easing) }
        // Look again after a quiet stretch: a sensor that stops delivering eases back to centre.
        easing = loop.schedule(after: max(period, source.staleAfter)) { [unowned self] in self.quiet() }
    }

    private func quiet() {
        let now = loop.now
        let wasMoving = tracker.isMoving(at: now)
        tracker.checkHealth(at: now)
        guard wasMoving || tracker.isMoving(at: now), !source.isDelivering(at: now) else { return }
        let d = tracker.offset(at: now, depth: depth)
        line("\(fmt(now, 3)) - - - \(fmt(d.dx, 2)) \(fmt(d.dy, 2))")
        easing = loop.schedule(after: period) { [unowned self] in self.quiet() }
    }

    private func line(_ s: String) {
        guard limit.map({ printed < $0 }) ?? true else { return }
        writeLine(s, to: 1)
        printed += 1
        if let limit, printed >= limit { loop.stop() }
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let samples = OptionKey("samples")
}
