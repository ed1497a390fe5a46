import KioskPresentation
import KioskSeams
import KioskHUD
import KioskRaster
import KioskSettings
import KioskText

/// The groups settings are shown in (help) and sorted by (clients).
public enum SettingGroup {
    public static let hud = "HUD"
    public static let display = "Display"
    public static let input = "Input"
    public static let tilt = "Tilt"
    public static let plymouth = "Plymouth"
    public static let words = "Words"
}

extension HUDSettings {
    typealias S = Setting<HUDSettings>

    /// Every setting, declared once, in the order they are applied (a theme before the colours
    /// it sets) and shown. Board file sections: the top level, match, display, touch, fonts,
    /// style, timing, motion, plymouth, words.
    public static let table = SettingsTable<HUDSettings>(
        // content before match and display: `setting(key:)` (the daemon's and Plymouth's fields)
        // takes the first of a key, and [match] and [display] have a `mode` too.
        topLevel + content + match + display + touch + fonts + style + timing + motion + input + plymouth + words,
        sections: ["", "match", "display", "touch", "fonts", "style", "timing", "motion", "plymouth", "words"])

    static let topLevel: [S] = [
        S("name", section: "", .text(64, nonEmpty: true, "a name"), default: .text("generic"), example: "\"rpi-touch-display\"", group: SettingGroup.display,
          help: "The board this profile is for.",
          set: { $0.profile.name = $1.string }, get: { .text($0.profile.name) }),
    ]

    /// `[match]`: one list of strings per kind of rule (BoardMatch).
    static let match: [S] = BoardRuleKind.allCases.map { kind in
        let (help, expected, example) = matchText(kind)
        return S(kind.key, section: "match", ValueRule(.texts(maxCount: 16, element: .init(maxBytes: 256)), expected: expected),
                 example: example, group: SettingGroup.display, help: help,
                 set: { $0.profile.match[kind] = $1.strings }, get: { $0.profile.match[kind].isEmpty ? nil : .texts($0.profile.match[kind]) })
    }

    /// A rule's help, what its value must be, and an example (a switch, not dictionaries: the
    /// table is built on the way to the first frame).
    static func matchText(_ kind: BoardRuleKind) -> (help: String, expected: String, example: String) {
        switch kind {
        case .compatible:
            ("Device-tree compatible entries, whole (/proc/device-tree/compatible); --board auto: one of them must be there.",
             "a list of compatible strings (at most 16)", "[\"raspberrypi,4-model-b\", \"raspberrypi,3-model-b\"]")
        case .model:
            ("Parts of the board's model (/proc/device-tree/model, or the DMI product name on x86); one must be in it.",
             "a list of model names or parts (at most 16)", "[\"Raspberry Pi 4\"]")
        case .drmDriver:
            ("DRM drivers, whole: the DRM driver's own name (vc4, as [display] switch and the log name it) or its device's sysfs driver (vc4-drm, where /sys/class/drm/cardN/device/driver links); one card must have one.",
             "a list of driver names (at most 16)", "[\"vc4\"]")
        case .connector:
            ("DRM connector names, whole (cardN-NAME in /sys/class/drm); one must be there and not disconnected.",
             "a list of connector names (at most 16)", "[\"DSI-1\"]")
        case .mode:
            ("Display modes WIDTHxHEIGHT; a connector (one of connector's, if given) must list one.",
             "a list of modes WIDTHxHEIGHT (at most 16)", "[\"720x1280\"]")
        case .iio:
            ("Parts of IIO device names (/sys/bus/iio/devices/iio:deviceN/name); one device must have one.",
             "a list of IIO device names or parts (at most 16)", "[\"mpu6050\", \"lis3dh\"]")
        case .input:
            ("Parts of input device names (/sys/class/input/inputN/name); one device must have one.",
             "a list of input device names or parts (at most 16)", "[\"ft5x06\"]")
        }
    }

