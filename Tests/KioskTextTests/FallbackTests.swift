import KioskText
import Testing

@Suite struct FallbackTests {
    @Test func defaultFallbacksIncludeInstalledCJKFont() {
        #expect(FontSpec.defaultFallbacks.contains(Fonts.cjk),
                "install the Debian package fonts-wqy-microhei")
        #expect(FontSpec(pixelSize: 16).paths.first == FontSpec.defaultPrimary)
    }

    @Test func cjkGlyphsComeFromFallback() throws {
        let font = try defaultFont(16)
        let layout = font.layout("加载中")
        let glyphs = try #require(layout.lines.first).glyphs
        #expect(glyphs.count == 3)
        for placed in glyphs {
            #expect(!placed.glyph.isNotdef)
            #expect(placed.glyph.faceIndex > 0)
            #expect(placed.glyph.width > 0 && placed.glyph.advance > 0)
            #expect(FontSpec(pixelSize: 16).paths[placed.glyph.faceIndex] == Fonts.cjk)
        }
        #expect(layout.width > 0)
        #expect(font.glyph(for: "A").faceIndex == 0)
        // Line metrics stay the primary's.
        #expect(layout.height == 19)
    }

    @Test func missingFallbackIsSkipped() throws {
        let library = try FontLibrary()
        let missing = "/nonexistent/fallback.ttf"
        let font = try library.font(FontSpec(paths: [Fonts.bold, missing, Fonts.cjk], pixelSize: 16))
        #expect(font.skippedFallbacks.isEmpty)  // fallbacks open lazily
        let glyph = font.glyph(for: "中")
        #expect(glyph.faceIndex == 2 && !glyph.isNotdef)
        #expect(font.skippedFallbacks == [TextError.fontNotFound(missing)])
    }

    @Test func cjkWrapsBetweenCharacters() throws {
        let font = try defaultFont(16)
        let one = font.glyph(for: "中").advance
        let layout = font.layout("正在加载中请稍候", options: .details(maxWidth: one * 3))
        #expect(layout.lines.map(\.text) == ["正在加", "载中请", "稍候"])
        // Closing punctuation does not start a line.
        let punct = font.layout("正在加。载中", options: .details(maxWidth: one * 3))
        #expect(punct.lines.allSatisfy { !$0.text.hasPrefix("。") })
    }
}
