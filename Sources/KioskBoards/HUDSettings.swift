import KioskPresentation
import KioskSeams
import KioskHUD
import KioskRaster
import KioskSettings

/// Everything that decides a HUD: the board profile's settings and the ones given per run (what
/// it shows, the pictures, where input comes from). `HUDSettings.table` declares each of them
/// once; the command line, board files and (later) a daemon's clients all set them through it.
public struct HUDSettings: Sendable, Equatable {
    /// What a board file sets (and the command line overrides).
    public var profile = BoardProfile()
    /// What the HUD shows.
    public var content = HUDContent()
    /// The picture for `--mode custom` (a PNG path).
    public var image: String?
    /// A picture under the HUD (a PNG path), scaled to the canvas: the board profile's
    /// `[display] underlay_image`, or `--underlay-image` over it.
    public var underlayImage: String? {
        get { profile.underlayImage }
        set { profile.underlayImage = newValue }
    }
    /// `underlayImage`'s earlier name (`underlay` alone reads as the colour too).
    @available(*, deprecated, renamed: "underlayImage")
    public var underlay: String? {
        get { underlayImage }
        set { underlayImage = newValue }
    }
    /// Input: the udev seat, or explicit device nodes; touch devices bound to outputs.
    public var seat = "seat0"
    public var inputs: [String] = []
    public var bindings: [String] = []
    /// A directory standing for / when looking for IIO devices (tests).
    public var iioRoot: String?
    /// The HUD's own words (run's button and notices), in the language chosen for this run
    /// (`BoardProfile.localize`; English until then).
    public var words = Words()

    public init() {}

    /// Every setting at its declared default: the built-in generic profile.
    public static let defaults: HUDSettings = {
        var s = HUDSettings()
        table.applyDefaults(to: &s)
        return s
    }()
}

extension BoardProfile {
    /// The built-in generic profile: every setting's declared default (Boards/generic.toml is
    /// generated from the same declarations; a test checks they agree).
    public static var generic: BoardProfile { HUDSettings.defaults.profile }

    /// Reads a profile from TOML text over the defaults; `source` names it in errors. Strict:
    /// unknown sections and keys, and values that break their rule, are errors naming
    /// `source:line:column`, the section and key, the value and what was expected.
    public static func parse(_ text: String, source: String) throws(SettingsError) -> BoardProfile {
        try parse(Array(text.utf8), source: source)
    }

    /// Reads a profile from the bytes of a board file (UTF-8 checked strictly).
    public static func parse(_ bytes: [UInt8], source: String) throws(SettingsError) -> BoardProfile {
        var notes: [String] = []
        return try parse(bytes, source: source, notes: &notes)
    }

    /// `parse(_:source:)`, and a line in `notes` for each key given by its earlier, deprecated
    /// name ("board.toml:4:1: [display] underlay is deprecated; use [display] underlay_color").
    public static func parse(_ bytes: [UInt8], source: String, notes: inout [String]) throws(SettingsError) -> BoardProfile {
        let document: TOMLTable
        do { document = try TOMLTable(bytes: bytes) } catch {
            throw SettingsError("\(source):\(error.line):\(error.column): \(error.message)")
        }
        var s = HUDSettings.defaults
        try HUDSettings.table.apply(document, source: source, to: &s, notes: &notes)
        return s.profile
    }

    /// The first lines of Boards/generic.toml.
    public static let genericHeader = [
        "KioskHUD board profile: generic (no real board; the offscreen default, also built into kiosk-hud).",
        "Generated from the settings table (KioskBoards, HUDSettingsTable.swift): every key with its default.",
        "Sizes are in points; scale turns them into pixels. Colours are #RRGGBB or #RRGGBBAA.",
        "Architecture: any kiosk-hud runs on, amd64 or arm64 (see Boards/README.md).",
    ]

    /// The profile as a board file (every key, with its help as comments).
    public func boardFile(header: [String]) -> String {
        var s = HUDSettings.defaults
        s.profile = self
        return HUDSettings.table.boardFile(s, header: header)
    }
}