    static let display: [S] = [
        S("size", section: "display", option: "size", .size(1, Bitmap.maxCanvasSide), default: .size(width: 800, height: 480),
          example: "\"1024x600\"", group: SettingGroup.display,
          help: "Canvas size WIDTHxHEIGHT in pixels (offscreen; on a real display its mode decides).",
          set: { $0.profile.width = $1.size.0; $0.profile.height = $1.size.1 },
          get: { .size(width: $0.profile.width, height: $0.profile.height) }),
        S("scale", section: "display", option: "scale", .number(HUDStyle.Limits.scale, minOpen: true, "pixels per point"), example: "1.5",
          group: SettingGroup.display,
          help: "Pixels per point (e.g. 2); default: chosen from the panel's physical size (about 135 DPI a point, as Plymouth does), 1 offscreen.",
          set: { $0.profile.scale = $1.double; $0.profile.style.scale = $1.double }, get: { $0.profile.scale.map { .number($0) } }),
        S("format", section: "display", option: "format", .choice(of: FormatChoice.self), default: .text("xrgb8888"),
          example: "\"rgb565\"", group: SettingGroup.display, help: "Pixel format of the frame.",
          set: { $0.profile.format = (FormatChoice(rawValue: $1.string) ?? .xrgb8888).format }, get: { .text(FormatChoice($0.profile.format).rawValue) }),
        // The underlay is what lies under the HUD: this colour, and the picture (underlay_image,
        // --underlay-image) over it. Called `underlay` alone before, in board files and by
        // clients, which the command line's --underlay (the picture) contradicted: still read,
        // deprecated.
        S("underlay_color", section: "display", option: "underlay-color", .color, default: .color(0x0000_00FF), example: "\"#202020\"",
          formerKey: "underlay", group: SettingGroup.display,
          live: true, help: "The underlay's colour: under the HUD, and under the underlay picture's transparent parts.",
          set: { $0.profile.underlayColor = Color(setting: $1) }, get: { $0.profile.underlayColor.setting }),
        S("underlay_fit", section: "display", option: "underlay-fit", .choice(of: UnderlayFit.self), default: .text("fill"),
          example: "\"fit\"", group: SettingGroup.display, live: true,
          help: "How the underlay picture covers the screen: fill (aspect kept, cropped), fit (aspect kept, letterboxed on the underlay colour), center (not scaled, cropped if larger) or stretch (aspect ignored).",
          set: { $0.profile.underlayFit = UnderlayFit(rawValue: $1.string) ?? .fill }, get: { .text($0.profile.underlayFit.rawValue) }),
        S("card", section: "display", option: "card", cardRule, example: "\"/dev/dri/card0\"", group: SettingGroup.display,
          help: "DRM card; default: the first /dev/dri/card* with dumb buffers.",
          set: { $0.profile.display.card = $1.string }, get: { $0.profile.display.card.map { .text($0) } }),
        S("connectors", section: "display", option: "connector", ValueRule(.texts(maxCount: 16, element: .init(maxBytes: 32)),
                                                                           expected: "connector names such as HDMI-A-1 (at most 16)"),
          example: "[\"HDMI-A-1\"]", group: SettingGroup.display,
          help: "Only these connectors (repeat the option for more); default: every connected one.",
          set: { $0.profile.display.connectors = $1.strings },
          get: { $0.profile.display.connectors.isEmpty ? nil : .texts($0.profile.display.connectors) }),
        S("mode", section: "display", option: "video-mode", videoModeRule, example: "\"800x480@60\"", group: SettingGroup.display,
          help: "Display mode WIDTHxHEIGHT[@HZ]; default: preferred, else active, else first.",
          set: { $0.profile.display.mode = $1.string }, get: { $0.profile.display.mode.map { .text($0) } }),
        S("rotation", section: "display", option: "rotate", .integerChoice([0, 90, 180, 270]), example: "0", group: SettingGroup.display,
          help: "Rotation of the picture on the panel, clockwise (turns the touch with it); default: the panel's orientation property.",
          set: { $0.profile.display.rotation = Rotation(rawValue: $1.int) },
          get: { $0.profile.display.rotation.map { .integer($0.rawValue) } }),
        // No default value: the daemon's default (8 s) is not the others' (none), and a profile
        // that gives no wait must leave the daemon's in effect.
        S("wait", section: "display", option: "wait-display", .number(0, 600, "seconds", unit: "s"),
          example: "8", group: SettingGroup.display,
          help: "When no display exists yet (early boot), wait up to this many seconds for one (kernel uevents) instead of failing; the control socket answers meanwhile. 0: do not wait; default: 8 for the daemon, 0 for the others.",
          set: { $0.profile.display.waitGiven = $1.double }, get: { $0.profile.display.waitGiven.map { .number($0) } }),
        S("switch", section: "display", option: "display-switch", displaySwitchRule, default: .text("first"),
          example: "\"vc4\"", group: SettingGroup.display,
          help: "Which display to be on as devices come and go at boot (without card): first — start on the first usable one (simpledrm, efifb) and move to the board's real DRM driver when it loads; wait-real — draw nothing until a real DRM card is there or wait-real-timeout passes (Plymouth's way); a driver's name — move only to that driver's card (its DRM name, vc4, or its sysfs driver, vc4-drm: either works, as in [match] drm_driver).",
          set: { $0.profile.display.switchRule = $1.string }, get: { .text($0.profile.display.switchRule) }),
        S("wait_real_timeout", section: "display", option: "wait-real-timeout", .number(0, 600, "seconds", unit: "s"), default: .number(8),
          example: "5.0", group: SettingGroup.display,
          help: "With display-switch = wait-real: how long to wait for the real DRM card before drawing on what is there (Plymouth's DeviceTimeout).",
          set: { $0.profile.display.realTimeout = $1.double }, get: { .number($0.profile.display.realTimeout) }),
        S("modules", section: "display", ValueRule(.texts(maxCount: 32, element: .init(maxBytes: 64)), expected: "kernel module names (at most 32)"),
          example: "[\"vc4\", \"tc358762\", \"panel-simple\"]", group: SettingGroup.display,
          help: "The kernel modules the display needs, its whole chain (DRM driver, bridge, panel, its regulator, the I2C bus to them): the initramfs-tools hook puts them in the initramfs, so that the HUD is on the display before the root file system (docs/initramfs.md).",
          set: { $0.profile.display.modules = $1.strings },
          get: { $0.profile.display.modules.isEmpty ? nil : .texts($0.profile.display.modules) }),
    ]

