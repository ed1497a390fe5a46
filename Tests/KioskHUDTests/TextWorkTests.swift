import KioskRaster
@testable import KioskText
import KioskHUD
import Testing

/// The work and memory one request's text can cause: laid out at most once per frame (and only
/// when content or style changed), its glyphs within the library's budget.
@Suite struct TextWorkTests {
    static let content = HUDContent(mode: .annular, progress: 0.2, label: "Updating…", details: "Step 2 of 5",
                                    buttonTitle: "Cancel", buttonHasAction: true)

    static func ideographs(_ count: Int, skipping: Int) -> String {
        var view = String.UnicodeScalarView()
        for n in 0..<count { view.append(Unicode.Scalar(UInt32(0x4E00 + skipping + n))!) }
        return String(view)
    }

    @Test func textIsLaidOutOncePerChangeAndNeverPerFrame() throws {
        let fonts = try FontLibrary()
        let r = try HUDRenderer(width: 800, height: 480, fonts: fonts, content: Self.content)
        #expect(fonts.layoutPasses == 1)
        for i in 0..<5 {
            r.setProgress(Double(i) / 5)
            r.render(HUDFrameState(opacity: 0.5 + Double(i) / 10, progress: Double(i) / 5, spinnerPhase: i, motionX: Double(i)))
        }
        #expect(fonts.layoutPasses == 1, "frames and progress lay nothing out")
        var c = Self.content
        c.progress = 0.9
        try r.update(content: c)
        #expect(fonts.layoutPasses == 1, "the same text is not laid out again")
        c.label = "Installing…"
        try r.update(content: c)
        r.render(HUDFrameState())
        #expect(fonts.layoutPasses == 2)
        var s = HUDStyle()
        s.labelFontSize = 30
        try r.update(style: s)
        r.render(HUDFrameState())
        #expect(fonts.layoutPasses == 3)
    }

    /// A client's many updates between two frames are laid out once, when the frame needs them;
    /// a hit test between them sees the latest text.
    @Test func updatesBetweenFramesAreLaidOutOnce() throws {
        let fonts = try FontLibrary()
        let r = try HUDRenderer(width: 800, height: 480, fonts: fonts, content: Self.content)
        var c = Self.content
        for i in 0..<50 {
            c.label = "File \(i) of 50"
            try r.update(content: c)
        }
        #expect(fonts.layoutPasses == 1, "no layout until a frame needs one")
        r.render(HUDFrameState())
        #expect(fonts.layoutPasses == 2, "50 updates, one frame: one layout")
        #expect(r.layout.label?.text.lines.count == 1)
        c.buttonTitle = "Stop"
        try r.update(content: c)
        let button = r.layout.button
        #expect(fonts.layoutPasses == 3, "a hit test lays out what changed")
        #expect(button != nil)
        r.render(HUDFrameState())
        #expect(fonts.layoutPasses == 3, "and the frame after it does not again")
    }

    /// Issue #24's requests: label size 500, then three labels of 341 distinct ideographs.
    @Test func largeLabelsOfDistinctCharactersStayWithinTheBudget() throws {
        let fonts = try FontLibrary()
        let r = try HUDRenderer(width: 800, height: 480, fonts: fonts, content: Self.content)
        var s = HUDStyle()
        s.labelFontSize = 500
        try r.update(style: s)
        var c = Self.content
        for n in 0..<3 {
            c.label = Self.ideographs(341, skipping: 341 * n)
            try r.update(content: c)
            r.render(HUDFrameState())
            #expect(fonts.cachedGlyphBytes <= fonts.glyphBudget, "\(fonts.cachedGlyphBytes) bytes held")
        }
        #expect(r.layout.label?.text.truncated == true)
        // What one 500 px line can show, a few measured past it and "…", three times; not 1,023.
        #expect(fonts.renderedGlyphs < 40, "\(fonts.renderedGlyphs) glyphs rendered")
    }
}
