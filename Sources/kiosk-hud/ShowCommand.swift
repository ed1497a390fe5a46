import ArgumentParser
import Glibc
import KioskBoards
import KioskDevices
import KioskDRM
import KioskEmbedded
import KioskHUD
import KioskPNG
import KioskRaster
import KioskSys
import KioskText

/// `kiosk-hud show`: the HUD on the real display (DRM/KMS, fbdev fallback, or PNGs offscreen),
/// until Ctrl+C/SIGTERM or for `--duration` seconds. Logs (stderr) the card, connector, mode,
/// rotation and the time from exec to the first frame on screen. No Foundation on the way to
/// the first frame.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the HUD on the display (DRM/KMS; fbdev fallback).",
        discussion: """
        The HUD options are render's; --card, --connector, --video-mode and --rotate override the board \
        profile's [display]. Picture size = the display mode (rotated); --size applies to --offscreen only. Scale: --scale, else the board profile's if --board is given, else chosen \
        from the panel's physical size (~135 DPI target, like Plymouth). Log lines go to stderr; \
        "first-frame exec_ms=" is exec -> first frame on screen (KIOSK_EXEC_T0_NS=<CLOCK_MONOTONIC \
        ns at spawn> makes it exact; else /proc/self/stat, 10 ms resolution).
        """)

    @OptionGroup var hud: HUDOptions
    @Option(help: "DRM card (default: the first /dev/dri/card* with dumb buffers).")
    var card: String?
    @Option(name: .customLong("connector"), help: "Only this connector (e.g. HDMI-A-1); repeatable.")
    var connectors: [String] = []
    @Option(help: "Display mode WIDTHxHEIGHT[@HZ] (default: preferred, else active, else first).")
    var videoMode: String?
    @Option(help: "Rotation of the picture on the panel, clockwise: 0, 90, 180 or 270 (overrides the board profile and the panel orientation).")
    var rotate: Int?
    @Flag(help: "Automatic scale in quarter steps (1…2) instead of 1 or 2.")
    var fractionalScale = false
    @Flag(help: "On quit, leave the last frame on screen (for the next program) instead of restoring the console.")
    var retain = false
    @Option(help: "Quit after this many seconds (default: run until Ctrl+C or SIGTERM).")
    var duration: Double?
    @Option(help: "Use this fbdev device (e.g. /dev/fb0) instead of DRM.")
    var fbdev: String?
    @Option(help: "No display: write the first and last frames as PNGs into DIR (first.png, last.png; '-': none).")
    var offscreen: String?
    @Flag(help: "Fade the HUD in (the board profile's animation) instead of showing it at once.")
    var animate = false
    @Flag(help: "Do not follow connector hotplug.")
    var noHotplug = false
    @Flag(help: "Do not take part in VT switching.")
    var noVt = false
    @Flag(help: "Check with GETCRTC before each copy that the buffer is not on screen (testing).")
    var checkScanout = false
    @Flag(help: .hidden)
    var benchCopy = false

    func run() throws {
        let mainStart = monotonicNanoseconds()
        if benchCopy { try runCopyBench(); return }
        guard duration.map({ $0.isFinite && $0 >= 0 }) ?? true else { throw ValidationError("--duration: expected seconds ≥ 0") }
        let (profile, content, underlay) = try hud.resolve()
        // Command-line options override the board profile's [display].
        let rotation = try rotate.map { d -> Rotation in
            guard let r = Rotation(rawValue: d) else { throw ValidationError("--rotate \(d): expected 0, 90, 180 or 270") }
            return r
        } ?? profile.display.rotation
        let request = try (videoMode ?? profile.display.mode).map { s -> ModeRequest in
            guard let m = ModeRequest(parsing: s) else { throw ValidationError("--video-mode \(s): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ") }
            return m
        }
        let fonts: FontLibrary
        do { fonts = try FontLibrary() } catch { throw ValidationError("\(error)") }
        let scaleOverride: Double? = hud.scale ?? (hud.board != nil ? profile.scale : nil)

        let screen: Screen
        do {
            screen = try openScreen(profile: profile, rotation: rotation, request: request, scale: scaleOverride)
        } catch let e as ValidationError { throw e } catch {
            throw ShowError("cannot open the display: \(error)")
        }
        let clock = SystemClock()
        var huds: [ObjectIdentifier: HUD] = [:]
        func sync() throws {
            var live = Set<ObjectIdentifier>()
            for o in screen.outputs {
                let id = ObjectIdentifier(o)
                live.insert(id)
                guard huds[id] == nil else { continue }
                var style = profile.style
                style.scale = scaleOverride ?? o.scale
                let h: HUD
                do {
                    h = try HUD(display: o, clock: clock, fonts: fonts, style: style, content: content, config: profile.timing)
                } catch { throw ShowError("\(o.name): cannot lay out the HUD at \(o.width)x\(o.height): \(error)") }
                h.renderer.setUnderlay(color: profile.underlayColor, image: underlay)
                h.show(animated: animate)
                huds[id] = h
            }
            for id in huds.keys where !live.contains(id) { huds[id] = nil }
        }

        var failure: Error?
        do {
            try sync()
            let end = duration.map { monotonicSeconds() + $0 }
            var firstLogged = false
            loop: while true {
                var next: Seconds?
                if screen.isActive {
                    for o in screen.outputs {
                        guard let h = huds[ObjectIdentifier(o)] else { continue }
                        if let n = try h.tick().next { next = min(next ?? n, n) }
                    }
                }
                if !firstLogged, let t = screen.outputs.compactMap(\.firstFrameTime).min() {
                    firstLogged = true
                    logFirstFrame(at: t, mainStart: mainStart)
                    if let dir = offscreen, dir != "-", let o = screen.outputs.first as? OffscreenOutput { try o.write(to: dir + "/first.png") }
                }
                let now = monotonicSeconds()
                if let end, now >= end { break }
                var timeout = next.map { max(0, $0 - clock.now) }
                if let end { timeout = min(timeout ?? (end - now), end - now) }
                let events = try screen.wait(timeout: timeout)
                if events.contains(.quit) { break loop }
                if events.contains(.outputsChanged) {
                    try sync()
                    showLog("outputs: " + screen.outputs.map { "\($0.name) \($0.width)x\($0.height)" }.joined(separator: ", "))
                }
            }
        } catch {
            failure = error
        }
        if let dir = offscreen, dir != "-", let o = screen.outputs.first as? OffscreenOutput { try? o.write(to: dir + "/last.png") }
        screen.close(retain: retain)
        showLog("done " + screen.summary)
        if let failure { throw ShowError("\(failure)") }
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
        do {
            let s = try DRMScreen(options: o)
            for out in s.drmOutputs { showLog("output " + s.describe(out)) }
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

    func logFirstFrame(at t: Double, mainStart: UInt64) {
        let frameNs = UInt64(t * 1e9)
        let mainMs = Double(frameNs &- mainStart) / 1e6
        var exec = "exec_ms=?"
        if let env = getenv("KIOSK_EXEC_T0_NS"), let t0 = UInt64(String(cString: env)) {
            exec = "exec_ms=\(fmt(Double(frameNs &- t0) / 1e6))"
        } else if let ms = millisecondsSinceExec() {
            exec = "exec_ms=\(fmt(ms - (monotonicSeconds() - t) * 1e3)) (10 ms resolution)"
        }
        showLog("first-frame \(exec) main_ms=\(fmt(mainMs))")
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
    var outputs: [ScreenOutput] { [output] }
    var isActive: Bool { true }

    init(width: Int, height: Int, format: PixelFormat, rotation: Rotation, scale: Double) throws {
        output = try OffscreenOutput(width: width, height: height, format: format, rotation: rotation, scale: scale)
        signalFD = try? signalDescriptor([SIGINT, SIGTERM, SIGHUP])
    }

    func wait(timeout: Double?) throws -> ScreenEvents {
        var fds = signalFD.map { [pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0)] } ?? []
        let ms: Int32 = timeout.map { Int32(min(3_600_000, ($0 * 1000).rounded(.up))) } ?? -1
        return try poll(&fds, timeoutMs: ms) > 0 ? .quit : []
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