    static let touch: [S] = [
        S("matrix", section: "touch", option: "touch-matrix", touchMatrixRule, example: "\"1, 0, 0, 0, 1, 0\"", group: SettingGroup.input,
          help: "Touch calibration matrix a,b,c,d,e,f (libinput's), or rotate-90/180/270 for a sensor mounted rotated; default: udev's LIBINPUT_CALIBRATION_MATRIX.",
          set: { $0.profile.touch.matrix = $1.doubles }, get: { $0.profile.touch.matrix.map { .numbers($0) } }),
        S("device", section: "touch", .text(256, nonEmpty: true, "part of a device name or sysname"), example: "\"ft5x06\"",
          group: SettingGroup.input, help: "Only this touch device (part of its name or sysname).",
          set: { $0.profile.touch.device = $1.string }, get: { $0.profile.touch.device.map { .text($0) } }),
        S("keys", section: "touch", ValueRule(.integers(min: 1, max: 767, maxCount: 16), expected: "Linux key codes from 1 to 767 (at most 16)"),
          default: .integers([28, 57, 1, 96]), example: "[28, 96]", group: SettingGroup.input,
          help: "Keys that press the button (Linux key codes): Enter, Space, Escape, keypad Enter.",
          set: { $0.profile.touch.keys = $1.ints }, get: { .integers($0.profile.touch.keys) }),
        S("tap_outside", section: "touch", .bool, default: .bool(false), example: "true", group: SettingGroup.input,
          help: "Report taps outside the bezel (show: exit 11) instead of ignoring them.",
          set: { $0.profile.touch.tapOutside = $1.bool }, get: { .bool($0.profile.touch.tapOutside) }),
    ]

    static let fonts: [S] = [
        S("primary", section: "fonts", .path, default: .text(FontSpec.defaultPrimary), example: "\"/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf\"", group: SettingGroup.hud,
          help: "The font for all text.",
          set: { $0.profile.style.fontPaths = [$1.string] + Array($0.profile.style.fontPaths.dropFirst()) },
          get: { $0.profile.style.fontPaths.first.map { .text($0) } }),
        S("fallbacks", section: "fonts", .paths(max: 16), default: .texts([
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
          ]), example: "[\"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\"]",
          group: SettingGroup.hud, help: "Fonts tried in order for characters the primary font lacks (missing files are skipped).",
          set: { $0.profile.style.fontPaths = Array($0.profile.style.fontPaths.prefix(1)) + $1.strings },
          get: { .texts(Array($0.profile.style.fontPaths.dropFirst())) }),
    ]

