import KioskSeams
import KioskHUD
import KioskRaster
import KioskText
import Testing

/// A theme without code: the underlay picture's fit modes and the logo (above the bezel, or alone
/// with the progress under it), against goldens at two aspect ratios and on a panel turned 90°;
/// and the pictures scaled once, not per frame.
@Suite struct ThemeTests {
    static var fonts: FontLibrary { try! FontLibrary() }

    /// 600×300 (2:1): squares of 50 in two blues, a red frame 4 px in from the edges (so what is
    /// cropped shows), a yellow disc in the middle.
    static func underlayPicture() throws -> Bitmap {
        let b = try Bitmap(width: 600, height: 300, format: .argb8888)
        let c = Canvas(b.surface)
        for y in 0..<6 {
            for x in 0..<12 {
                c.fill(IntRect(x: x * 50, y: y * 50, width: 50, height: 50), .solid(Color(rgb: (x + y) % 2 == 0 ? 0x203A70 : 0x2E5AA8)))
            }
        }
        for r in [IntRect(x: 4, y: 4, width: 592, height: 6), IntRect(x: 4, y: 290, width: 592, height: 6),
                  IntRect(x: 4, y: 4, width: 6, height: 292), IntRect(x: 590, y: 4, width: 6, height: 292)] {
            c.fill(r, .solid(Color(rgb: 0xD03020)))
        }
        c.fill(Path.circle(center: Point(300, 150), radius: 60), .solid(Color(rgb: 0xF0C030)))
        return b
    }

    /// 120×48: a white rounded plate with a teal disc and bar on a transparent surround.
    static func logoPicture() throws -> Bitmap {
        let b = try Bitmap(width: 120, height: 48, format: .argb8888)
        let c = Canvas(b.surface)
        c.fill(Path.roundedRect(Rect(x: 2, y: 2, width: 116, height: 44), radius: 10), .solid(Color(white: 1, a: 0.95)))
        c.fill(Path.circle(center: Point(26, 24), radius: 14), .solid(Color(rgb: 0x11867F)))
        c.fill(Path.roundedRect(Rect(x: 48, y: 18, width: 60, height: 12), radius: 6), .solid(Color(rgb: 0x11867F)))
        return b
    }

    static let sizes: [[Int]] = [[800, 480], [480, 800]]
    static let fits: [UnderlayFit] = UnderlayFit.allCases

    static func renderer(_ w: Int, _ h: Int, mode: HUDMode, placement: LogoPlacement = .above) throws -> HUDRenderer {
        var s = HUDStyle.dark
        s.logoPlacement = placement
        let content = HUDContent(mode: mode, progress: 0.6, label: "Starting…")
        return try HUDRenderer(width: w, height: h, fonts: fonts, style: s, content: content)
    }

    @Test(arguments: fits, sizes)
    func underlayFit(_ fit: UnderlayFit, size: [Int]) throws {
        let r = try Self.renderer(size[0], size[1], mode: .bar)
        r.setUnderlay(color: Color(rgb: 0x101418), image: try Self.underlayPicture(), fit: fit)
        r.render(HUDFrameState(progress: 0.6))
        try Golden.check(r.shadow, "underlay-\(fit.rawValue)-\(size[0])x\(size[1])")
    }

    static let placements: [LogoPlacement] = [.above, .alone]

    @Test(arguments: placements, sizes)
    func logo(_ placement: LogoPlacement, size: [Int]) throws {
        let r = try Self.renderer(size[0], size[1], mode: .bar, placement: placement)
        r.setUnderlay(color: Color(rgb: 0x101418))
        r.setLogo(try Self.logoPicture())
        r.render(HUDFrameState(progress: 0.6))
        try Golden.check(r.shadow, "logo-\(placement.rawValue)-\(size[0])x\(size[1])")
    }

    /// An 800×480 panel turned 90°: the picture is drawn 480×800 and the panel gets it turned,
    /// as the display's copy does (DisplayTransform.toPanel).
    @Test func logoAloneOnAPanelTurned90() throws {
        let r = try Self.renderer(480, 800, mode: .bar, placement: .alone)
        r.setUnderlay(color: Color(rgb: 0x101418), image: try Self.underlayPicture(), fit: .fit)
        r.setLogo(try Self.logoPicture())
        r.render(HUDFrameState(progress: 0.6))
        let t = DisplayTransform(rotation: .quarter, width: 480, height: 800)
        let panel = try Bitmap(width: t.panelWidth, height: t.panelHeight, format: .xrgb8888)
        for y in 0..<800 {
            for x in 0..<480 {
                let p = t.toPanel(x: Double(x) + 0.5, y: Double(y) + 0.5)
                panel.surface.row32(Int(p.y))[Int(p.x)] = r.shadow.surface.pixel(x: x, y: y)
            }
        }
        try Golden.check(panel, "logo-alone-800x480-rotated-90")
    }

