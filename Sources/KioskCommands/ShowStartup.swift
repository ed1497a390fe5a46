import KioskSeams
import KioskDRM
import KioskOffscreen
import KioskSys
import KioskText

// What `show` does once its first frame is on screen: the start-up log lines, the caches, the
// offscreen first.png.
extension ShowCommand {
    /// `asStarted`: the first frame shows what the options say (no client changed the content
    /// before it: a daemon that waited for its display may have had its progress and a unit's
    /// line by then) — only such a frame is kept for the next start.
    func firstFrameShown(at t: Double, screen outer: Screen, fonts: FontLibrary, asStarted: Bool = true) {
        // The screen that draws: behind a pending screen (`--wait-display`) and a switching one,
        // the device's own.
        let screen = outer.innermost
        firstFrame.shown = true
        logFirstFrame(at: t, fonts: fonts, early: screen.continuedEarlyFrame)
        for problem in fonts.saveGlyphCache() { showLog(problem) }
        if let cache = screen.frameCache { saveFrameCache(cache, fonts: fonts, asStarted: asStarted) }
        if let dir = offscreen, dir != "-", let picture = screen.presentedPicture {
            do { try writePNG(picture, to: dir + "/first.png") } catch { showLog("\(error)") }
        }
    }

    func logFirstFrame(at t: Double, fonts: FontLibrary, early: Bool) {
        let frameNs = UInt64(t * 1e9)
        // With the early frame, the first frame came from the frame cache before our constructors;
        // main_ms and the phases run to the frame drawn here (now).
        let drawnNs = early ? monotonicNanoseconds() : frameNs
        let mainStart = StartMarks.time(.cli)
        let mainMs = Double(drawnNs &- mainStart) / 1e6
        let t0 = environmentValue("KIOSK_EXEC_T0_NS").flatMap { UInt64($0) }
        var exec = "exec_ms=?"
        // Where the time went: exec → our constructors (loader, libraries) → run() (runtime, option
        // parsing) → first frame.
        var split = ""
        if let t0 {
            exec = "exec_ms=\(fmt(Double(frameNs &- t0) / 1e6))"
            let start = processStartNanoseconds()
            split = " start_ms=\(fmt(Double(start &- t0) / 1e6)) parse_ms=\(fmt(Double(mainStart &- start) / 1e6))"
        } else if let ms = millisecondsSinceExec() {
            exec = "exec_ms=\(fmt(ms - (monotonicSeconds() - t) * 1e3)) (10 ms resolution)"
        }
        let faults = pageFaults()
        let text = fonts.usedFreeType ? "freetype" : "glyph-cache"
        var source = " source=drawn"
        if early {
            let drawn = t0.map { fmt(Double(drawnNs &- $0) / 1e6) } ?? millisecondsSinceExec().map { fmt($0) + " (10 ms resolution)" } ?? "?"
            source = " source=frame-cache drawn_ms=" + drawn
        }
        // at_s: when, on CLOCK_MONOTONIC (the boot clock systemd's *TimestampMonotonic use too).
        showLog("first-frame \(exec) main_ms=\(fmt(mainMs))\(split) faults=\(faults.now) start_faults=\(faults.atStart) text=\(text)\(source)" +
                " at_s=\(monotonicText(frameNs))")
        showLog("first-frame phases " + StartMarks.describe(from: processStartNanoseconds(), to: drawnNs))
    }
}

/// Nanoseconds as seconds with 6 decimals ("12.345678"), as systemd shows µs timestamps.
func monotonicText(_ ns: UInt64) -> String {
    let us = ns / 1000
    let frac = String(us % 1_000_000)
    return "\(us / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
}