    static let style: [S] = [
        S("theme", section: "style", option: "theme", .choice(of: ThemeChoice.self), default: .text("light"), example: "\"dark\"", group: SettingGroup.hud, live: true,
          help: "light (grey bezel, black content) or dark (dark bezel, white content); sets both colours.",
          set: { s, v in
              s.profile.theme = v.string
              let t = (ThemeChoice(rawValue: v.string) ?? .light).style
              s.profile.style.bezelColor = t.bezelColor; s.profile.style.contentColor = t.contentColor
          }, get: { .text($0.profile.theme) }),
        S("margin", section: "style", option: "margin", .number(HUDStyle.Limits.length, "points", unit: "pt"), default: .number(20), example: "12.0", group: SettingGroup.hud,
          live: true, help: "Space between the bezel and the screen's edges.",
          set: { $0.profile.style.margin = $1.double }, get: { .number($0.profile.style.margin) }),
        S("padding", section: "style", option: "padding", .number(HUDStyle.Limits.length, "points", unit: "pt"), default: .number(4), example: "8.0", group: SettingGroup.hud,
          live: true, help: "Space between the bezel's parts.",
          set: { $0.profile.style.padding = $1.double }, get: { .number($0.profile.style.padding) }),
        S("corner_radius", section: "style", option: "corner-radius", .number(HUDStyle.Limits.length, "points", unit: "pt"), default: .number(5), example: "10.0",
          group: SettingGroup.hud, live: true, help: "The bezel's corner radius.",
          set: { $0.profile.style.cornerRadius = $1.double }, get: { .number($0.profile.style.cornerRadius) }),
        S("label_size", section: "style", option: "label-size", .number(HUDStyle.Limits.fontSize, "a font size", unit: "pt"), default: .number(16), example: "20.0",
          group: SettingGroup.hud, live: true, help: "The label's font size.",
          set: { $0.profile.style.labelFontSize = $1.double }, get: { .number($0.profile.style.labelFontSize) }),
        S("details_size", section: "style", option: "details-size", .number(HUDStyle.Limits.fontSize, "a font size", unit: "pt"), default: .number(12), example: "14.0",
          group: SettingGroup.hud, live: true, help: "The details label's font size.",
          set: { $0.profile.style.detailsFontSize = $1.double }, get: { .number($0.profile.style.detailsFontSize) }),
        S("button_size", section: "style", option: "button-size", .number(HUDStyle.Limits.fontSize, "a font size", unit: "pt"), default: .number(12), example: "14.0",
          group: SettingGroup.hud, live: true, help: "The button's font size.",
          set: { $0.profile.style.buttonFontSize = $1.double }, get: { .number($0.profile.style.buttonFontSize) }),
        S("content_color", section: "style", option: "content-color", .color, default: .color(0x0000_00B3), example: "\"#FFFFFF\"", group: SettingGroup.hud,
          live: true, help: "Colour of the indicator, text and button.",
          set: { $0.profile.style.contentColor = Color(setting: $1) }, get: { $0.profile.style.contentColor.setting }),
        S("bezel_color", section: "style", option: "bezel-color", .color, default: .color(0xCCCC_CC99), example: "\"#202020E6\"", group: SettingGroup.hud,
          live: true, help: "Colour of the bezel.",
          set: { $0.profile.style.bezelColor = Color(setting: $1) }, get: { $0.profile.style.bezelColor.setting }),
        S("blur_radius", section: "style", option: "blur-radius", .number(HUDStyle.Limits.blurRadius, "points", unit: "pt"), default: .number(10), example: "6.0",
          group: SettingGroup.hud, live: true, help: "How far the blurred bezel blurs what is under it.",
          set: { s, v in
              s.profile.blurRadius = v.double
              if case .blur = s.profile.style.bezelStyle { s.profile.style.bezelStyle = .blur(radius: v.double) }
          }, get: { .number($0.profile.blurRadius) }),
        S("bezel", section: "style", option: "bezel", .choice(of: BezelChoice.self), default: .text("solid"), example: "\"blur\"", group: SettingGroup.hud, live: true,
          help: "solid, or blur (what is under the bezel shows through, blurred).",
          set: { s, v in s.profile.style.bezelStyle = BezelChoice(rawValue: v.string) == .blur ? .blur(radius: s.profile.blurRadius) : .solid },
          get: { if case .blur = $0.profile.style.bezelStyle { return .text(BezelChoice.blur.rawValue) } else { return .text(BezelChoice.solid.rawValue) } }),
        S("dim_color", section: "style", option: "dim-color", .color, default: .color(0x0000_0080), example: "\"#00000060\"", group: SettingGroup.hud, live: true,
          help: "Colour laid over the screen by background = dim.",
          set: { s, v in
              s.profile.dimColor = Color(setting: v)
              if case .dim = s.profile.style.background { s.profile.style.background = .dim(s.profile.dimColor) }
          }, get: { $0.profile.dimColor.setting }),
        S("background", section: "style", option: "background", .choice(of: BackgroundChoice.self), default: .text("none"), example: "\"dim\"",
          group: SettingGroup.hud, live: true, help: "What the HUD lays over the screen: nothing, a dim colour, or a radial gradient.",
          set: { s, v in
              switch BackgroundChoice(rawValue: v.string) ?? .none {
              case .dim: s.profile.style.background = .dim(s.profile.dimColor)
              case .gradient: s.profile.style.background = .gradient
              case .none: s.profile.style.background = .none
              }
          }, get: { .text(BackgroundChoice($0.profile.style.background).rawValue) }),
        // An empty path clears the logo (a daemon's `style` with "logo": "").
        S("logo", section: "style", option: "logo", .text(4095, "a PNG path (empty: none)"), example: "\"/usr/share/kiosk-hud/logo.png\"",
          group: SettingGroup.hud, live: true,
          help: "A logo picture (PNG), placed as logo_placement says, at most logo_size high; empty: none.",
          set: { $0.profile.logo = $1.string.isEmpty ? nil : $1.string }, get: { $0.profile.logo.map { .text($0) } }),
        S("logo_placement", section: "style", option: "logo-placement", .choice(LogoPlacement.allCases.map(\.rawValue)), default: .text("above"),
          example: "\"alone\"", group: SettingGroup.hud, live: true,
          help: "Where the logo goes: above (above the bezel, centred), alone (centred, the progress bar and the label under it, no bezel: a boot splash; a button, text and notices keep the bezel) or none.",
          set: { $0.profile.style.logoPlacement = LogoPlacement(rawValue: $1.string) ?? .above },
          get: { .text($0.profile.style.logoPlacement.rawValue) }),
        S("logo_size", section: "style", option: "logo-size", .number(HUDStyle.Limits.length, "points", unit: "pt"), default: .number(64), example: "96.0",
          group: SettingGroup.hud, live: true, help: "The logo's largest height (aspect kept; never more than twice the picture's own size).",
          set: { $0.profile.style.logoSize = $1.double }, get: { .number($0.profile.style.logoSize) }),
        S("offset", section: nil, option: "offset", .point(HUDStyle.maxOffset, "points"), group: SettingGroup.hud, live: true,
          help: "Bezel offset from the centre in points, X,Y (1000000 pins it to an edge).",
          set: { if case let .point(x, y) = $1 { $0.profile.style.offsetX = x; $0.profile.style.offsetY = y } },
          get: { .point(x: $0.profile.style.offsetX, y: $0.profile.style.offsetY) }),
        S("min_size", section: nil, option: "min-size", minSizeRule, group: SettingGroup.hud, live: true,
          help: "Smallest bezel WIDTHxHEIGHT in points.",
          set: { $0.profile.style.minWidth = $1.doubles[0]; $0.profile.style.minHeight = $1.doubles[1] },
          get: { .text(formatNumber($0.profile.style.minWidth) + "x" + formatNumber($0.profile.style.minHeight)) }),
        S("square", section: nil, option: "square", .bool, group: SettingGroup.hud, live: true, help: "Square bezel.",
          set: { $0.profile.style.square = $1.bool }, get: { .bool($0.profile.style.square) }),
    ]

