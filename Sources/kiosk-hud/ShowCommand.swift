import Glibc
import KioskBoards
import KioskCLI
import KioskDevices
import KioskDRM
import KioskEmbedded
import KioskHUD
import KioskIIO
import KioskInput
import KioskPNG
import KioskRaster
import KioskSys
import KioskText

/// `kiosk-hud show`: the HUD on the real display (DRM/KMS, fbdev fallback, or PNGs offscreen),
/// until Ctrl+C/SIGTERM or for `--duration` seconds. Logs (stderr) the card, connector, mode,
/// rotation and the time from exec to the first frame on screen. No Foundation on the way to
/// the first frame.
struct ShowCommand {
    static let spec = CommandSpec(
        "show", abstract: "Show the HUD on the display (DRM/KMS; fbdev fallback).",
        discussion: """
        The HUD options are render's; --card, --connector, --video-mode and --rotate override the board \
        profile's [display]. Picture size = the display mode (rotated); --size applies to --offscreen only. Scale: --scale, else the board profile's if --board is given, else chosen \
        from the panel's physical size (~135 DPI target, like Plymouth). Log lines go to stderr; \
        "first-frame exec_ms=" is exec -> first frame on screen (KIOSK_EXEC_T0_NS=<CLOCK_MONOTONIC \
        ns at spawn> makes it exact; else /proc/self/stat, 10 ms resolution), with source=frame-cache \
        when an earlier run with the same options left its first frame in the cache directory and it \
        was put on screen before start-up (--no-frame-cache: never), else source=drawn.

        Input (libinput: touch, mouse, keys) and the tilt effect start after the first frame. \
        Touch and pointer positions are mapped onto the first output's picture (its rotation); \
        --touch-matrix, the board profile's [touch] matrix and udev's LIBINPUT_CALIBRATION_MATRIX \
        calibrate. The board profile's [touch] keys press the button. No input devices or no \
        udev is not an error (one log line; --no-input: none). The tilt: the board profile's \
        [motion] and the tilt options (as for `kiosk-hud tilt`); the display's rotation applies.

        Exit codes: 0 normal end (--duration, SIGINT/SIGTERM/SIGHUP, or --on-button hide once \
        the HUD is hidden); 1 error; 10 the button was pressed (--on-button exit); 11 a tap \
        outside the bezel (--on-tap-outside exit); 64 bad options. The display is restored (or \
        retained with --retain) the same way for each.
        """,
        groups: [
            OptionGroup(HUDOptions.options + [
                OptionSpec("on-button", value: "action", help: "When the button is pressed: exit (code 10), hide (animated, then exit 0) or none (default: exit when --button is given)."),
                OptionSpec("on-tap-outside", value: "action", help: "On a tap outside the bezel: exit (code 11) or none (default: exit if the board profile's [touch] tap_outside is on, else none)."),
                OptionSpec("card", help: "DRM card (default: the first /dev/dri/card* with dumb buffers)."),
                OptionSpec("connector", .repeated, help: "Only this connector (e.g. HDMI-A-1); repeatable."),
                OptionSpec("video-mode", help: "Display mode WIDTHxHEIGHT[@HZ] (default: preferred, else active, else first)."),
                OptionSpec("rotate", help: "Rotation of the picture on the panel, clockwise: 0, 90, 180 or 270 (overrides the board profile and the panel orientation)."),
                .flag("fractional-scale", help: "Automatic scale in quarter steps (1…2) instead of 1 or 2."),
                .flag("retain", help: "On quit, leave the last frame on screen (for the next program) instead of restoring the console."),
                OptionSpec("duration", help: "Quit after this many seconds (default: run until Ctrl+C or SIGTERM)."),
                OptionSpec("fbdev", help: "Use this fbdev device (e.g. /dev/fb0) instead of DRM."),
                OptionSpec("offscreen", value: "DIR", help: "No display: write the first and last frames as PNGs into DIR (first.png, last.png; '-': none)."),
                .flag("animate", help: "Fade the HUD in (the board profile's animation) instead of showing it at once."),
                OptionSpec("glyph-cache", value: "DIR", help: "Keep rendered glyphs and the first frame here between runs, so a start whose text was shown before does not load FreeType, and a start with the same options shows its first frame before start-up finishes; 'none' to turn both off (default: /var/cache/kiosk-hud when writable, else $XDG_CACHE_HOME/kiosk-hud or ~/.cache/kiosk-hud)."),
                .flag("no-frame-cache", help: "Do not show a cached first frame at start, and do not keep one."),
                .flag("no-hotplug", help: "Do not follow connector hotplug."),
                .flag("no-vt", help: "Do not take part in VT switching."),
                .flag("check-scanout", help: "Check with GETCRTC before each copy that the buffer is not on screen (testing)."),
                .flag("bench-copy", help: "Time the copy to a scanout-like buffer for each rotation.", hidden: true),
            ]),
            OptionGroup("Input", TouchOptions.options),
            OptionGroup("Tilt", MotionOptions.options),
        ])

