// KioskBoards — board profiles (Boards/*.toml): what a real board needs to start the HUD right
// (canvas, scale, fonts, colours, timings; later display, rotation, touch calibration and
// accelerometer mounting). Read with the small TOML reader in TOML.swift; strict: unknown keys
// and bad values are errors that name the file, section and key.
import KioskBehavior
import KioskDevices
import KioskHUD
import KioskRaster
import KioskText

/// The settings a board starts from (Boards/*.toml): canvas, fonts, colours, timings. Command-line
/// options override them. Unknown keys are errors, so a typo never passes silently.
public struct BoardProfile: Equatable, Sendable {
    public var name = "generic"
    public var width = 800, height = 480
    public var scale = 1.0
    public var format = PixelFormat.xrgb8888
    public var style = HUDStyle()
    public var underlayColor = Color.black
    public var timing = PresentationConfig()
    /// `[motion]`: the tilt effect's accelerometer and filter (its depth is `style.motionDepth`).
    public var motion = MotionProfile()
    /// `[display]` for a real screen: which card, connectors and mode, and the rotation.
    public var display = DisplayProfile()
    /// `[touch]`: calibration and what the button answers to.
    public var touch = TouchProfile()

    public init() {}

    /// The built-in generic profile: the same text as Boards/generic.toml (a test checks).
    public static let embeddedGeneric = """
    # KioskHUD board profile: generic (no real board; the offscreen default).
    # Sizes are in points; scale turns them into pixels. Colours are #RRGGBB or #RRGGBBAA.
    name = "generic"

    [display]
    size = "800x480"
    scale = 1.0
    format = "xrgb8888"
    underlay = "#000000"
    # card = "/dev/dri/card0"   # default: the first card with dumb buffers
    # connectors = ["HDMI-A-1"] # default: every connected one
    # mode = "800x480@60"       # default: preferred, else active, else first
    # rotation = 0              # 0, 90, 180, 270; default: the panel's orientation property

    [touch]
    # matrix = "1, 0, 0, 0, 1, 0"   # libinput calibration (a b c d e f); default: udev's
    # device = "ft5x06"             # only this touch device (name or sysname part)
    keys = [28, 57, 1, 96]          # Enter, Space, Escape, keypad Enter press the button
    tap_outside = false             # report taps outside the bezel instead of ignoring them

    [fonts]
    primary = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    fallbacks = [
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
      "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
      "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    ]

    [style]
    theme = "light"
    margin = 20.0
    padding = 4.0
    corner_radius = 5.0
    label_size = 16.0
    details_size = 12.0
    button_size = 12.0
    content_color = "#000000B3"
    bezel_color = "#CCCCCC99"
    bezel = "solid"
    blur_radius = 10.0
    background = "none"
    dim_color = "#00000080"

    [timing]
    grace_time = 0.0
    min_show_time = 0.0
    animation = "fade"
    animation_duration = 0.3

    [motion]
    # The bezel slides up to `depth` points as the board tilts (IIO accelerometer; 0 = off).
    # accel = "accel-display"   # iio:deviceN, label or name; default: label accel-display, else the first
    # mount_matrix = "1, 0, 0; 0, 1, 0; 0, 0, 1"   # rows; default: udev ACCEL_MOUNT_MATRIX, then sysfs
    depth = 10.0
    rate = 30.0
    time_constant = 0.15
    dead_zone = 1.5
    neutral = "resting"   # resting (however the board stands at start) or face-up
    reduce_motion = false

    """