    static let timing: [S] = [
        S("grace_time", section: "timing", option: "grace-time", .number(0, 3600, "seconds", unit: "s"), default: .number(0), example: "0.5",
          group: SettingGroup.hud, live: true, help: "A HUD hidden again within this time is never shown (no flash for quick work).",
          set: { $0.profile.timing.graceTime = $1.double }, get: { .number($0.profile.timing.graceTime) }),
        S("min_show_time", section: "timing", option: "min-show-time", .number(0, 3600, "seconds", unit: "s"), default: .number(0), example: "1.0",
          group: SettingGroup.hud, live: true, help: "Once shown, the HUD stays at least this long.",
          set: { $0.profile.timing.minShowTime = $1.double }, get: { .number($0.profile.timing.minShowTime) }),
        S("animation", section: "timing", option: "animation", .choice(of: AnimationChoice.self), default: .text("fade"), example: "\"zoom\"",
          group: SettingGroup.hud, live: true, help: "How the HUD appears and goes.",
          set: { $0.profile.timing.animation = (AnimationChoice(rawValue: $1.string) ?? .fade).kind }, get: { .text(AnimationChoice($0.profile.timing.animation).rawValue) }),
        S("animation_duration", section: "timing", option: "animation-duration", .number(0, 10, "seconds", unit: "s"), default: .number(0.3), example: "0.2",
          group: SettingGroup.hud, live: true, help: "How long it takes.",
          set: { $0.profile.timing.animationDuration = $1.double }, get: { .number($0.profile.timing.animationDuration) }),
    ]

