import KioskBoards
import KioskCLI
import KioskHUD
import KioskPNG
import KioskRaster
import KioskSettings
import KioskSys
import KioskText

/// `kiosk-hud render`: draws one frame of the HUD offscreen and writes it as a PNG.
public struct RenderCommand {
    /// `kiosk-hud render`'s options, help and manual page.
    public static let spec = CommandSpec(
        "render", abstract: "Draw the HUD offscreen and write a PNG.",
        discussion: "With --scene bench, draws the canonical benchmark scene (shared/bench/scene.md) instead.",
        groups: [
            OptionGroup([SettingOptions.board] + SettingOptions.options(group: SettingGroup.hud) + SettingOptions.options(SettingOptions.canvas) + [
                OptionSpec(.scene, rule: .choice(["bench"]), help: "bench: the canonical benchmark scene instead of a HUD."),
                OptionSpec(.phase, rule: .integer(0, 11, "a spinner phase"), help: "Spinner phase for --mode indeterminate."),
                OptionSpec(.out, short: "o", rule: .path, help: "Output PNG (required)."),
                .flag(.pressed, help: "Draw the button pressed (tests: what show draws while a finger is on it)."),
                OptionSpec(.motionOffset, value: "DX,DY", rule: .point(1_000_000, "pixels"), help: "Bezel moved by the tilt effect, in pixels (tests)."),
                .flag(.overlay, help: "Draw the HUD as it goes over another program's picture (what `show --wayland` puts on the compositor's overlay layer): nothing under it, a PNG with alpha."),
                .flag(.printLayout, help: "Print the bezel's and the button's rectangles in pixels on stdout: \"bezel X Y W H\", \"button X Y W H\"."),
            ]),
        ])

    let arguments: ParsedArguments
    let out: String

    /// The command with its parsed options (--out is required).
    public init(_ a: ParsedArguments) throws(UsageError) {
        guard let o = try a.value(.out)?.string else { throw a.error("missing --out FILE.png") }
        arguments = a
        out = o
    }

    /// Draws the frame and writes the PNG.
    public func run() throws {
        let a = arguments
        try checkOutputPath(out, what: "--out")
        let fonts: FontLibrary
        do { fonts = try FontLibrary() } catch { throw UsageError("\(error)") }
        if a.given(.scene) { return try renderBench(fonts) }
        let settings = try SettingOptions.resolve(a)
        let (content, underlay) = try loadPictures(settings, underlayOption: a.written(.underlayImage))
        let p = settings.profile
        let overlay = a.flag(.overlay)
        if overlay, let o = ["underlay-image", "underlay-color", "underlay-fit", "format"].first(where: a.given) {
            throw UsageError("--\(o) does not go with --overlay (nothing is under an overlay's HUD; its format is ARGB8888)")
        }
        let r: HUDRenderer
        do {
            // One frame: no backdrop bitmap beside the frame (an 8192x8192 frame is 256 MB).
            r = try HUDRenderer(width: p.width, height: p.height, format: overlay ? .argb8888 : p.format, fonts: fonts, style: p.style,
                                content: content, keepsBackdrop: false)
        } catch { throw UsageError("\(error)") }
        r.transparentUnderlay = overlay
        r.setUnderlay(color: p.underlayColor, image: underlay, fit: p.underlayFit)
        r.setLogo(try loadLogo(settings))
        var motion = (0.0, 0.0)
        if case let .point(x, y) = try a.value(.motionOffset) { motion = (x, y) }
        if a.flag(.printLayout) {
            func line(_ name: String, _ r: Rect) { writeLine("\(name) \(r.x) \(r.y) \(r.width) \(r.height)", to: 1) }
            line("bezel", r.layout.bezel)
            if let b = r.layout.button { line("button", b) }
        }
        r.render(HUDFrameState(progress: content.progress, spinnerPhase: try a.int(.phase) ?? 0,
                               motionX: motion.0, motionY: motion.1, buttonPressed: a.flag(.pressed)))
        try writePNG(r.shadow, to: out, what: "--out")
        // Render says nothing on stderr but its errors: an earlier option name is said once the
        // picture is written, so that an error stays the first line.
        noteFormerOptions(a)
    }

    /// The canonical benchmark scene (shared/bench/scene.md) at --size (800x480 by default).
    func renderBench(_ fonts: FontLibrary) throws {
        var w = 800, h = 480
        if case let .size(sw, sh) = try arguments.value(.size) {
            guard sw >= 200, sh >= 160 else { throw UsageError("--size \(sw)x\(sh): the bench scene needs at least 200x160") }
            (w, h) = (sw, sh)
        }
        let unused = ["mode", "progress", "label", "details", "button", "image", "underlay-image", "logo", "pressed", "motion-offset", "phase"]
        if let u = unused.first(where: arguments.given) { throw UsageError("--\(u) does not go with --scene bench") }
        let bm = try Bitmap(width: w, height: h, format: .xrgb8888)
        let s: BenchScene
        do { s = try BenchScene(width: w, height: h, fonts: fonts) } catch { throw UsageError("\(error)") }
        s.drawFull(Canvas(bm.surface))
        try writePNG(bm, to: out, what: "--out")
    }
}

/// The options declared here, by name (see KioskCLI's OptionKey).
extension OptionKey {
    public static let motionOffset = OptionKey("motion-offset")
    public static let out = OptionKey("out")
    public static let overlay = OptionKey("overlay")
    public static let phase = OptionKey("phase")
    public static let pressed = OptionKey("pressed")
    public static let printLayout = OptionKey("print-layout")
    public static let scene = OptionKey("scene")
}