    var hud: HUDOptions
    var input: TouchOptions
    var motion: MotionOptions
    var onButton: String?
    var onTapOutside: String?
    var card: String?
    var connectors: [String] = []
    var videoMode: String?
    var rotate: Int?
    var fractionalScale = false
    var retain = false
    var duration: Double?
    var fbdev: String?
    var offscreen: String?
    var animate = false
    var glyphCache: String?
    var noFrameCache = false
    var noHotplug = false
    var noVt = false
    var checkScanout = false
    var benchCopy = false

    init(_ a: ParsedArguments) throws(UsageError) {
        hud = try HUDOptions(a)
        input = TouchOptions(a)
        motion = try MotionOptions(a)
        onButton = a.string("on-button")
        onTapOutside = a.string("on-tap-outside")
        card = a.string("card")
        connectors = a.strings("connector")
        videoMode = a.string("video-mode")
        rotate = try a.int("rotate")
        fractionalScale = a.flag("fractional-scale")
        retain = a.flag("retain")
        duration = try a.double("duration")
        fbdev = a.string("fbdev")
        offscreen = a.string("offscreen")
        animate = a.flag("animate")
        glyphCache = a.string("glyph-cache")
        noFrameCache = a.flag("no-frame-cache")
        noHotplug = a.flag("no-hotplug")
        noVt = a.flag("no-vt")
        checkScanout = a.flag("check-scanout")
        benchCopy = a.flag("bench-copy")
    }