    static let motion: [S] = [
        S("accel", section: "motion", option: "accel", .text(256, nonEmpty: true, "iio:deviceN, a label or a name"),
          example: "\"accel-display\"", group: SettingGroup.tilt,
          help: "The accelerometer: iio:deviceN, a label or a name; default: the one labelled accel-display, else the first.",
          set: { $0.profile.motion.accel = $1.string }, get: { $0.profile.motion.accel.map { .text($0) } }),
        S("mount_matrix", section: "motion", option: "mount-matrix", mountMatrixRule, example: "\"1, 0, 0; 0, 1, 0; 0, 0, 1\"",
          group: SettingGroup.tilt,
          help: "Mount matrix, rows (panel = M · reading); default: udev's ACCEL_MOUNT_MATRIX, then sysfs.",
          set: { $0.profile.motion.mountMatrix = MountMatrix(rowMajor: $1.doubles) },
          get: { $0.profile.motion.mountMatrix.map { .numbers($0.m) } }),
        S("depth", section: "motion", option: "depth", .number(HUDStyle.Limits.motionDepth, "points", unit: "pt"), default: .number(10), example: "0.0",
          alias: (section: "style", key: "motion_depth"), group: SettingGroup.tilt, live: true,
          help: "How far the bezel slides each way as the board tilts (0: off).",
          set: { $0.profile.style.motionDepth = $1.double }, get: { .number($0.profile.style.motionDepth) }),
        S("rate", section: "motion", option: "rate", .number(0.1, 1000, "samples per second", unit: "Hz"), default: .number(30), example: "60.0",
          group: SettingGroup.tilt, help: "Accelerometer samples per second.",
          set: { $0.profile.motion.rate = $1.double }, get: { .number($0.profile.motion.rate) }),
        S("time_constant", section: "motion", option: "time-constant", .number(0, 10, "seconds", unit: "s"), default: .number(0.15), example: "0.25",
          group: SettingGroup.tilt, help: "Tilt low-pass time constant.",
          set: { $0.profile.motion.timeConstant = $1.double }, get: { .number($0.profile.motion.timeConstant) }),
        S("dead_zone", section: "motion", option: "dead-zone", .number(0, 45, "degrees", unit: "°"), default: .number(1.5), example: "3.0",
          group: SettingGroup.tilt, help: "Tilt dead zone.",
          set: { $0.profile.motion.deadZone = $1.double }, get: { .number($0.profile.motion.deadZone) }),
        S("neutral", section: "motion", option: "neutral", .choice(of: NeutralChoice.self), default: .text("resting"), example: "\"face-up\"",
          group: SettingGroup.tilt, help: "Attitude with the bezel centred: resting (however the board stands at start) or face-up.",
          set: { $0.profile.motion.neutral = NeutralChoice(rawValue: $1.string) == .faceUp ? .faceUp : .firstSample },
          get: { .text(($0.profile.motion.neutral == .faceUp ? NeutralChoice.faceUp : .resting).rawValue) }),
        S("reduce_motion", section: "motion", option: "reduce-motion", .bool, default: .bool(false), example: "true", group: SettingGroup.tilt, live: true,
          help: "No tilt motion.",
          set: { $0.profile.motion.reduceMotion = $1.bool }, get: { .bool($0.profile.motion.reduceMotion) }),
        S("iio_root", section: nil, option: "iio-root", .path, group: SettingGroup.tilt,
          help: "A directory standing for / when looking for IIO devices and the udev database (tests).",
          set: { $0.iioRoot = $1.string }, get: { $0.iioRoot.map { .text($0) } }),
    ]

