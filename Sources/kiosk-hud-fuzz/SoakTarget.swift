import Glibc
import KioskPresentation
import KioskSeams
import KioskTestDoubles
import KioskHUD
import KioskSession
import KioskText

/// `soak`: memory that grows while nothing changes. `show --offscreen - --mode indeterminate`
/// once grew ~1.3 KB/s (a present log kept for ever); in real time a spinner draws ~12 frames
/// a second, far too slow to reach 10^5 frames, so the soak runs the library in this process:
/// a `HUDSession` on `EmbeddedEventLoop` (time moves only with `advance(by:)`), an
/// `OffscreenScreen(OffscreenDisplay(800x480))`, a spinner HUD with a label, details and a
/// button, a `ScriptedMotion` tilting the board (mostly still, now and then turning to a new
/// angle, so both the idle spinner and the moving bezel are drawn) and a `ScriptedInput`
/// tapping the button or outside the bezel now and then. RSS (/proc/self/statm) is read after
/// 10^3 frames and after the last; its anonymous part (resident − shared: the heap, stacks and
/// buffers) must agree within `Criteria.soakPageAllowance` pages. The whole RSS is reported
/// too, but not held to it: its file-backed part is code and fonts mapped from files, which
/// comes in when a path first runs (the first button press, late in a short run) and goes with
/// the page cache's reclaim, whatever the program's memory does.
///
/// The script is fed one second at a time, each second a new scripted source attached in place
/// of the last (the session's own attach/detach path): a scripted source keeps a timer token for
/// every event until it is detached, and a longer piece's transient allocations (hundreds of
/// samples and timers at once) touch fresh heap pages now and then, which showed as a few pages
/// of RSS noise that was the harness's, not the session's.
func runSoak(frames total: Int, seed: UInt64, tally: Tally) {
    // A short run (CI's 600 frames) reads after two thirds: its first button press and turn of
    // the board come in the first half, and their first-time allocations are not growth.
    let firstReading = min(1000, max(1, total * 2 / 3))
    let display: OffscreenDisplay
    let fonts: FontLibrary
    do {
        display = try OffscreenDisplay(width: 800, height: 480)
        fonts = try FontLibrary()
    } catch {
        tally.fail(0, Violation(kind: "setup", detail: "cannot set up: \(error)", key: "setup"), input: "soak")
        return
    }
    let loop = EmbeddedEventLoop()
    var presses = 0
    let session = HUDSession(
        loop: loop, screen: OffscreenScreen(display), fonts: fonts, clock: loop.clock,
        configuration: SessionConfiguration(
            content: HUDContent(mode: .indeterminate, label: "Soaking…", details: "Nothing changes here; memory must not grow",
                                buttonTitle: "Cancel", buttonHasAction: true),
            tapOutside: true, onButton: .call { presses += 1 }, onTapOutside: .none))
    do { try session.start() } catch {
        tally.fail(0, Violation(kind: "setup", detail: "cannot start the session: \(error)", key: "setup"), input: "soak")
        return
    }
    loop.run()
    var rng = Rng(seed: seed, index: 0)
    let g = TiltFilter.standardGravity
    var readings: [(frames: Int, rss: (total: Int, anonymous: Int))] = []
    readings.reserveCapacity(64)
    var slowest = (ms: 0.0, frame: 0)
    var nextReading = firstReading
    var angle = 0.0, taps = 0, turns = 0
    while display.presentCount < total && session.ended == nil {
        // The next second of script: still, or (now and then) turning to a new angle.
        let t0 = loop.now
        let motion = ScriptedMotion()
        let from = angle
        if rng.chance(0.15) { angle = rng.unit() * 24 - 12; turns += 1 }
        for k in 0..<30 {
            let a = (from + (angle - from) * Double(k + 1) / 30) * .pi / 180
            motion.add(AccelerationSample(time: t0 + Double(k) / 30, x: -sin(a) * g, y: 0.1 * g, z: cos(a) * g))
        }
        let input = ScriptedInput()
        if rng.chance(0.1), let hud = session.primaryHUD {
            taps += 1
            if rng.chance(0.6), let button = hud.renderer.layout.button {
                input.tap(x: button.midX, y: button.midY, at: t0 + 0.9 * rng.unit())
            } else {
                input.tap(x: 3 + 100 * rng.unit(), y: 3, at: t0 + 0.9 * rng.unit())
            }
        }
        do {
            try session.attachMotion(motion, filter: TiltFilter.Config())
            try session.attachInput(input)
        } catch {
            tally.fail(display.presentCount, Violation(kind: "setup", detail: "cannot attach the scripted sources: \(error)", key: "setup"), input: "soak")
            return
        }
        // Through the second in steps of 0.1 s, reading RSS as the frame counts pass.
        for _ in 0..<10 where display.presentCount < total {
            let before = display.presentCount
            let c0 = monotonicNanos()
            loop.advance(by: 0.1)
            let ms = millis(c0, monotonicNanos())
            if ms > slowest.ms { slowest = (ms, before) }
            if display.presentCount >= nextReading {
                readings.append((display.presentCount, residentBytes()))
                nextReading = readings.count == 1 ? max(firstReading + 1, total / 10) : nextReading + max(1, total / 10)
            }
        }
    }
    if readings.last.map({ $0.frames < display.presentCount }) ?? true { readings.append((display.presentCount, residentBytes())) }
    tally.merge(runs: display.presentCount, slowest: (slowest.ms, slowest.frame), peak: (peakRSSBytes(), display.presentCount))
    let first = readings.first!, last = readings.last!
    let growth = last.rss.total - first.rss.total, anonymous = last.rss.anonymous - first.rss.anonymous
    tally.extra = ["rss@\(first.frames)=\(first.rss.total / 1024)kB(anon \(first.rss.anonymous / 1024)kB)",
                   "rss@\(last.frames)=\(last.rss.total / 1024)kB(anon \(last.rss.anonymous / 1024)kB)",
                   "anon-growth=\(anonymous / 1024)kB(\(anonymous / pageSize) pages)", "rss-growth=\(growth / 1024)kB",
                   "virtual=\(decimal(loop.now, 0))s", "turns=\(turns)", "taps=\(taps)", "presses=\(presses)",
                   "anon-trend(kB)=" + readings.map { "\($0.rss.anonymous / 1024)" }.joined(separator: "/")]
    if let end = session.ended {
        tally.fail(display.presentCount, Violation(kind: "ended", detail: "the session ended by itself: \(end)", key: "session ended"), input: "soak")
    }
    if anonymous > Criteria.soakPageAllowance * pageSize {
        tally.fail(last.frames, Violation(kind: "growth", detail: "anonymous RSS grew \(anonymous / 1024) kB (\(anonymous / pageSize) pages; all of RSS \(growth / 1024) kB) from frame \(first.frames) to \(last.frames); readings (frames:anonymous kB): "
                                          + readings.map { "\($0.frames):\($0.rss.anonymous / 1024)" }.joined(separator: " "), key: "rss growth"),
                   input: "soak --count \(total) --seed \(seed)")
    }
}
