import Glibc
import KioskBoards
import KioskCLI
import KioskDevices
import KioskIIO
import KioskSession
import KioskSys

/// `kiosk-hud tilt`: reads the accelerometer and prints the filtered bezel offset (bring-up aid).
///
/// One line per sample: `t ax ay az dx dy` — seconds since start, the reading in m/s² in the
/// panel's axes (after the mount matrix), and the bezel offset in pixels (depth × the profile's
/// scale). While the sensor is lost and the offset eases back, lines have `-` for the reading.
/// Status lines and, at the end (also on SIGINT/SIGTERM), read statistics on stderr.
struct TiltCommand {
    static let spec = CommandSpec(
        "tilt", abstract: "Print the tilt offset the accelerometer gives.",
        groups: [
            OptionGroup([
                OptionSpec("board", help: "Board profile (TOML); default: the built-in generic profile."),
                OptionSpec("rotate", help: "Display rotation: 0, 90, 180 or 270."),
                OptionSpec("samples", help: "Stop after this many samples."),
                OptionSpec("duration", value: "s", help: "Stop after this many seconds."),
            ]),
            OptionGroup("Tilt", MotionOptions.options),
        ])

    var board: String?
    var motion: MotionOptions
    var rotate = 0
    var samples: Int?
    var duration: Double?

    init(_ a: ParsedArguments) throws(UsageError) {
        board = a.string("board")
        motion = try MotionOptions(a)
        rotate = try a.int("rotate") ?? 0
        samples = try a.int("samples")
        duration = try a.double("duration")
    }

    func run() throws {
        guard let rotation = Rotation(degrees: rotate), rotate % 90 == 0 else { throw UsageError("--rotate \(rotate): expected 0, 90, 180 or 270") }
        if let samples, samples < 1 { throw UsageError("--samples \(samples): expected ≥ 1") }
        if let duration, !(duration > 0) { throw UsageError("--duration \(duration): expected seconds > 0") }
        let profile = try loadProfile(board)
        var setup = try motion.resolve(profile: profile, rotation: rotation)
        if setup.depth == 0 || setup.filter.reduceMotion {
            writeLine("tilt: motion effect is off (depth 0 or reduce motion); printing zero offsets", to: 2)
        }
        setup.filter.reduceMotion = setup.filter.reduceMotion || setup.depth == 0
        let clock = SystemClock()
        let loop = PollEventLoop(clock: clock)
        let source = try IIOMotionSource.start(settings: setup.sampler, clock: clock, log: { writeLine($0, to: 2) })
        defer { source.stop() }
        let printer = TiltPrinter(source: source, setup: setup, depth: setup.depth * (profile.scale > 0 ? profile.scale : 1),
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

/// The board profile at `path`, or the built-in generic one.
func loadProfile(_ path: String?) throws -> BoardProfile {
    guard let path else { return BoardProfile.generic }
    let text: String
    do { text = try readSmallFile(path, limit: 1 << 20) } catch { throw UsageError("cannot read board profile: \(error)") }
    do { return try BoardProfile.parse(text, source: path) } catch let e as BoardProfile.Error { throw UsageError(e.description) }
}
