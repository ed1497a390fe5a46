import Glibc
import KioskBoards
import KioskCLI
import KioskDevices
import KioskIIO
import KioskSys
import Synchronization

/// Set by SIGINT/SIGTERM: `tilt` finishes its loop and prints the read statistics.
private let interrupted = Atomic<Bool>(false)

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
        let profile = try loadProfile()
        var setup = try motion.resolve(profile: profile, rotation: rotation)
        if setup.depth == 0 || setup.filter.reduceMotion {
            warn("tilt: motion effect is off (depth 0 or reduce motion); printing zero offsets")
        }
        setup.filter.reduceMotion = setup.filter.reduceMotion || setup.depth == 0
        for sig in [SIGINT, SIGTERM] { signal(sig) { _ in interrupted.store(true, ordering: .relaxed) } }
        let clock = SystemClock()
        let source = try IIOMotionSource.start(settings: setup.sampler, clock: clock, log: { warn($0) })
        defer { source.stop() }
        let tracker = TiltTracker(source: source, config: setup.filter)
        func fmt(_ v: Double, _ digits: Int) -> String {
            let p = [1.0, 10, 100, 1000][digits]
            let r = (v * p).rounded() / p
            return String(r == 0 ? 0 : r)
        }
        let px = setup.depth * (profile.scale > 0 ? profile.scale : 1)
        writeLine("# t ax ay az (m/s², panel axes) dx dy (px; depth \(fmt(px, 2)))", to: 1)
        var printed = 0
        let poll = setup.sampler.period / 2
        while true {
            let now = clock.now
            if let duration, now >= duration { break }
            if interrupted.load(ordering: .relaxed) { break }
            var line: [String] = []
            for s in source.samples(until: now) {
                tracker.feed(s)
                let d = tracker.offset(at: s.time, depth: px)
                line.append("\(fmt(s.time, 3)) \(fmt(s.x, 3)) \(fmt(s.y, 3)) \(fmt(s.z, 3)) \(fmt(d.dx, 2)) \(fmt(d.dy, 2))")
            }
            let wasMoving = tracker.isMoving(at: now)
            tracker.checkHealth(at: now)
            if line.isEmpty, wasMoving || tracker.isMoving(at: now), !source.isDelivering(at: now) {
                let d = tracker.offset(at: now, depth: px)
                line.append("\(fmt(now, 3)) - - - \(fmt(d.dx, 2)) \(fmt(d.dy, 2))")
            }
            for l in line {
                writeLine(l, to: 1)
                printed += 1
                if let samples, printed >= samples { break }
            }
            if let samples, printed >= samples { break }
            sleepFor(poll)
        }
        let st = source.stats
        warn("tilt: \(st.samples) samples, read cost mean \(fmt(st.meanSeconds * 1e6, 1)) µs, max \(fmt(st.maxSeconds * 1e6, 1)) µs (existence check + 3 preads + parse)")
    }

    private func loadProfile() throws -> BoardProfile {
        guard let board else { return BoardProfile.generic }
        let text: String
        do { text = try readSmallFile(board, limit: 1 << 20) } catch { throw UsageError("cannot read board profile: \(error)") }
        do { return try BoardProfile.parse(text, source: board) } catch let e as BoardProfile.Error { throw UsageError(e.description) }
    }
}


private func warn(_ s: String) { writeLine(s, to: 2) }

private func sleepFor(_ seconds: Double) {
    var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var left = timespec()
    while nanosleep(&ts, &left) == -1 && errno == EINTR { ts = left }
}
