import KioskBoards
import KioskCLI
import KioskHUD
import KioskPNG
import KioskRaster
import KioskSys
import KioskText

/// Options that describe a HUD, shared by the commands that show one.
struct HUDOptions {
    static let options: [OptionSpec] = [
        OptionSpec("board", help: "Board profile (TOML); default: the built-in generic profile."),
        OptionSpec("mode", help: "indeterminate, determinate, annular, bar, text, custom, success or error (default: indeterminate)."),
        OptionSpec("progress", help: "Progress 0…1 (determinate, annular, bar)."),
        OptionSpec("label", help: "The label (one line)."),
        OptionSpec("details", help: "The details label (wraps)."),
        OptionSpec("button", help: "The button's title (e.g. Cancel)."),
        OptionSpec("image", help: "Picture for --mode custom (PNG)."),
        OptionSpec("size", value: "WxH", help: "Canvas size WIDTHxHEIGHT."),
        OptionSpec("scale", help: "Pixels per point (e.g. 2)."),
        OptionSpec("background", help: "none, dim or gradient."),
        OptionSpec("bezel", help: "solid or blur."),
        OptionSpec("theme", help: "light or dark."),
        OptionSpec("offset", value: "X,Y", help: "Bezel offset from the centre in points, X,Y (1000000 pins to an edge)."),
        OptionSpec("min-size", value: "WxH", help: "Smallest bezel WIDTHxHEIGHT in points."),
        .flag("square", help: "Square bezel."),
        OptionSpec("underlay", help: "Picture under the HUD (PNG), scaled to the canvas."),
        OptionSpec("format", help: "Pixel format of the frame: xrgb8888, argb8888 or rgb565."),
    ]

    var board: String?
    var mode = "indeterminate"
    var progress = 0.0
    var label = ""
    var details = ""
    var button = ""
    var image: String?
    var size: String?
    var scale: Double?
    var background: String?
    var bezel: String?
    var theme: String?
    var offset: String?
    var minSize: String?
    var square = false
    var underlay: String?
    var format: String?

    init(_ a: ParsedArguments) throws(UsageError) {
        board = a.string("board")
        mode = a.string("mode") ?? mode
        if let p = a.string("progress") {
            guard let v = Double(p), !v.isNaN else { throw a.error("--progress \(p): expected a number from 0 to 1") }
            progress = v
        }
        label = a.string("label") ?? ""
        details = a.string("details") ?? ""
        button = a.string("button") ?? ""
        image = a.string("image")
        size = a.string("size")
        if let s = a.string("scale") {
            guard let v = Double(s) else { throw a.error("--scale \(s): expected a number in (0, 8]") }
            scale = v
        }
        background = a.string("background")
        bezel = a.string("bezel")
        theme = a.string("theme")
        offset = a.string("offset")
        minSize = a.string("min-size")
        square = a.flag("square")
        underlay = a.string("underlay")
        format = a.string("format")
    }