    /// The built-in generic profile as a value: exactly what `parse(embeddedGeneric, …)` gives (a
    /// test checks), without reading TOML at every start (the parse was ~20 ms of exec → first
    /// frame under QEMU, and brings the TOML reader's code into memory).
    public static let generic: BoardProfile = {
        var p = BoardProfile()
        p.name = "generic"
        p.width = 800; p.height = 480
        p.scale = 1.0
        p.format = .xrgb8888
        p.underlayColor = Color(rgb: 0x000000)
        p.touch.keys = [28, 57, 1, 96]
        p.touch.tapOutside = false
        p.style.fontPaths = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
            "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        ]
        p.style.margin = 20; p.style.padding = 4; p.style.cornerRadius = 5
        p.style.labelFontSize = 16; p.style.detailsFontSize = 12; p.style.buttonFontSize = 12
        p.style.contentColor = Color(rgb: 0x000000, a: Double(0xB3) / 255)
        p.style.bezelColor = Color(rgb: 0xCCCCCC, a: Double(0x99) / 255)
        p.style.bezelStyle = .solid
        p.style.background = .none
        p.timing.graceTime = 0; p.timing.minShowTime = 0
        p.timing.animation = .fade; p.timing.animationDuration = 0.3
        p.style.motionDepth = 10
        p.motion.rate = 30; p.motion.timeConstant = 0.15; p.motion.deadZone = 1.5
        p.motion.neutral = .firstSample
        p.motion.reduceMotion = false
        p.style.scale = p.scale
        return p
    }()