    static let content: [S] = [
        S("mode", section: nil, option: "mode", .choice(of: HUDMode.self), default: .text("indeterminate"),
          group: SettingGroup.hud, live: true, content: true,
          help: "indeterminate, determinate, annular, bar, text, custom (with --image), success or error.",
          set: { $0.content.mode = HUDMode(rawValue: $1.string) ?? .indeterminate }, get: { .text($0.content.mode.rawValue) }),
        S("progress", section: nil, option: "progress", .number(0, 1, "a fraction"), default: .number(0), group: SettingGroup.hud, live: true, content: true,
          help: "Progress (determinate, annular, bar).",
          set: { $0.content.progress = $1.double }, get: { .number($0.content.progress) }),
        S("label", section: nil, option: "label", .text(1024, "text"), default: .text(""), group: SettingGroup.hud, live: true, content: true,
          help: "The label (one line).",
          set: { $0.content.label = $1.string }, get: { .text($0.content.label) }),
        S("details", section: nil, option: "details", .text(8192, "text"), default: .text(""), group: SettingGroup.hud, live: true, content: true,
          help: "The details label (wraps).",
          set: { $0.content.details = $1.string }, get: { .text($0.content.details) }),
        S("button", section: nil, option: "button", .text(128, "text"), default: .text(""), group: SettingGroup.hud, live: true, content: true,
          help: "The button's title (e.g. Cancel); none: no button.",
          set: { $0.content.buttonTitle = $1.string; $0.content.buttonHasAction = !$1.string.isEmpty },
          get: { .text($0.content.buttonTitle) }),
        S("image", section: nil, option: "image", .path, group: SettingGroup.hud, live: true, content: true, help: "Picture for --mode custom (PNG).",
          set: { $0.image = $1.string }, get: { $0.image.map { .text($0) } }),
        // A board file's since 0.2 (a theme's background picture: `kiosk-hud theme
        // --underlay-image`). The option was `--underlay` before, one word short of the key and
        // of the colour's `--underlay-color`: still taken, deprecated.
        S("underlay_image", section: "display", option: "underlay-image", .path, example: "\"/etc/kiosk-hud/pictures/background.png\"",
          formerOption: "underlay", group: SettingGroup.hud, live: true,
          help: "The underlay's picture, under the HUD (PNG), scaled to the canvas as underlay_fit says, over the underlay colour.",
          set: { $0.profile.underlayImage = $1.string }, get: { $0.profile.underlayImage.map { .text($0) } }),
    ]

    static let input: [S] = [
        S("seat", section: nil, option: "seat", .text(64, nonEmpty: true, "a udev seat"), default: .text("seat0"), group: SettingGroup.input,
          help: "udev seat (hotplug).",
          set: { $0.seat = $1.string }, get: { .text($0.seat) }),
        S("input", section: nil, option: "input", ValueRule(.texts(maxCount: 16, element: .init(maxBytes: 4095)),
                                                            expected: "device nodes such as /dev/input/event3 (at most 16)"),
          group: SettingGroup.input, help: "A device node instead of the seat; repeatable.",
          set: { $0.inputs = $1.strings }, get: { $0.inputs.isEmpty ? nil : .texts($0.inputs) }),
        S("bind_touch", section: nil, option: "bind-touch", ValueRule(.texts(maxCount: 16, element: .init(maxBytes: 256)),
                                                                     expected: "DEVICE=OUTPUT (at most 16)"),
          group: SettingGroup.input, help: "Bind a touch device to an output, DEVICE=OUTPUT; repeatable.",
          set: { $0.bindings = $1.strings }, get: { $0.bindings.isEmpty ? nil : .texts($0.bindings) }),
    ]
}