    func run() throws {
        StartMarks.mark(.cli)
        if benchCopy { try runCopyBench(); return }
        guard duration.map({ $0.isFinite && $0 >= 0 }) ?? true else { throw UsageError("--duration: expected seconds ≥ 0") }
        let (profile, content, underlay) = try hud.resolve()
        StartMarks.mark(.profile)
        let buttonAction = try onButton.map { a -> String in
            guard ["exit", "hide", "none"].contains(a) else { throw UsageError("--on-button \(a): expected exit, hide or none") }
            return a
        } ?? (content.showsButton ? "exit" : "none")
        let outsideAction = try onTapOutside.map { a -> String in
            guard ["exit", "none"].contains(a) else { throw UsageError("--on-tap-outside \(a): expected exit or none") }
            return a
        } ?? (profile.touch.tapOutside ? "exit" : "none")
        // The input options checked now (cheap); libinput starts after the first frame.
        _ = try input.libinputOptions(transform: DisplayTransform(rotation: .none, width: 1, height: 1), output: nil, log: { _ in })
        // Command-line options override the board profile's [display].
        let rotation = try rotate.map { d -> Rotation in
            guard let r = Rotation(rawValue: d) else { throw UsageError("--rotate \(d): expected 0, 90, 180 or 270") }
            return r
        } ?? profile.display.rotation
        let request = try (videoMode ?? profile.display.mode).map { s -> ModeRequest in
            guard let m = ModeRequest(parsing: s) else { throw UsageError("--video-mode \(s): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ") }
            return m
        }
        let fonts: FontLibrary
        do { fonts = try FontLibrary(glyphCache: glyphCacheDirectory()) } catch { throw UsageError("\(error)") }
        StartMarks.mark(.fonts)
        let scaleOverride: Double? = hud.scale ?? (hud.board != nil ? profile.scale : nil)

        let screen: Screen
        do {
            screen = try openScreen(profile: profile, rotation: rotation, request: request, scale: scaleOverride)
        } catch let e as UsageError { throw e } catch {
            throw ShowError("cannot open the display: \(error)")
        }
        StartMarks.mark(.display)
        let clock = SystemClock()
        let displayRotation = rotation ?? screen.outputs.first?.transform.rotation ?? .none
        let motionSetup: MotionSetup
        do { motionSetup = try motion.resolve(profile: profile, rotation: displayRotation) } catch {
            screen.close(retain: false); throw error
        }
        /// Why show ends early: 10 button, 11 tap outside, 0 hidden after --on-button hide.
        var exitCode: Int32?
        var hiding = false
        var huds: [ObjectIdentifier: HUD] = [:]
        func sync() throws {
            var live = Set<ObjectIdentifier>()
            for o in screen.outputs {
                let id = ObjectIdentifier(o)
                live.insert(id)
                guard huds[id] == nil else { continue }
                var style = profile.style
                style.scale = scaleOverride ?? o.scale
                style.motionDepth = motionSetup.depth
                let h: HUD
                do {
                    h = try HUD(display: o, clock: clock, fonts: fonts, style: style, content: content, config: profile.timing)
                } catch { throw ShowError("\(o.name): cannot lay out the HUD at \(o.width)x\(o.height): \(error)") }
                h.renderer.setUnderlay(color: profile.underlayColor, image: underlay)
                var bc = h.buttonConfig
                bc.activationKeys = Set(profile.touch.keys)
                bc.tapOutside = profile.touch.tapOutside || outsideAction == "exit"
                h.buttonConfig = bc
                h.onButton = {
                    switch buttonAction {
                    case "exit": if exitCode == nil { exitCode = 10 }
                    case "hide":
                        guard !hiding else { return }
                        hiding = true
                        showLog("button: hiding")
                        for x in huds.values { x.hide(animated: true) }
                    default: break
                    }
                }
                h.onTapOutside = { if outsideAction == "exit", exitCode == nil { exitCode = 11 } }
                h.show(animated: animate)
                if hiding { h.hide(animated: false) }
                huds[id] = h
            }
            for id in huds.keys where !live.contains(id) { huds[id] = nil }
        }

        /// The HUD the input goes to: the first output's.
        func primary() -> HUD? { screen.outputs.first.flatMap { huds[ObjectIdentifier($0)] } }
        var source: LibinputSource?
        var tilt: (tracker: TiltTracker, source: IIOMotionSource, setup: MotionSetup)?
        defer {
            source?.close()
            tilt?.source.stop()
        }

        var failure: Error?
        do {
            try sync()
            StartMarks.mark(.layout)
            let end = duration.map { monotonicSeconds() + $0 }
            var firstLogged = false
            loop: while true {
                var next: Seconds?
                if let src = source {
                    do { try src.dispatch() } catch {
                        showLog("input: \(error); going on without input")
                        src.close(); source = nil; screen.watchedDescriptors = []
                    }
                    // Drained even while another program has the display; the HUD takes them only when on screen.
                    let events = src.events(until: clock.now)
                    if !events.isEmpty, screen.isActive, let h = primary() { h.handle(events) }
                }
                if let tilt {
                    let now = clock.now
                    let t = tilt.tracker.update(at: now)
                    for h in huds.values { h.setMotion(x: t.x, y: t.y) }
                    next = now + (tilt.tracker.isMoving(at: now) ? 1.0 / 60 : tilt.setup.sampler.period)
                }
                if screen.isActive {
                    for o in screen.outputs {
                        guard let h = huds[ObjectIdentifier(o)] else { continue }
                        if let n = try h.tick().next { next = min(next ?? n, n) }
                    }
                }
                if !firstLogged, let t = screen.outputs.compactMap(\.firstFrameTime).min() {
                    firstLogged = true
                    logFirstFrame(at: t, fonts: fonts, early: (screen as? DRMScreen)?.earlyFrameUse == .takenOver)
                    for problem in fonts.saveGlyphCache() { showLog(problem) }
                    if let drm = screen as? DRMScreen { saveFrameCache(drm, fonts: fonts) }
                    if let dir = offscreen, dir != "-", let o = screen.outputs.first as? OffscreenOutput { try o.write(to: dir + "/first.png") }
                    // Off the path to the first frame: input and the tilt.
                    source = startInput()
                    do { tilt = try motion.start(profile: profile, rotation: displayRotation, clock: clock, log: { showLog($0) }) } catch {
                        showLog("tilt: \(error); going on without it")
                    }
                    if tilt != nil { next = clock.now }
                }
                if exitCode != nil { break loop }
                if hiding, !huds.values.contains(where: \.isVisible) { exitCode = 0; break loop }
                let now = monotonicSeconds()
                if let end, now >= end { break }
                var timeout = next.map { max(0, $0 - clock.now) }
                if let end { timeout = min(timeout ?? (end - now), end - now) }
                let events = try screen.wait(timeout: timeout)
                if events.contains(.quit) { break loop }
                if events.contains(.outputsChanged) {
                    try sync()
                    showLog("outputs: " + screen.outputs.map { "\($0.name) \($0.width)x\($0.height)" }.joined(separator: ", "))
                    if let src = source, let o = screen.outputs.first { src.transform = o.transform }
                }
            }
        } catch {
            failure = error
        }
        if let dir = offscreen, dir != "-", let o = screen.outputs.first as? OffscreenOutput { try? o.write(to: dir + "/last.png") }
        source?.close(); source = nil
        tilt?.source.stop(); tilt = nil
        screen.close(retain: retain)
        for problem in fonts.saveGlyphCache() { showLog(problem) }
        showLog("done " + screen.summary + (exitCode.map { " exit=\($0)" } ?? ""))
        if let failure { throw ShowError("\(failure)") }
        if let exitCode, exitCode != 0 { throw ExitCode(exitCode) }

        /// libinput on the first output's picture, its descriptor in the screen's poll; nil (one
        /// log line) when it cannot start or --no-input.
        func startInput() -> LibinputSource? {
            guard !input.noInput, let o = screen.outputs.first else { return nil }
            do {
                var opts = try input.libinputOptions(transform: o.transform, output: o.name, profile: profile.touch, log: { showLog($0) })
                opts.clock = clock
                let s = try LibinputSource(options: opts)
                s.align(to: clock)
                screen.watchedDescriptors = [s.fileDescriptor]
                showLog("input: listening on \(input.inputs.isEmpty ? input.seat : input.inputs.joined(separator: " ")) " +
                        "(\(s.devices.count) device(s)); picture \(o.transform.width)x\(o.transform.height) rotation=\(o.transform.rotation.rawValue)")
                return s
            } catch {
                showLog("input: cannot start (\(error)); going on without input")
                return nil
            }
        }
    }