    /// A profile that cannot be used, with the file, section and key at fault.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a profile from TOML text; `source` names it in errors.
    public static func parse(_ text: String, source: String) throws -> BoardProfile {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch {
            throw Error(description: "\(source):\(error.line):\(error.column): \(error.message)")
        }
        var p = BoardProfile()
        var styleHasDepth = false
        var r = Reader(table: root, path: source, section: nil)
        if let n = try r.string("name") { p.name = n }
        try r.finish(allowing: ["display", "fonts", "style", "timing", "touch", "motion"])

        if let t = try r.table("display") {
            var d = Reader(table: t, path: source, section: "display")
            if let s = try d.string("size") {
                guard let (w, h) = parseSize(s) else { throw d.bad("size", s, "WIDTHxHEIGHT, e.g. 800x480") }
                p.width = w; p.height = h
            }
            if let s = try d.double("scale") {
                guard s > 0 && s <= 8 else { throw d.bad("scale", "\(s)", "a number in (0, 8]") }
                p.scale = s
            }
            if let f = try d.string("format") {
                guard let pf = parseFormat(f) else { throw d.bad("format", f, "xrgb8888, argb8888 or rgb565") }
                p.format = pf
            }
            if let c = try d.color("underlay") { p.underlayColor = c }
            if let c = try d.string("card") {
                guard c.hasPrefix("/") else { throw d.bad("card", c, "a device path such as /dev/dri/card0") }
                p.display.card = c
            }
            if let cs = try d.strings("connectors") { p.display.connectors = cs }
            if let m = try d.string("mode") {
                guard DisplayProfile.isModeString(m) else { throw d.bad("mode", m, "WIDTHxHEIGHT or WIDTHxHEIGHT@HZ") }
                p.display.mode = m
            }
            if let v = try d.double("rotation") {
                guard v == v.rounded(), let r = Rotation(rawValue: Int(v)) else { throw d.bad("rotation", "\(v)", "0, 90, 180 or 270") }
                p.display.rotation = r
            }
            try d.finish()
        }
        if let t = try r.table("touch") {
            var tr = Reader(table: t, path: source, section: "touch")
            if let m = try tr.string("matrix") {
                guard let v = TouchProfile.parseMatrix(m) else { throw tr.bad("matrix", m, "six numbers a, b, c, d, e, f") }
                p.touch.matrix = v
            }
            if let dev = try tr.string("device") {
                guard !dev.isEmpty else { throw tr.bad("device", "\"\"", "part of a device name or sysname") }
                p.touch.device = dev
            }
            if let v = tr.value("keys") {
                guard let a = v.array else { throw tr.bad("keys", "\(v)", "an array of Linux key codes") }
                p.touch.keys = try a.map { e in
                    guard let k = e.int, (1...767).contains(k) else { throw tr.bad("keys", "\(e)", "Linux key codes from 1 to 767") }
                    return k
                }
            }
            if let b = try tr.bool("tap_outside") { p.touch.tapOutside = b }
            try tr.finish()
        }
        if let t = try r.table("fonts") {
            var f = Reader(table: t, path: source, section: "fonts")
            var paths = p.style.fontPaths
            if let primary = try f.string("primary") { paths[0] = primary }
            if let fb = try f.strings("fallbacks") { paths = [paths[0]] + fb }
            p.style.fontPaths = paths
            try f.finish()
        }
        if let t = try r.table("style") {
            var s = Reader(table: t, path: source, section: "style")
            if let theme = try s.string("theme") {
                switch theme {
                case "light": break
                case "dark":
                    let d = HUDStyle.dark
                    p.style.bezelColor = d.bezelColor; p.style.contentColor = d.contentColor
                default: throw s.bad("theme", theme, "light or dark")
                }
            }
            if let v = try s.double("margin") { p.style.margin = try s.nonNegative("margin", v) }
            if let v = try s.double("padding") { p.style.padding = try s.nonNegative("padding", v) }
            if let v = try s.double("corner_radius") { p.style.cornerRadius = try s.nonNegative("corner_radius", v) }
            if let v = try s.double("label_size") { p.style.labelFontSize = try s.fontSize("label_size", v) }
            if let v = try s.double("details_size") { p.style.detailsFontSize = try s.fontSize("details_size", v) }
            if let v = try s.double("button_size") { p.style.buttonFontSize = try s.fontSize("button_size", v) }
            if let c = try s.color("content_color") { p.style.contentColor = c }
            if let c = try s.color("bezel_color") { p.style.bezelColor = c }
            let blur = try s.nonNegative("blur_radius", try s.double("blur_radius") ?? 10)
            if let b = try s.string("bezel") {
                switch b {
                case "solid": p.style.bezelStyle = .solid
                case "blur": p.style.bezelStyle = .blur(radius: blur)
                default: throw s.bad("bezel", b, "solid or blur")
                }
            }
            let dim = try s.color("dim_color") ?? Color(white: 0, a: 0.5)
            if let b = try s.string("background") {
                guard let bg = parseBackground(b, dim: dim) else { throw s.bad("background", b, "none, dim or gradient") }
                p.style.background = bg
            }
            if let v = try s.double("motion_depth") { p.style.motionDepth = try s.nonNegative("motion_depth", v); styleHasDepth = true }
            try s.finish()
        }
        if let t = try r.table("timing") {
            var s = Reader(table: t, path: source, section: "timing")
            if let v = try s.double("grace_time") { p.timing.graceTime = try s.nonNegative("grace_time", v) }
            if let v = try s.double("min_show_time") { p.timing.minShowTime = try s.nonNegative("min_show_time", v) }
            if let a = try s.string("animation") {
                guard let k = parseAnimation(a) else { throw s.bad("animation", a, "fade, zoom, zoomIn or zoomOut") }
                p.timing.animation = k
            }
            if let v = try s.double("animation_duration") { p.timing.animationDuration = try s.nonNegative("animation_duration", v) }
            try s.finish()
        }
        if let t = try r.table("motion") {
            var m = Reader(table: t, path: source, section: "motion")
            if let a = try m.string("accel") {
                guard !a.isEmpty else { throw m.bad("accel", "\"\"", "iio:deviceN, a label or a name") }
                p.motion.accel = a
            }
            if let text = try m.string("mount_matrix") {
                do { p.motion.mountMatrix = try MountMatrix.parse(text) } catch {
                    throw m.bad("mount_matrix", "\"\(text)\"", "\"x1, y1, z1; x2, y2, z2; x3, y3, z3\" (\(error.reason))")
                }
            }
            if let v = try m.double("depth") {
                if styleHasDepth { throw Error(description: "\(m.where_("depth")): also given as [style] motion_depth; keep one") }
                p.style.motionDepth = try m.nonNegative("depth", v)
            }
            if let v = try m.double("rate") {
                guard v > 0 && v <= 1000 else { throw m.bad("rate", "\(v)", "samples per second in (0, 1000]") }
                p.motion.rate = v
            }
            if let v = try m.double("time_constant") {
                guard v >= 0 && v <= 10 else { throw m.bad("time_constant", "\(v)", "seconds from 0 to 10") }
                p.motion.timeConstant = v
            }
            if let v = try m.double("dead_zone") {
                guard v >= 0 && v <= 45 else { throw m.bad("dead_zone", "\(v)", "degrees from 0 to 45") }
                p.motion.deadZone = v
            }
            if let n = try m.string("neutral") {
                guard let v = MotionProfile.neutral(named: n) else { throw m.bad("neutral", n, "resting or face-up") }
                p.motion.neutral = v
            }
            if let b = try m.bool("reduce_motion") { p.motion.reduceMotion = b }
            try m.finish()
        }
        p.style.scale = p.scale
        return p
    }