extension HUDSettings {
    /// `[plymouth]`: `kiosk-hud daemon --plymouth`'s status line, and a label and HUD mode for
    /// each of Plymouth's modes (`plymouth change-mode`).
    static let plymouth: [S] = [
        S("boot_status", section: "plymouth", option: "plymouth-status", .choice(of: BootStatusChoice.self), default: .text("details"),
          example: "\"none\"", group: SettingGroup.plymouth, live: true,
          help: "Where Plymouth's boot status messages (each unit systemd starts, `plymouth update --status`) go: the details line, or nowhere.",
          set: { $0.profile.plymouth.statusOnDetails = BootStatusChoice(rawValue: $1.string) == .details },
          get: { .text(($0.profile.plymouth.statusOnDetails ? BootStatusChoice.details : .none).rawValue) }),
    ] + PlymouthMode.allCases.flatMap { m -> [S] in
        let d = PlymouthProfile.defaultLooks[m]!
        return [
            S("\(m.key)_label", section: "plymouth", option: "plymouth-\(m.rawValue)-label", .text(1024, "text"),
              example: "\"Please wait\"", group: SettingGroup.plymouth, live: true,
              help: "The label in Plymouth's \(m.rawValue) mode (plymouth change-mode --\(m.rawValue)); default: \"\(Word(plymouth: m).text(.en))\" in the [words] language.",
              set: { s, v in
                  s.profile.plymouth.looks[m, default: d].label = v.string
                  s.profile.words.texts[Word(plymouth: m)] = v.string
              }, get: { $0.profile.words.texts[Word(plymouth: m)].map { .text($0) } }),
            S("\(m.key)_mode", section: "plymouth", option: "plymouth-\(m.rawValue)-mode", .choice(PlymouthProfile.hudModes.map(\.rawValue)),
              default: .text(d.mode.rawValue), example: d.mode == .bar ? "\"annular\"" : "\"bar\"", group: SettingGroup.plymouth, live: true,
              help: "The HUD's mode in Plymouth's \(m.rawValue) mode.",
              set: { $0.profile.plymouth.looks[m, default: d].mode = HUDMode(rawValue: $1.string) ?? d.mode },
              get: { .text($0.profile.plymouth.look(m).mode.rawValue) }),
        ]
    }
}

private extension SettingValue {
    var size: (Int, Int) { if case let .size(w, h) = self { return (w, h) }; return (0, 0) }
}

extension HUDSettings {
    /// `[words]`: the language of the HUD's own words (Words.swift), and the board's own text for
    /// each (Plymouth's mode labels are `[plymouth] MODE_label`).
    static let words: [S] = [
        S("language", section: "words", option: "language", .choice(["auto"] + Language.allCases.map(\.rawValue)), default: .text("auto"), example: "\"de\"",
          group: SettingGroup.words,
          help: "The language of the texts the HUD shows by itself (run's Cancel and notices, Plymouth's labels): "
              + "auto (the system's: LC_ALL, LC_MESSAGES, LANG, else /etc/default/locale; English when none is shipped) or "
              + Language.allCases.map(\.rawValue).joined(separator: ", ") + ".",
          set: { s, v in s.profile.words.language = Language(rawValue: v.string).map { .language($0) } ?? .auto },
          get: { if case let .language(l) = $0.profile.words.language { return .text(l.rawValue) } else { return .text("auto") } }),
    ] + Word.allCases.filter { $0.plymouthMode == nil }.map { w in
        let takes = w.parameters.map(\.placeholder)
        return S(w.key, section: "words", .text(256, nonEmpty: true, "text"), example: "\"\(w.text(.de))\"", group: SettingGroup.words,
                 help: "Instead of \"\(w.text(.en))\" in the [words] language" + (takes.isEmpty ? "." : " (" + takes.joined(separator: " and ") + " where the value goes)."),
                 set: { $0.profile.words.texts[w] = $1.string }, get: { $0.profile.words.texts[w].map { .text($0) } })
    }
}