// MARK: Conversions between settings and the types that use them

extension Color {
    init(setting v: SettingValue) {
        guard case let .color(c) = v else { self = .black; return }
        self.init(rgb: c >> 8, a: Double(c & 0xFF) / 255)
    }

    var setting: SettingValue {
        func byte(_ x: Double) -> UInt32 { UInt32((min(max(x, 0), 1) * 255).rounded()) }
        return .color(byte(r) << 24 | byte(g) << 16 | byte(b) << 8 | byte(a))
    }
}

/// The libinput calibration matrix: six numbers, or a rotation preset (`rotate-90` …).
let touchMatrixRule: ValueRule = {
    // The error line already shows the value (cut at 80): the reason names the part only, and
    // says what is expected briefly, so the line stays within 200 characters.
    return ValueRule(.custom(parse: { (text) throws(RuleError) in
        do throws(CalibrationMatrix.ParseError) {
            // Each Float as the Double of its shortest spelling: -1.1041, not -1.1041000127792358
            // (a profile written out again reads as it was written).
            return .numbers(try CalibrationMatrix(parsing: text).values.map { Double("\($0)") ?? Double($0) })
        } catch { throw RuleError("six numbers or rotate-90/180/270 (\(error.brief))") }
    }), expected: "six numbers a,b,c,d,e,f or rotate-90, rotate-180, rotate-270")
}()

/// The accelerometer's mount matrix: "x1, y1, z1; x2, y2, z2; x3, y3, z3".
let mountMatrixRule: ValueRule = {
    let expected = "\"x1, y1, z1; x2, y2, z2; x3, y3, z3\""
    return ValueRule(.custom(parse: { (text) throws(RuleError) in
        do throws(MountMatrix.ParseError) { return .numbers(try MountMatrix.parse(text).m) } catch {
            // The line shows the value already (cut at 80): the reason names the place only.
            throw RuleError("3 rows of 3 numbers (\(error.brief))")
        }
    }), expected: expected)
}()

/// A display mode: WIDTHxHEIGHT or WIDTHxHEIGHT@HZ.
let videoModeRule = ValueRule(.custom(parse: { (text) throws(RuleError) in
    guard isModeString(text) else { throw RuleError("WIDTHxHEIGHT or WIDTHxHEIGHT@HZ") }
    return .text(text)
}), expected: "WIDTHxHEIGHT or WIDTHxHEIGHT@HZ")

/// `first`, `wait-real`, or a DRM driver's name (lower-case letters, digits, '-', '_').
let displaySwitchRule = ValueRule(.custom(parse: { (text) throws(RuleError) in
    let expected = "first, wait-real or a DRM driver's name such as vc4"
    guard !text.isEmpty, text.utf8.count <= 32,
          text.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }) else { throw RuleError(expected) }
    return .text(text)
}), expected: "first, wait-real or a DRM driver's name such as vc4")

/// A DRM card's device path.
let cardRule = ValueRule(.custom(parse: { (text) throws(RuleError) in
    guard text.hasPrefix("/"), text.utf8.count < 64 else { throw RuleError("a device path such as /dev/dri/card0") }
    return .text(text)
}), expected: "a device path such as /dev/dri/card0")

/// The smallest bezel, WIDTHxHEIGHT in points.
let minSizeRule = ValueRule(.custom(parse: { (text) throws(RuleError) in
    let p = text.split(separator: "x", omittingEmptySubsequences: false)
    guard p.count == 2, let w = parseDouble(String(p[0])), let h = parseDouble(String(p[1])),
          HUDStyle.Limits.minSize.contains(w), HUDStyle.Limits.minSize.contains(h) else { throw RuleError(minSizeExpected) }
    return .numbers([w, h])
}), expected: minSizeExpected)
let minSizeExpected = "WIDTHxHEIGHT in points, each from 0 to \(formatNumber(HUDStyle.Limits.minSize.upperBound))"