    func openScreen(profile: BoardProfile, rotation: Rotation?, request: ModeRequest?, scale: Double?) throws -> Screen {
        if let dir = offscreen {
            let s = try OffscreenScreen(width: profile.width, height: profile.height, format: profile.format,
                                        rotation: rotation ?? .none, scale: scale ?? profile.scale)
            showLog("output offscreen \(profile.width)x\(profile.height) format=\(profile.format) dir=\(dir)")
            return s
        }
        if let path = fbdev { return try openFBDev(path, rotation: rotation, scale: scale) }
        var o = DRMOptions()
        o.card = card ?? profile.display.card
        o.connectors = connectors.isEmpty ? profile.display.connectors : connectors
        o.mode = request
        o.rotation = rotation
        o.format = profile.format
        o.scale = scale
        o.fractionalScale = fractionalScale
        o.hotplug = !noHotplug
        o.vt = !noVt
        o.checkScanout = checkScanout
        o.log = showLog
        o.earlyFrame = takeEarlyFrame()
        do {
            let s = try DRMScreen(options: o)
            for out in s.drmOutputs { showLog("output " + s.describe(out)) }
            if let use = s.earlyFrameUse { showLog("frame cache: the early frame was \(use)") }
            return s
        } catch let e as DisplayError {
            guard case .noCard = e, o.card == nil, fileExists("/dev/fb0") else { throw e }
            showLog("\(e); falling back to fbdev /dev/fb0")
            return try openFBDev("/dev/fb0", rotation: rotation, scale: scale)
        }
    }

    func openFBDev(_ path: String, rotation: Rotation?, scale: Double?) throws -> Screen {
        var f = FBDevOptions()
        f.path = path
        f.rotation = rotation
        f.scale = scale
        f.fractionalScale = fractionalScale
        f.vt = !noVt
        f.log = showLog
        let s = try FBDevScreen(options: f)
        showLog("output fbdev=\(path) size=\(s.width)x\(s.height) rotation=\(s.transform.rotation.rawValue) format=\(s.preferredFormat) " +
            "scale=\(s.scale) double_buffered=\(s.doubleBuffered)")
        return s
    }