    /// The logo is scaled when set, once: many frames (progress, fades, a new label) draw the
    /// same scaled bitmap; a new size scales it again, once.
    @Test func logoIsScaledOnceAcrossFrames() throws {
        let r = try Self.renderer(800, 480, mode: .bar, placement: .above)
        r.setLogo(try Self.logoPicture())
        #expect(r.logoScalings == 1)
        let scaled = try #require(r.logo)
        #expect(scaled.height == 64 && scaled.width == 160)
        for i in 0..<60 {
            r.render(HUDFrameState(opacity: Double(i % 10) / 10, progress: Double(i) / 60))
            if i == 30 { try r.update(content: HUDContent(mode: .bar, progress: 0.5, label: "Another label")) }
        }
        #expect(r.logoScalings == 1)
        #expect(r.logo === scaled)
        var s = r.style
        s.logoSize = 32
        try r.update(style: s)
        #expect(r.logoScalings == 2)
        #expect(r.logo?.height == 32)
        for i in 0..<10 { r.render(HUDFrameState(progress: Double(i) / 10)) }
        #expect(r.logoScalings == 2)
    }

    /// Never more than twice the picture's own size, and never wider than the frame.
    @Test func logoIsNotEnlargedBeyondTwice() throws {
        let r = try Self.renderer(800, 480, mode: .bar)
        var s = r.style
        s.logoSize = 500
        try r.update(style: s)
        r.setLogo(try Self.logoPicture())
        #expect(r.logo?.width == 240 && r.logo?.height == 96)
        s.logoSize = 20
        s.scale = 2
        try r.update(style: s)
        #expect(r.logo?.height == 40)
    }

    /// A frame updated by damage (progress moving under a lone logo) equals a full redraw.
    @Test func aloneDamageMatchesAFullRedraw() throws {
        let a = try Self.renderer(800, 480, mode: .bar, placement: .alone)
        let b = try Self.renderer(800, 480, mode: .bar, placement: .alone)
        for r in [a, b] { r.setUnderlay(color: Color(rgb: 0x101418), image: try Self.underlayPicture()); r.setLogo(try Self.logoPicture()) }
        a.render(HUDFrameState(progress: 0.1))
        let d = a.render(HUDFrameState(progress: 0.7))
        #expect(!d.isEmpty && d.rects.allSatisfy { $0.height < 100 })
        print("[theme] a progress frame under a lone logo at 800x480 redraws \(d.rects.map { "\($0.width)x\($0.height)" })")
        b.renderFull(HUDFrameState(progress: 0.7))
        #expect(a.shadow.rgbaBytes() == b.shadow.rgbaBytes())
    }

    /// A new label under a lone logo (a boot splash's status) redraws what it changes, and that
    /// equals a full redraw.
    @Test func aloneLabelChangeMatchesAFullRedraw() throws {
        let a = try Self.renderer(800, 480, mode: .bar, placement: .alone)
        let b = try Self.renderer(800, 480, mode: .bar, placement: .alone)
        let next = HUDContent(mode: .bar, progress: 0.6, label: "Mounting /data")
        for r in [a, b] { r.setLogo(try Self.logoPicture()) }
        a.render(HUDFrameState(progress: 0.6))
        try a.update(content: next)
        a.render(HUDFrameState(progress: 0.6))
        try b.update(content: next)
        b.renderFull(HUDFrameState(progress: 0.6))
        #expect(a.shadow.rgbaBytes() == b.shadow.rgbaBytes())
    }

    /// Content with a button keeps the bezel (the button must be seen to be pressed): alone
    /// draws as above does.
    @Test func aloneWithAButtonKeepsTheBezel() throws {
        var content = HUDContent(mode: .bar, progress: 0.6, label: "Updating", buttonTitle: "Cancel", buttonHasAction: true)
        let alone = try Self.renderer(800, 480, mode: .bar, placement: .alone)
        let above = try Self.renderer(800, 480, mode: .bar, placement: .above)
        for r in [alone, above] {
            try r.update(content: content)
            r.setLogo(try Self.logoPicture())
            r.render(HUDFrameState(progress: 0.6))
        }
        #expect(alone.shadow.rgbaBytes() == above.shadow.rgbaBytes())
        content.buttonTitle = ""
        try alone.update(content: content)
        try above.update(content: content)
        alone.render(HUDFrameState(progress: 0.6))
        above.render(HUDFrameState(progress: 0.6))
        #expect(alone.shadow.rgbaBytes() != above.shadow.rgbaBytes())
    }
}
