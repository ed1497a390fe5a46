// BoardProfile: TOML board profiles (Boards/*.toml), strict about keys, types and ranges.
import Foundation
import KioskPresentation
import KioskBoards
import KioskHUD
import KioskRaster
import KioskSettings
import KioskTestSupport
import Testing

/// Parses `text` and returns the error's description (fails the test if it parses or throws
/// something else).
private func errorText(_ text: String, source: String = "test.toml",
                       sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let error = caught(SettingsError.self) { _ = try BoardProfile.parse(text, source: source) }
    #expect(error != nil, "expected a SettingsError", sourceLocation: sourceLocation)
    return error?.description ?? ""
}

/// The package root: Tests/KioskBoardsTests/<this file> → ../..
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func trimmingTrailingNewlines(_ s: String) -> String {
    var s = Substring(s)
    while s.last?.isNewline == true { s = s.dropLast() }
    return String(s)
}

@Suite struct BoardProfileTests {
    // MARK: The generic profile

    /// Boards/generic.toml is generated from the settings table (every setting's declared
    /// default and help): the file and the declarations never disagree.
    /// `KIOSK_RECORD_PROFILES=1 swift test` writes it again (and fails, so a re-record is seen).
    @Test func boardsGenericTomlIsGeneratedFromTheTable() throws {
        let url = packageRoot.appendingPathComponent("Boards/generic.toml")
        let generated = BoardProfile.generic.boardFile(header: BoardProfile.genericHeader)
        if ProcessInfo.processInfo.environment["KIOSK_RECORD_PROFILES"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("re-recorded \(url.path) (KIOSK_RECORD_PROFILES=1)")
            return
        }
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file == generated, "Boards/generic.toml differs from the settings table: KIOSK_RECORD_PROFILES=1 swift test writes it again")
        #expect(try BoardProfile.parse(file, source: url.path) == BoardProfile.generic)
    }

    @Test func genericIsTheDeclaredDefaults() throws {
        let p = BoardProfile.generic
        #expect(p.name == "generic")
        #expect(p.width == 800 && p.height == 480)
        #expect(p.scale == nil && p.style.scale == 1)  // nil: from the panel's physical size (1 offscreen)
        #expect(p.format == .xrgb8888)
        #expect(p.underlayColor == .black)
        #expect(p.style.fontPaths == [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
            "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        ])
        // MBProgressHUD's defaults, as HUDStyle has them.
        let d = HUDStyle()
        #expect(p.style.margin == d.margin && p.style.padding == d.padding)
        #expect(p.style.cornerRadius == d.cornerRadius)
        #expect(p.style.labelFontSize == d.labelFontSize && p.style.detailsFontSize == d.detailsFontSize)
        #expect(p.style.buttonFontSize == d.buttonFontSize)
        #expect(p.style.contentColor.premultiplied == d.contentColor.premultiplied)
        #expect(p.style.bezelColor.premultiplied == d.bezelColor.premultiplied)
        #expect(p.style.bezelStyle == .solid)
        #expect(p.style.background == HUDBackground.none)
        #expect(p.style.motionDepth == d.motionDepth)
        #expect(p.timing == PresentationConfig())
    }

    @Test func emptyTextGivesTheGenericProfile() throws {
        #expect(try BoardProfile.parse("", source: "empty.toml") == BoardProfile.generic)
    }

    // MARK: Each setting is applied

    @Test func displaySettings() throws {
        let p = try BoardProfile.parse("""
            name = "pi-7inch"
            [display]
            size = "1024x600"
            scale = 2.0
            format = "rgb565"
            underlay_color = "#102030"
            """, source: "t.toml")
        #expect(p.name == "pi-7inch")
        #expect(p.width == 1024 && p.height == 600)
        #expect(p.scale == 2 && p.style.scale == 2)
        #expect(p.format == .rgb565)
        #expect(p.underlayColor == Color(rgb: 0x102030))

        let q = try BoardProfile.parse("[display]\nsize = \"8192x1\"\nscale = 3\nformat = \"argb8888\"", source: "t")
        #expect(q.width == 8192 && q.height == 1)
        #expect(q.scale == 3)  // an integer is a number too
        #expect(q.format == .argb8888)
        #expect(try BoardProfile.parse("[display]\nformat = \"xrgb8888\"", source: "t").format == .xrgb8888)
        #expect(try BoardProfile.parse("[display]\nscale = 8", source: "t").scale == 8)
    }

    @Test func fontSettings() throws {
        let both = try BoardProfile.parse("""
            [fonts]
            primary = "/opt/fonts/A.ttf"
            fallbacks = ["/opt/fonts/B.ttf", "/opt/fonts/C.ttc"]
            """, source: "t")
        #expect(both.style.fontPaths == ["/opt/fonts/A.ttf", "/opt/fonts/B.ttf", "/opt/fonts/C.ttc"])

        let primaryOnly = try BoardProfile.parse("[fonts]\nprimary = \"/opt/fonts/A.ttf\"", source: "t")
        #expect(primaryOnly.style.fontPaths == ["/opt/fonts/A.ttf"] + BoardProfile.generic.style.fontPaths.dropFirst())

        let noFallbacks = try BoardProfile.parse("[fonts]\nfallbacks = []", source: "t")
        #expect(noFallbacks.style.fontPaths == [BoardProfile.generic.style.fontPaths[0]])
    }

    @Test func styleNumbers() throws {
        let p = try BoardProfile.parse("""
            [style]
            margin = 12.5
            padding = 0
            corner_radius = 9
            label_size = 20
            details_size = 14.5
            button_size = 1
            motion_depth = 0
            """, source: "t")
        #expect(p.style.margin == 12.5)
        #expect(p.style.padding == 0)
        #expect(p.style.cornerRadius == 9)
        #expect(p.style.labelFontSize == 20)
        #expect(p.style.detailsFontSize == 14.5)
        #expect(p.style.buttonFontSize == 1)
        #expect(p.style.motionDepth == 0)
    }

    @Test func themeAndColours() throws {
        let dark = try BoardProfile.parse("[style]\ntheme = \"dark\"", source: "t")
        #expect(dark.style.bezelColor == HUDStyle.dark.bezelColor)
        #expect(dark.style.contentColor == HUDStyle.dark.contentColor)

        let light = try BoardProfile.parse("[style]\ntheme = \"light\"", source: "t")
        #expect(light.style.bezelColor == HUDStyle.light.bezelColor)
        #expect(light.style.contentColor == HUDStyle.light.contentColor)

        // #RRGGBB is opaque; #RRGGBBAA carries alpha; hex digits in either case. Explicit colours beat the theme.
        let p = try BoardProfile.parse("""
            [style]
            theme = "dark"
            content_color = "#FF8000"
            bezel_color = "#10203040"
            """, source: "t")
        #expect(p.style.contentColor == Color(rgb: 0xFF8000))
        #expect(p.style.bezelColor == Color(rgb: 0x102030, a: Double(0x40) / 255))
        let lower = try BoardProfile.parse("[style]\nbezel_color = \"#abcdefff\"", source: "t")
        #expect(lower.style.bezelColor == Color(rgb: 0xABCDEF, a: 1))
    }

    @Test func bezelBlur() throws {
        let blur = try BoardProfile.parse("[style]\nbezel = \"blur\"\nblur_radius = 6.5", source: "t")
        #expect(blur.style.bezelStyle == .blur(radius: 6.5))
        let defaultRadius = try BoardProfile.parse("[style]\nbezel = \"blur\"", source: "t")
        #expect(defaultRadius.style.bezelStyle == .blur(radius: 10))
        let solid = try BoardProfile.parse("[style]\nbezel = \"solid\"\nblur_radius = 3", source: "t")
        #expect(solid.style.bezelStyle == .solid)
    }

    @Test func backgrounds() throws {
        #expect(try BoardProfile.parse("[style]\nbackground = \"none\"", source: "t").style.background == HUDBackground.none)
        #expect(try BoardProfile.parse("[style]\nbackground = \"gradient\"", source: "t").style.background == .gradient)
        let dim = try BoardProfile.parse("[style]\nbackground = \"dim\"\ndim_color = \"#11223380\"", source: "t")
        #expect(dim.style.background == .dim(Color(rgb: 0x112233, a: Double(0x80) / 255)))
        let defaultDim = try BoardProfile.parse("[style]\nbackground = \"dim\"", source: "t")
        #expect(defaultDim.style.background == .dim(Color(rgb: 0, a: Double(0x80) / 255)))
    }

    @Test func timingValues() throws {
        let p = try BoardProfile.parse("""
            [timing]
            grace_time = 0.5
            min_show_time = 1.5
            animation = "zoomIn"
            animation_duration = 0.25
            """, source: "t")
        #expect(p.timing.graceTime == 0.5)
        #expect(p.timing.minShowTime == 1.5)
        #expect(p.timing.animation == .zoomIn)
        #expect(p.timing.animationDuration == 0.25)
        #expect(try BoardProfile.parse("[timing]\ngrace_time = 2", source: "t").timing.graceTime == 2)
    }

    @Test(arguments: [("fade", AnimationKind.fade), ("zoom", .zoom), ("zoomIn", .zoomIn), ("zoomOut", .zoomOut)])
    func animationKinds(_ name: String, _ kind: AnimationKind) throws {
        let p = try BoardProfile.parse("[timing]\nanimation = \"\(name)\"", source: "t")
        #expect(p.timing.animation == kind)
    }

    // MARK: Errors

    @Test func malformedTOMLNamesFileLineAndColumn() {
        for (text, line) in [("name = \"x\"\n[display\nsize = \"1x1\"\n", 2),
                             ("name = \"x\"\n\n[style]\nmargin = \n", 4),
                             ("name = \"a\"\nname = \"b\"\n", 2)] {
            let message = errorText(text, source: "boards/bad.toml")
            let parts = message.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            #expect(parts.count == 4, "\(message)")
            guard parts.count == 4 else { continue }
            #expect(parts[0] == "boards/bad.toml")
            #expect(Int(parts[1]) == line, "\(message)")
            #expect(Int(parts[2]).map { $0 >= 1 } == true, "\(message)")
            #expect(!parts[3].trimmingCharacters(in: .whitespaces).isEmpty)
        }
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var toml: String
        /// Fragments the message must contain (besides the source name).
        var mentions: [String]
        var testDescription: String { toml.replacingOccurrences(of: "\n", with: " ⏎ ") }
        init(_ toml: String, _ mentions: String...) { self.toml = toml; self.mentions = mentions }
    }

    static let unknownKeys: [Bad] = [
        Bad("colour = \"red\"", "colour", "unknown key"),
        Bad("[displays]\nsize = \"1x1\"", "displays", "unknown section"),
        Bad("[display]\nrotate = 90", "[display] rotate", "unknown key"),
        Bad("[fonts]\nprimery = \"/a.ttf\"", "[fonts] primery", "unknown key"),
        Bad("[style]\nmargn = 3", "[style] margn", "unknown key"),
        Bad("[timing]\ngrace = 1", "[timing] grace", "unknown key"),
    ]

    static let wrongTypes: [Bad] = [
        Bad("name = 3", "name", "expected"),
        Bad("display = 3", "display", "expected"),
        Bad("[display]\nsize = 800", "[display] size", "expected"),
        Bad("[display]\nscale = \"2\"", "[display] scale", "expected"),
        Bad("[display]\nunderlay = 0", "[display] underlay", "expected"),
        Bad("[fonts]\nprimary = 1", "[fonts] primary", "expected"),
        Bad("[fonts]\nfallbacks = \"/a.ttf\"", "[fonts] fallbacks", "expected"),
        Bad("[fonts]\nfallbacks = [\"/a.ttf\", 2]", "[fonts] fallbacks", "expected"),
        Bad("[style]\nmargin = \"20\"", "[style] margin", "expected"),
        Bad("[style]\nlabel_size = true", "[style] label_size", "expected"),
        Bad("[style]\nblur_radius = \"10\"", "[style] blur_radius", "expected"),
        Bad("[style]\nmargin = nan", "[style] margin", "expected"),
        Bad("[style]\npadding = inf", "[style] padding", "expected"),
        Bad("[style]\ntheme = 1", "[style] theme", "expected"),
        Bad("[timing]\nanimation_duration = \"0.3\"", "[timing] animation_duration", "expected"),
        Bad("[timing]\nanimation = 2", "[timing] animation", "expected"),
    ]

    static let outOfRange: [Bad] = [
        Bad("[style]\nmargin = -1", "[style] margin", "-1", "from 0 to 1000"),
        Bad("[style]\npadding = -0.5", "[style] padding", "from 0 to 1000"),
        Bad("[style]\ncorner_radius = -2", "[style] corner_radius", "from 0 to 1000"),
        Bad("[style]\nmotion_depth = -1", "[style] motion_depth", "from 0 to 100"),
        Bad("[style]\nlabel_size = 0", "[style] label_size", "font size"),
        Bad("[style]\ndetails_size = -3", "[style] details_size", "font size"),
        Bad("[style]\nbutton_size = 501", "[style] button_size", "font size"),
        Bad("[display]\nscale = 0", "[display] scale", "above 0 up to 8"),
        Bad("[display]\nscale = -1.5", "[display] scale", "above 0 up to 8"),
        Bad("[display]\nscale = 8.5", "[display] scale", "above 0 up to 8"),
        Bad("[display]\nsize = \"0x10\"", "[display] size", "0x10", "WIDTHxHEIGHT"),
        Bad("[display]\nsize = \"abc\"", "[display] size", "abc", "WIDTHxHEIGHT"),
        Bad("[display]\nsize = \"800x\"", "[display] size", "WIDTHxHEIGHT"),
        Bad("[display]\nsize = \"800x480x2\"", "[display] size", "WIDTHxHEIGHT"),
        Bad("[display]\nsize = \"8193x10\"", "[display] size", "WIDTHxHEIGHT"),
        Bad("[display]\nsize = \"-800x480\"", "[display] size", "WIDTHxHEIGHT"),
        Bad("[timing]\ngrace_time = -1", "[timing] grace_time", "from 0 to 3600"),
        Bad("[timing]\nmin_show_time = -0.1", "[timing] min_show_time", "from 0 to 3600"),
        Bad("[timing]\nanimation_duration = -0.3", "[timing] animation_duration", "from 0 to 10"),
    ]

    static let badColours: [Bad] = [
        Bad("[style]\nbezel_color = \"#12345\"", "[style] bezel_color", "#12345", "#RRGGBB"),
        Bad("[style]\ncontent_color = \"#GGGGGG\"", "[style] content_color", "#RRGGBB"),
        Bad("[style]\ndim_color = \"red\"", "[style] dim_color", "#RRGGBB"),
        Bad("[display]\nunderlay_color = \"#1234567\"", "[display] underlay_color", "#RRGGBB"),
        Bad("[display]\nunderlay_color = \"\"", "[display] underlay_color", "#RRGGBB"),
    ]

    static let badEnums: [Bad] = [
        Bad("[display]\nformat = \"bgr888\"", "[display] format", "bgr888", "xrgb8888, argb8888 or rgb565"),
        Bad("[style]\ntheme = \"blue\"", "[style] theme", "blue", "light or dark"),
        Bad("[style]\nbezel = \"glass\"", "[style] bezel", "glass", "solid or blur"),
        Bad("[style]\nbackground = \"blur\"", "[style] background", "none, dim or gradient"),
        Bad("[style]\nbackground = \"Dim\"", "[style] background", "none, dim or gradient"),
        Bad("[timing]\nanimation = \"slide\"", "[timing] animation", "slide", "fade, zoom, zoomIn or zoomOut"),
    ]

    @Test(arguments: unknownKeys + wrongTypes + outOfRange + badColours + badEnums)
    func rejectsWithAMessageNamingTheKey(_ bad: Bad) {
        let message = errorText(bad.toml, source: "boards/x.toml")
        #expect(message.hasPrefix("boards/x.toml:"), "\(message)")
        #expect(message.split(separator: ":").count >= 4 && Int(message.split(separator: ":")[1]) != nil, "no line: \(message)")
        for fragment in bad.mentions {
            #expect(message.contains(fragment), "\(message) should mention \(fragment)")
        }
    }

    @Test func negativeBlurRadiusIsRejected() {
        let message = errorText("[style]\nbezel = \"blur\"\nblur_radius = -5", source: "t.toml")
        #expect(message.contains("[style] blur_radius"))
        #expect(message.contains("from 0 to 100"))
    }

    @Test func colourWithASignIsRejected() {
        let message = errorText("[style]\nbezel_color = \"#+12345\"", source: "t.toml")
        #expect(message.contains("[style] bezel_color"))
    }

    @Test func sizeWithASignIsRejected() {
        let message = errorText("[display]\nsize = \"+800x+480\"", source: "t.toml")
        #expect(message.contains("[display] size"))
    }
}