    /// `--glyph-cache`, else /var/cache/kiosk-hud where it can be written (root, the boot case),
    /// else the user's cache directory; nil for 'none' or when there is no place.
    func glyphCacheDirectory() -> String? {
        if let g = glyphCache { return g == "none" || g.isEmpty ? nil : g }
        return defaultCacheDirectory()
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
        showLog("first-frame \(exec) main_ms=\(fmt(mainMs))\(split) faults=\(faults.now) start_faults=\(faults.atStart) text=\(text)\(source)")
        showLog("first-frame phases " + StartMarks.describe(from: processStartNanoseconds(), to: drawnNs))
    }

    /// Times the copy of a full 800x480 frame into a scanout-like buffer for each rotation.
    func runCopyBench() throws {
        for (sf, df) in [(PixelFormat.xrgb8888, PixelFormat.xrgb8888), (.rgb565, .rgb565), (.xrgb8888, .rgb565)] {
            let src = try Bitmap(width: 800, height: 480, format: sf)
            for r in Rotation.allCases {
                let swapped = r == .quarter || r == .threeQuarters
                let dst = try Bitmap(width: swapped ? 480 : 800, height: swapped ? 800 : 480, format: df, stride: (swapped ? 480 : 800) * df.bytesPerPixel + 256)
                var times: [Double] = []
                for _ in 0..<60 {
                    let t0 = monotonicNanoseconds()
                    ScanoutCopy.copy(src.surface, rect: src.surface.bounds, to: dst.surface, rotation: r)
                    times.append(Double(monotonicNanoseconds() - t0) / 1e6)
                }
                times.sort()
                print("copy 800x480 \(sf)->\(df) rotate \(r.rawValue): median \(fmt(times[times.count / 2])) ms, min \(fmt(times[0])) ms")
            }
        }
    }
}

struct ShowError: Error, CustomStringConvertible {
    var description: String
    init(_ s: String) { description = s }
}

/// One log line on stderr (write(2): unbuffered, no stdio state).
func showLog(_ s: String) {
    var line = "kiosk-hud: \(s)\n"
    line.withUTF8 { b in _ = Glibc.write(2, b.baseAddress, b.count) }
}

func fmt(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return String(r)
}

/// `--offscreen DIR`: an `OffscreenDisplay` as a one-output screen (the host measurement of
/// exec → first frame, and a way to see what `show` would draw). Waits on a signalfd so Ctrl+C
/// and SIGTERM end it like the real screens.
final class OffscreenScreen: Screen {
    let output: OffscreenOutput
    let signalFD: FileDescriptor?
    var watchedDescriptors: [Int32] = []
    var outputs: [ScreenOutput] { [output] }
    var isActive: Bool { true }

    init(width: Int, height: Int, format: PixelFormat, rotation: Rotation, scale: Double) throws {
        output = try OffscreenOutput(width: width, height: height, format: format, rotation: rotation, scale: scale)
        signalFD = try? signalDescriptor([SIGINT, SIGTERM, SIGHUP])
    }

    func wait(timeout: Double?) throws -> ScreenEvents {
        var fds = watchedDescriptors.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let watched = fds.count
        if let s = signalFD { fds.append(pollfd(fd: s.rawValue, events: Int16(POLLIN), revents: 0)) }
        let ms: Int32 = timeout.map { Int32(min(3_600_000, ($0 * 1000).rounded(.up))) } ?? -1
        guard try poll(&fds, timeoutMs: ms) > 0 else { return [] }
        var events: ScreenEvents = fds[..<watched].contains { $0.revents != 0 } ? .input : []
        if fds[watched...].contains(where: { $0.revents != 0 }) { events.insert(.quit) }
        return events
    }

    func close(retain: Bool) { try? signalFD?.close() }
    var summary: String { "presents=\(output.display.presents.count)" }
}

/// The offscreen display with the `ScreenOutput` extras.
final class OffscreenOutput: ScreenOutput {
    let display: OffscreenDisplay
    let scale: Double
    var firstFrameTime: Double?
    var name: String { "offscreen" }
    var width: Int { display.width }
    var height: Int { display.height }
    var preferredFormat: PixelFormat { display.preferredFormat }
    var transform: DisplayTransform { display.transform }

    init(width: Int, height: Int, format: PixelFormat, rotation: Rotation, scale: Double) throws {
        display = try OffscreenDisplay(width: width, height: height, format: format, rotation: rotation)
        self.scale = scale
    }

    func present(_ frame: Surface, damage: DamageRegion) throws {
        try display.present(frame, damage: damage)
        if firstFrameTime == nil { firstFrameTime = monotonicSeconds() }
    }

    func write(to path: String) throws { try writePNG(display.screen, to: path) }
}
