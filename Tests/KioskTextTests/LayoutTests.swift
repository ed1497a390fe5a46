import KioskText
import Testing

@Suite struct LayoutTests {
    @Test func wrapsAtSpaces() throws {
        let font = try defaultFont(12)
        // "Updating" is 64 px, " " 4 px, "firmware 3 of 7" 102 px (unkerned).
        let layout = font.layout("Updating firmware 3 of 7", options: unkerned(maxWidth: 102))
        #expect(layout.lines.map(\.text) == ["Updating", "firmware 3 of 7"])
        #expect(layout.lines.map(\.width) == [64, 102])
        #expect(layout.lines[1].glyphs.first?.penX == 0)
        #expect(layout.width == 102)
        #expect(layout.height == 30)
        #expect(!layout.truncated)
        #expect(layout.baseline(ofLine: 1) == 15 + 12)
        let narrower = font.layout("Updating firmware 3 of 7", options: unkerned(maxWidth: 101))
        #expect(narrower.lines.map(\.text) == ["Updating", "firmware 3 of", "7"])
        #expect(narrower.lines.map(\.width) == [64, 90, 8])
    }

    @Test func spacesAtWrapPointAreDropped() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Updating    firmware", options: unkerned(maxWidth: 100))
        #expect(layout.lines.map(\.text) == ["Updating", "firmware"])
        #expect(layout.lines.map(\.width) == [64, 61])
    }

    @Test func longWordBreaksAtCharacterBoundary() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel", options: unkerned(maxWidth: 20))
        #expect(layout.lines.map(\.text) == ["Ca", "nc", "el"])
        #expect(layout.lines.map(\.width) == [17, 16, 12])
        #expect(layout.lines.allSatisfy { $0.width <= 20 })
    }

    @Test func longWordAfterShortWord() throws {
        let font = try defaultFont(12)
        let layout = font.layout("3 Cancellation", options: unkerned(maxWidth: 40))
        #expect(layout.lines.first?.text == "3")
        #expect(layout.lines.dropFirst().map(\.text).joined() == "Cancellation")
        #expect(layout.lines.allSatisfy { $0.width <= 40 })
    }

    @Test func newlineForcesBreak() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel\nCancel", options: unkerned())
        #expect(layout.lines.map(\.text) == ["Cancel", "Cancel"])
        #expect(layout.lines.map(\.width) == [45, 45])
        #expect(layout.height == 30)
        #expect(font.layout("a\r\nb\n\nc").lines.map(\.text) == ["a", "b", "", "c"])
    }

    @Test func labelTooWideGetsEllipsis() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Updating firmware 3 of 7", options: .label(maxWidth: 60, kerning: false))
        #expect(layout.lines.count == 1)
        let line = try #require(layout.lines.first)
        #expect(line.text.hasSuffix("…"))
        #expect(line.text.hasPrefix("Updat"))
        #expect(line.width <= 60)
        #expect(layout.truncated)
        // As much text as fits: one more character would not.
        let ellipsis = font.glyph(for: "…").advance
        let kept = line.glyphs.count - 1
        let offsets = [0, 10, 19, 28, 36, 42, 46, 55, 64]
        #expect(offsets[kept] + ellipsis <= 60)
        #expect(offsets[kept + 1] + ellipsis > 60)
    }

    @Test func labelThatFitsIsUntouched() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel", options: .label(maxWidth: 45, kerning: false))
        #expect(layout.lines.map(\.text) == ["Cancel"])
        #expect(!layout.truncated)
    }

    @Test func ellipsisThatDoesNotFitGivesEmptyLine() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel", options: .label(maxWidth: 3))
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].glyphs.isEmpty)
        #expect(layout.width == 0)
        #expect(layout.truncated)
    }

    @Test func maxLinesCutsWithEllipsis() throws {
        let font = try defaultFont(12)
        let text = "Updating firmware 3 of 7"
        let one = font.layout(text, options: unkerned(maxWidth: 100, maxLines: 1))
        #expect(one.lines.count == 1)
        #expect(one.lines[0].text.hasPrefix("Updating f"))
        #expect(one.lines[0].text.hasSuffix("…"))
        #expect(one.lines[0].width <= 100)
        #expect(one.truncated)

        let two = font.layout(text, options: unkerned(maxWidth: 70, maxLines: 2))
        #expect(two.lines.count == 2)
        #expect(two.lines[0].text == "Updating")
        #expect(two.lines[1].text.hasPrefix("firm"))
        #expect(two.lines[1].text.hasSuffix("…"))
        #expect(two.lines.allSatisfy { $0.width <= 70 })
        #expect(two.height == 30)

        let fits = font.layout(text, options: unkerned(maxWidth: 102, maxLines: 2))
        #expect(fits.lines.map(\.text) == ["Updating", "firmware 3 of 7"])
        #expect(!fits.truncated)
    }

    @Test func maxLinesCutAtNewline() throws {
        let font = try defaultFont(12)
        let layout = font.layout("Cancel\nretry", options: .details(maxWidth: 200, maxLines: 1))
        #expect(layout.lines.map(\.text) == ["Cancel…"])
        #expect(layout.truncated)
        // Trailing empty lines past the limit are not a cut.
        let trailing = font.layout("Cancel\n", options: .details(maxWidth: 200, maxLines: 1))
        #expect(trailing.lines.map(\.text) == ["Cancel"])
        #expect(!trailing.truncated)
    }

    @Test func emptyText() throws {
        let font = try defaultFont(16)
        let layout = font.layout("")
        #expect(layout.lines.isEmpty)
        #expect(layout.height == 0 && layout.width == 0)
        #expect(font.layout(utf8: [UInt8]()).lines.isEmpty)
        #expect(font.advance(of: "") == 0)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let font = try defaultFont(16)
        let layout = font.layout(utf8: [0x41, 0xFF, 0xC3, 0x28, 0x42])
        let glyphs = try #require(layout.lines.first).glyphs
        #expect(glyphs.map(\.scalar) == ["A", "\u{FFFD}", "\u{FFFD}", "(", "B"])
        #expect(glyphs[1].glyph === glyphs[2].glyph)
        #expect(glyphs[1].glyph.advance > 0)
        #expect(!glyphs[1].glyph.isNotdef)
        // Truncated sequences at the end and overlong encodings too.
        let more = font.layout(utf8: [0xE2, 0x80, 0x41, 0xC0, 0xAF, 0xF0, 0x9F])
        #expect(more.lines[0].glyphs.map(\.scalar).filter { $0 == "\u{FFFD}" }.count >= 3)
    }

    @Test func tabsAndControlCharacters() throws {
        let font = try defaultFont(12)
        #expect(font.advance(of: "a\tb") == font.advance(of: "a b"))
        #expect(font.advance(of: "a\u{1}\u{7F}\u{200B}b", kerning: false) == font.advance(of: "ab", kerning: false))
        #expect(font.layout("a\u{1}b").lines.map(\.text) == ["ab"])
    }

    @Test func unknownCharacterUsesPrimaryNotdef() throws {
        let library = try FontLibrary()
        let font = try library.font(FontSpec(paths: [Fonts.bold], pixelSize: 16))
        let glyph = font.glyph(for: "\u{E000}")  // private use: in no font
        #expect(glyph.isNotdef)
        #expect(glyph.faceIndex == 0)
        #expect(glyph.advance > 0)
        #expect(!font.hasGlyph(for: "\u{E000}"))
    }
}