    /// Reads typed keys from one table and remembers which were read.
    struct Reader {
        let table: TOMLTable
        let path: String
        let section: String?
        var seen: Set<String> = []

        init(table: TOMLTable, path: String, section: String?) { self.table = table; self.path = path; self.section = section }

        func where_(_ key: String) -> String { "\(path): \(section.map { "[\($0)] " } ?? "")\(key)" }

        func bad(_ key: String, _ value: String, _ expected: String) -> Error {
            Error(description: "\(where_(key)) = \(value): expected \(expected)")
        }

        mutating func value(_ key: String) -> TOMLValue? {
            seen.insert(key)
            return table[key]
        }

        mutating func string(_ key: String) throws -> String? {
            guard let v = value(key) else { return nil }
            guard let s = v.string else { throw bad(key, "\(v)", "a string") }
            return s
        }

        mutating func double(_ key: String) throws -> Double? {
            guard let v = value(key) else { return nil }
            if let d = v.double, d.isFinite { return d }
            if let i = v.int { return Double(i) }
            throw bad(key, "\(v)", "a number")
        }

        mutating func bool(_ key: String) throws -> Bool? {
            guard let v = value(key) else { return nil }
            guard let b = v.bool else { throw bad(key, "\(v)", "true or false") }
            return b
        }

        mutating func strings(_ key: String) throws -> [String]? {
            guard let v = value(key) else { return nil }
            guard let a = v.array else { throw bad(key, "\(v)", "an array of strings") }
            return try a.map { e in
                guard let s = e.string else { throw bad(key, "\(e)", "an array of strings") }
                return s
            }
        }

        mutating func table(_ key: String) throws -> TOMLTable? {
            guard let v = value(key) else { return nil }
            guard let t = v.table else { throw bad(key, "\(v)", "a table [\(key)]") }
            return t
        }

        mutating func color(_ key: String) throws -> Color? {
            guard let s = try string(key) else { return nil }
            guard let c = parseColor(s) else { throw bad(key, s, "a colour #RRGGBB or #RRGGBBAA") }
            return c
        }

        func nonNegative(_ key: String, _ v: Double) throws -> Double {
            guard v >= 0 else { throw bad(key, "\(v)", "a number ≥ 0") }
            return v
        }

        func fontSize(_ key: String, _ v: Double) throws -> Double {
            guard v >= 1 && v <= 500 else { throw bad(key, "\(v)", "a font size from 1 to 500") }
            return v
        }

        func finish(allowing extra: Set<String> = []) throws {
            let unknown = table.keys.filter { !seen.contains($0) && !extra.contains($0) }.sorted()
            if let k = unknown.first { throw Error(description: "\(where_(k)): unknown key") }
        }
    }
}