/// Every profile shipped in Boards/ parses, and the display/touch sections are applied.
@Suite struct ShippedBoardsTests {
    static let boardsDir: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/KioskBoardsTests/file
        return parts.joined(separator: "/") + "/Boards"
    }()

    static func read(_ name: String) throws -> String {
        let path = boardsDir + "/" + name
        guard let f = fopen(path, "rb") else { Issue.record("cannot open \(path)"); return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            bytes += buf[0..<n]
            if n < buf.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let shipped: [String] = (try? Files.shippedProfiles().map { $0.name + ".toml" }) ?? []

    @Test func everyExpectedProfileIsShipped() {
        #expect(Self.shipped == ["beagleplay-hdmi.toml", "generic.toml", "rk3566-accelerometer.toml", "rpi-touch-display-2.toml",
                                 "rpi-touch-display.toml", "rpi-zero2w-hdmi.toml", "rpi3-waveshare35.toml", "tablet-accelerometer.toml",
                                 "x86-panel-pc.toml"])
    }

    /// Every shipped profile parses and validates, is named like its file, says where its
    /// numbers come from, and (but generic) has [match] rules.
    @Test(arguments: shipped)
    func parses(_ name: String) throws {
        let text = try Self.read(name)
        let p = try BoardProfile.parse(text, source: name)
        #expect(p.name + ".toml" == name)
        if name != "generic.toml" {
            #expect(!p.match.isEmpty, "\(name) has no [match] rules")
            #expect(text.contains("# Where the numbers come from"), "\(name) does not say where its numbers come from")
        }
    }

    @Test func displayAndTouchKeys() throws {
        let p = try BoardProfile.parse(try Self.read("rpi-touch-display-2.toml"), source: "t")
        #expect(p.display.rotation == .quarter)
        #expect(p.display.connectors == ["DSI-1", "DSI-2"])
        #expect(p.scale == 1.5 && p.width == 1280)
        let q = try BoardProfile.parse("""
            [display]
            card = "/dev/dri/card1"
            mode = "1024x600@60"
            rotation = 270
            [touch]
            matrix = "0, -1, 1, 1, 0, 0"
            device = "Goodix"
            keys = [28]
            tap_outside = true
            """, source: "t")
        #expect(q.display.card == "/dev/dri/card1" && q.display.mode == "1024x600@60" && q.display.rotation == .threeQuarters)
        #expect(q.touch.matrix == [0, -1, 1, 1, 0, 0] && q.touch.device == "Goodix" && q.touch.keys == [28] && q.touch.tapOutside)
    }

    @Test(arguments: [
        ("[display]\nrotation = 45", "rotation"), ("[display]\nmode = \"fast\"", "mode"), ("[display]\ncard = \"card0\"", "card"),
        ("[touch]\nmatrix = \"1, 2, 3\"", "matrix"), ("[touch]\nkeys = [0]", "keys"), ("[touch]\nkeys = \"enter\"", "keys"),
        ("[touch]\nbutton = 1", "button"),
    ])
    func badDisplayAndTouchValues(_ text: String, _ key: String) {
        do {
            _ = try BoardProfile.parse(text, source: "t.toml")
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(key), "\(error)")
        }
    }

    /// A bad touch matrix's error line stays within 200 characters however long the value
    /// (found by kiosk-hud-fuzz toml: up to 621 characters, the offending number echoed whole
    /// in the reason after the value cut at 80).
    @Test func touchMatrixErrorsStayShort() {
        let long = String(repeating: "9", count: 300) + ",1,0,0,1,0"
        #expect(errorText("[touch]\nmatrix = \"\(long)\"\n", source: "board.toml")
                == "board.toml:2:10: [touch] matrix = \"" + String(repeating: "9", count: 79)
                + "…: expected six numbers or rotate-90/180/270 (value 1 is not finite)")
        #expect(errorText("[touch]\nmatrix = \"-0.5, -0.5, 0, -0.5, -0.5, -0.5\"\n", source: "board.toml")
                == "board.toml:2:10: [touch] matrix = \"-0.5, -0.5, 0, -0.5, -0.5, -0.5\": expected six numbers or rotate-90/180/270 (degenerate: a·e − b·d = 0)")
        let words = "x1 " + String(repeating: "x", count: 200) + " 0 0 1 0"
        let line = errorText("[touch]\nmatrix = \"\(words)\"\n", source: "board.toml")
        #expect(line.hasSuffix("…: expected six numbers or rotate-90/180/270 (value 1 is not a number)"), "\(line)")
        #expect(line.count <= 193, "\(line.count) characters")
    }
}
