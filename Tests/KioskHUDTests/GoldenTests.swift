import KioskHUD
import KioskRaster
import KioskText
import Testing

/// Every mode and preset, at 1× and 2×, against the golden PNGs beside these tests.
@Suite struct GoldenTests {
    static var fonts: FontLibrary { try! FontLibrary() }

    static func content(_ mode: HUDMode) throws -> HUDContent {
        var c = HUDContent(mode: mode, progress: 0.6, label: "Loading…", details: "Updating firmware 3 of 7",
                           buttonTitle: "Cancel", buttonHasAction: true)
        if mode == .custom { c.image = HUDImage(bitmap: try Self.customImage()) }
        return c
    }

    /// A 24×24 picture made here: a blue disc with a transparent surround.
    static func customImage() throws -> Bitmap {
        let b = try Bitmap(width: 24, height: 24, format: .argb8888)
        Canvas(b.surface).fill(Path.circle(center: Point(12, 12), radius: 11), .solid(Color(rgb: 0x2060C0)))
        return b
    }

    static func render(_ mode: HUDMode, scale: Double, style: (inout HUDStyle) -> Void = { _ in }) throws -> Bitmap {
        var s = HUDStyle()
        s.scale = scale
        style(&s)
        let r = try HUDRenderer(width: Int(320 * scale), height: Int(240 * scale), fonts: fonts, style: s,
                                content: try content(mode))
        r.render(HUDFrameState(progress: 0.6, spinnerPhase: 3))
        return r.shadow
    }

    @Test(arguments: HUDMode.allCases, [1.0, 2.0])
    func mode(_ mode: HUDMode, scale: Double) throws {
        try Golden.check(try Self.render(mode, scale: scale), "\(mode.rawValue)@\(Int(scale))x")
    }

    @Test func dimBackground() throws {
        try Golden.check(try Self.render(.annular, scale: 1) { $0.background = .dim(Color(white: 0, a: 0.5)) }, "annular-dim@1x")
    }

    @Test func gradientBackgroundDarkTheme() throws {
        try Golden.check(try Self.render(.indeterminate, scale: 1) {
            $0.background = .gradient
            $0.bezelColor = HUDStyle.dark.bezelColor
            $0.contentColor = HUDStyle.dark.contentColor
        }, "indeterminate-gradient-dark@1x")
    }

    @Test func blurredBezelOverPicture() throws {
        var s = HUDStyle()
        s.bezelStyle = .blur(radius: 10)
        let r = try HUDRenderer(width: 320, height: 240, fonts: Self.fonts, style: s, content: try Self.content(.success))
        let stripes = try Bitmap(width: 24, height: 18, format: .argb8888)
        let c = Canvas(stripes.surface)
        for x in stride(from: 0, to: 24, by: 4) {
            c.fill(IntRect(x: x, y: 0, width: 2, height: 18), .solid(Color(rgb: 0xE04020)))
        }
        r.setUnderlay(color: Color(rgb: 0x204080), image: stripes)
        r.render(HUDFrameState())
        try Golden.check(r.shadow, "success-blur@1x")
    }

    @Test func rgb565Frame() throws {
        let r = try HUDRenderer(width: 320, height: 240, format: .rgb565, fonts: Self.fonts, content: try Self.content(.bar))
        r.render(HUDFrameState(progress: 0.6))
        try Golden.check(r.shadow, "bar-rgb565@1x")
    }
}