/// `[motion]` of a board profile: which accelerometer, its mounting, and the tilt filter.
public struct MotionProfile: Sendable, Equatable {
    /// `iio:deviceN`, a label or a name; nil: the one labelled accel-display, else the first.
    public var accel: String?
    /// Overrides udev's ACCEL_MOUNT_MATRIX and the sysfs mount matrix.
    public var mountMatrix: MountMatrix?
    /// Samples per second.
    public var rate = 30.0
    /// Low-pass time constant, seconds.
    public var timeConstant = TiltFilter.Config().timeConstant
    /// Dead zone, degrees.
    public var deadZone = TiltFilter.Config().deadZone
    /// No tilt motion.
    public var reduceMotion = false
    /// The attitude at which the bezel is centred: how the board rests when the HUD starts (a
    /// kiosk upright or on a wall), or face up.
    public var neutral = TiltFilter.Neutral.firstSample

    public init() {}

    /// "resting" or "face-up".
    public static func neutral(named name: String) -> TiltFilter.Neutral? {
        switch name {
        case "resting": .firstSample
        case "face-up": .faceUp
        default: nil
        }
    }
}

/// "800x480" → (800, 480); sides 1…16384.
public func parseSize(_ s: String) -> (Int, Int)? {
    let p = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard p.count == 2, p.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
          let w = Int(p[0]), let h = Int(p[1]), (1...Bitmap.maxDimension).contains(w),
          (1...Bitmap.maxDimension).contains(h) else { return nil }
    return (w, h)
}

/// "#RRGGBB" or "#RRGGBBAA".
public func parseColor(_ s: String) -> Color? {
    guard s.hasPrefix("#") else { return nil }
    let h = s.dropFirst()
    guard h.count == 6 || h.count == 8, h.allSatisfy(\.isHexDigit), let v = UInt32(h, radix: 16) else { return nil }
    if h.count == 6 { return Color(rgb: v) }
    return Color(rgb: v >> 8, a: Double(v & 0xFF) / 255)
}

public func parseFormat(_ s: String) -> PixelFormat? {
    switch s.lowercased() {
    case "xrgb8888": .xrgb8888
    case "argb8888": .argb8888
    case "rgb565": .rgb565
    default: nil
    }
}

public func parseBackground(_ s: String, dim: Color) -> HUDBackground? {
    switch s {
    case "none": HUDBackground.none
    case "dim": .dim(dim)
    case "gradient": .gradient
    default: nil
    }
}

public func parseAnimation(_ s: String) -> AnimationKind? {
    switch s.lowercased() {
    case "fade": .fade
    case "zoom": .zoom
    case "zoomin": .zoomIn
    case "zoomout": .zoomOut
    default: nil
    }
}

/// `[display]` of a board profile, for a real screen.
public struct DisplayProfile: Sendable, Equatable {
    /// The DRM card; nil: the first with dumb buffers.
    public var card: String?
    /// Only these connectors (e.g. "HDMI-A-1"); empty: every connected one.
    public var connectors: [String] = []
    /// "WIDTHxHEIGHT[@HZ]"; nil: preferred, else active, else first.
    public var mode: String?
    /// The picture's rotation on the panel; nil: the connector's panel orientation.
    public var rotation: Rotation?

    public init() {}

    /// Whether `s` reads as WIDTHxHEIGHT or WIDTHxHEIGHT@HZ.
    public static func isModeString(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, parseSize(String(parts[0])) != nil else { return false }
        if parts.count == 2 { return Double(parts[1]).map { $0 > 0 && $0 < 1000 } ?? false }
        return true
    }
}

/// `[touch]` of a board profile.
public struct TouchProfile: Sendable, Equatable {
    /// libinput calibration matrix (a, b, c, d, e, f); nil: what udev gives (or identity).
    public var matrix: [Double]?
    /// Only the touch device whose name or sysname contains this.
    public var device: String?
    /// Keys that press the button.
    public var keys: [Int] = [28, 57, 1, 96]
    /// Report taps outside the bezel.
    public var tapOutside = false

    public init() {}

    /// "a, b, c, d, e, f" (commas and/or spaces) → six finite numbers, or nil.
    public static func parseMatrix(_ s: String) -> [Double]? {
        let parts = s.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard parts.count == 6 else { return nil }
        let v = parts.compactMap { Double($0) }.filter(\.isFinite)
        return v.count == 6 ? v : nil
    }
}
