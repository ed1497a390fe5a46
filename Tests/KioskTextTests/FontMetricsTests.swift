import KioskText
import Testing

@Suite struct FontMetricsTests {
    @Test(arguments: [(16, 15, 4, 19), (12, 12, 3, 15)])
    func lineMetrics(px: Int, ascender: Int, descender: Int, lineHeight: Int) throws {
        let font = try defaultFont(px)
        #expect(font.ascender == ascender)
        #expect(font.descender == descender)
        #expect(font.lineHeight == lineHeight)
    }

    @Test func loadingPenOffsets() throws {
        let font = try defaultFont(16)
        let layout = font.layout("Loading…", options: unkerned())
        #expect(penOffsets(layout) == [0, 10, 21, 32, 43, 48, 59, 70])
        #expect(layout.width == 86)
        #expect(font.advance(of: "Loading…", kerning: false) == 86)
        #expect(layout.height == 19)
        #expect(layout.lines.first?.glyphs.allSatisfy { !$0.glyph.isNotdef && $0.glyph.faceIndex == 0 } == true)
    }

    @Test func updatingFirmwarePenOffsets() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Updating firmware 3 of 7", options: unkerned())
        #expect(penOffsets(layout) == [0, 10, 19, 28, 36, 42, 46, 55, 64, 68, 73, 77, 83, 96, 107, 115,
                                       121, 129, 133, 141, 145, 153, 158, 162])
        #expect(layout.width == 170)
        #expect(layout.lines.count == 1)
    }

    @Test func cancelPenOffsets() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel", options: unkerned())
        #expect(penOffsets(layout) == [0, 9, 17, 26, 33, 41])
        #expect(layout.width == 45)
    }

    @Test func kerningChangesPairsOnlyWhenEnabled() throws {
        let font = try defaultFont(16)
        let text = "AVATAR To"
        let plain = font.layout(text, options: unkerned())
        let kerned = font.layout(text, options: TextLayoutOptions(kerning: true))
        #expect(kerned.width < plain.width)
        #expect(font.advance(of: text) == kerned.width)
        #expect(font.advance(of: text, kerning: false) == plain.width)
        let a = font.glyph(for: "A"), v = font.glyph(for: "V")
        #expect(font.kerning(between: a, and: v) < 0)
        // Kerning never applies across faces of the chain.
        #expect(font.kerning(between: a, and: font.glyph(for: "中")) == 0)
    }

    @Test func glyphBitmapShape() throws {
        let font = try defaultFont(16)
        let glyph = font.glyph(for: "L")
        #expect(glyph.width > 0 && glyph.height > 0)
        #expect(glyph.coverage.count == glyph.width * glyph.height)
        #expect(glyph.top > 0 && glyph.top <= font.ascender)
        #expect(glyph.coverage.contains(255))
        let space = font.glyph(for: " ")
        #expect(space.width == 0 && space.advance > 0)
    }

    @Test func glyphCacheReturnsSameObject() throws {
        let library = try FontLibrary()
        let spec = FontSpec(pixelSize: 16)
        let font = try library.font(spec)
        #expect(try library.font(spec) === font)
        let first = font.glyph(for: "g")
        #expect(font.glyph(for: "g") === first)
        let layout = font.layout("gg")
        #expect(layout.lines[0].glyphs[0].glyph === first)
        #expect(layout.lines[0].glyphs[1].glyph === first)
    }

    @Test func sizesShareFacesButNotGlyphs() throws {
        let library = try FontLibrary()
        let small = try library.font(pixelSize: 12), large = try library.font(pixelSize: 16)
        // Interleave use of the two sizes of the same face.
        let a12 = small.glyph(for: "A"), a16 = large.glyph(for: "A")
        #expect(a12.height < a16.height)
        #expect(small.advance(of: "Cancel", kerning: false) == 45)
        #expect(large.advance(of: "Loading…", kerning: false) == 86)
    }

    @Test func missingPrimaryFontIsAnErrorNamingThePath() throws {
        let library = try FontLibrary()
        let path = "/nonexistent/fonts/Missing-Bold.ttf"
        do {
            _ = try library.font(FontSpec(paths: [path, Fonts.bold], pixelSize: 16))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .fontNotFound(path: path))
            #expect(error.description == "font file not found: \(path)")
        }
    }

    @Test func unreadablePrimaryReportsFreeTypeCall() throws {
        let library = try FontLibrary()
        // A file that exists but is not a font.
        let path = "/etc/hostname"
        #expect {
            _ = try library.font(FontSpec(paths: [path], pixelSize: 16))
        } throws: { error in
            let text = "\(error)"
            return text.contains("FT_New_Face") && text.contains(path) && text.contains("unknown file format")
        }
    }

    @Test func invalidSpecs() throws {
        let library = try FontLibrary()
        #expect(throws: TextError.self) { try library.font(FontSpec(paths: [], pixelSize: 16)) }
        #expect(throws: TextError.self) { try library.font(FontSpec(paths: [Fonts.bold], pixelSize: 0)) }
    }

    @Test func startupTiming() throws {
        let clock = ContinuousClock()
        var width = 0
        let elapsed = try clock.measure {
            let library = try FontLibrary()
            let font = try library.font(FontSpec(pixelSize: 16))
            width = font.layout("Loading…").width
        }
        #expect(width > 0)
        print("KioskText: FontLibrary + font(16 px) + first layout of \"Loading…\": \(elapsed)")
    }
}