    /// The profile with these options applied.
    func resolve() throws -> (BoardProfile, HUDContent, underlay: Bitmap?) {
        var p = try loadProfile(board)
        if let size {
            guard let (w, h) = parseSize(size) else { throw UsageError("--size \(size): expected WIDTHxHEIGHT, each 1…\(Bitmap.maxDimension)") }
            p.width = w; p.height = h
        }
        if let scale {
            guard scale.isFinite, scale > 0, scale <= 8 else { throw UsageError("--scale \(scale): expected a number in (0, 8]") }
            p.scale = scale; p.style.scale = scale
        }
        if let format {
            guard let f = parseFormat(format) else { throw UsageError("--format \(format): expected xrgb8888, argb8888 or rgb565") }
            p.format = f
        }
        if let background {
            let dim: Color = { if case let .dim(c) = p.style.background { return c }; return Color(white: 0, a: 0.5) }()
            guard let b = parseBackground(background, dim: dim) else { throw UsageError("--background \(background): expected none, dim or gradient") }
            p.style.background = b
        }
        if let bezel {
            switch bezel {
            case "solid": p.style.bezelStyle = .solid
            case "blur": p.style.bezelStyle = .blur(radius: 10)
            default: throw UsageError("--bezel \(bezel): expected solid or blur")
            }
        }
        if let theme {
            switch theme {
            case "light": p.style.bezelColor = HUDStyle.light.bezelColor; p.style.contentColor = HUDStyle.light.contentColor
            case "dark": p.style.bezelColor = HUDStyle.dark.bezelColor; p.style.contentColor = HUDStyle.dark.contentColor
            default: throw UsageError("--theme \(theme): expected light or dark")
            }
        }
        if let offset {
            let parts = offset.split(separator: ",").map { Double($0.trimmingSpaces()) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                throw UsageError("--offset \(offset): expected X,Y in points")
            }
            p.style.offsetX = x; p.style.offsetY = y
        }
        if let minSize {
            let parts = minSize.lowercased().split(separator: "x").map { Double($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], w >= 0, h >= 0, w.isFinite, h.isFinite else {
                throw UsageError("--min-size \(minSize): expected WIDTHxHEIGHT in points")
            }
            p.style.minWidth = w; p.style.minHeight = h
        }
        if square { p.style.square = true }
        guard let m = HUDMode(rawValue: mode) else {
            throw UsageError("--mode \(mode): expected one of \(HUDMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard !progress.isNaN else { throw UsageError("--progress nan: expected a number from 0 to 1") }
        var content = HUDContent(mode: m, progress: min(max(progress, 0), 1), label: label, details: details,
                                 buttonTitle: button, buttonHasAction: !button.isEmpty)
        if m == .custom {
            guard let image else { throw UsageError("--mode custom needs --image FILE.png") }
            content.image = HUDImage(bitmap: try loadPNG(image, what: "--image"))
        } else if image != nil {
            throw UsageError("--image goes with --mode custom")
        }
        let under = try underlay.map { try loadPNG($0, what: "--underlay") }
        return (p, content, under)
    }
}

func loadPNG(_ path: String, what: String) throws -> Bitmap {
    do {
        let img = try PNG.read(path: path)
        return try Bitmap(width: img.width, height: img.height, rgba: img.rgba)
    } catch {
        throw UsageError("\(what) \(path): \(error)")
    }
}

func writePNG(_ bitmap: Bitmap, to path: String) throws {
    do {
        try PNG.write(PNGImage(width: bitmap.width, height: bitmap.height, rgba: bitmap.rgbaBytes()), path: path)
    } catch {
        throw UsageError("cannot write \(path): \(error)")
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(String(drop { $0 == " " }.reversed()).drop { $0 == " " }.reversed()) }
}

/// `kiosk-hud render`: draws one frame of the HUD offscreen and writes it as a PNG.
struct RenderCommand {
    static let spec = CommandSpec(
        "render", abstract: "Draw the HUD offscreen and write a PNG.",
        discussion: "With --scene bench, draws the canonical benchmark scene (shared/bench/scene.md) instead.",
        groups: [OptionGroup(HUDOptions.options + [
            OptionSpec("scene", help: "bench: the canonical benchmark scene instead of a HUD."),
            OptionSpec("phase", help: "Spinner phase 0…11 for --mode indeterminate."),
            OptionSpec("out", short: "o", help: "Output PNG (required)."),
            .flag("pressed", help: "Draw the button pressed (tests: what show draws while a finger is on it)."),
            OptionSpec("motion-offset", value: "DX,DY", help: "Bezel moved by the tilt effect, in pixels (tests)."),
            .flag("print-layout", help: "Print the bezel's and the button's rectangles in pixels on stdout: \"bezel X Y W H\", \"button X Y W H\"."),
        ])])

    var hud: HUDOptions
    var scene: String?
    var phase = 0
    var out: String
    var pressed = false
    var motionOffset: String?
    var printLayout = false

    init(_ a: ParsedArguments) throws(UsageError) {
        hud = try HUDOptions(a)
        scene = a.string("scene")
        phase = try a.int("phase") ?? 0
        guard let o = a.string("out") else { throw a.error("missing --out FILE.png") }
        out = o
        pressed = a.flag("pressed")
        motionOffset = a.string("motion-offset")
        printLayout = a.flag("print-layout")
    }

    func run() throws {
        let fonts: FontLibrary
        do { fonts = try FontLibrary() } catch { throw UsageError("\(error)") }
        if let scene {
            guard scene == "bench" else { throw UsageError("--scene \(scene): the only scene is bench") }
            let (w, h) = try hud.size.map { s -> (Int, Int) in
                guard let v = parseSize(s), v.0 >= 200, v.1 >= 160 else { throw UsageError("--size \(s): the bench scene needs at least 200x160") }
                return v
            } ?? (800, 480)
            let bm = try Bitmap(width: w, height: h, format: .xrgb8888)
            let s: BenchScene
            do { s = try BenchScene(width: w, height: h, fonts: fonts) } catch { throw UsageError("\(error)") }
            s.drawFull(Canvas(bm.surface))
            try writePNG(bm, to: out)
            return
        }
        let (profile, content, underlay) = try hud.resolve()
        let r: HUDRenderer
        do {
            r = try HUDRenderer(width: profile.width, height: profile.height, format: profile.format, fonts: fonts,
                                style: profile.style, content: content)
        } catch { throw UsageError("\(error)") }
        r.setUnderlay(color: profile.underlayColor, image: underlay)
        var motion = (0.0, 0.0)
        if let motionOffset {
            let parts = motionOffset.split(separator: ",").map { Double($0.trimmingSpaces()) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                throw UsageError("--motion-offset \(motionOffset): expected DX,DY in pixels")
            }
            motion = (x, y)
        }
        if printLayout {
            func line(_ name: String, _ r: Rect) { print("\(name) \(r.x) \(r.y) \(r.width) \(r.height)") }
            line("bezel", r.layout.bezel)
            if let b = r.layout.button { line("button", b) }
        }
        r.render(HUDFrameState(progress: content.progress, spinnerPhase: ((phase % 12) + 12) % 12,
                               motionX: motion.0, motionY: motion.1, buttonPressed: pressed))
        try writePNG(r.shadow, to: out)
    }
}
