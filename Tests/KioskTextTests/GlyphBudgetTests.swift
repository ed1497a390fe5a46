import KioskTestSupport
@testable import KioskText
import Testing

/// The glyphs kept in memory are bounded by `FontLibrary.glyphBudget` (least recently used out),
/// and one text renders no more than it can show, nor more than a quarter of the budget.
/// Bytes held are checked, never time or RSS.
@Suite struct GlyphBudgetTests {
    /// `count` distinct CJK ideographs from U+4E00 on, after `skipping` of them.
    static func ideographs(_ count: Int, skipping: Int = 0) -> String {
        var view = String.UnicodeScalarView()
        for n in 0..<count { view.append(Unicode.Scalar(UInt32(0x4E00 + skipping + n))!) }
        return String(view)
    }

    /// What a glyph draws: equal for a glyph rendered again after it was evicted.
    static func look(_ g: Glyph) -> [Int] {
        [g.width, g.height, g.left, g.top, g.advance, Int(g.glyphIndex), g.faceIndex] + g.coverage.map(Int.init)
    }

    @Test func thousandsOfDistinctGlyphsStayWithinTheBudget() throws {
        let budget = 1 << 20
        let library = try FontLibrary(glyphBudget: budget)
        let font = try library.font(pixelSize: 96)
        var most = 0, last: Glyph?
        for scalar in Self.ideographs(2000).unicodeScalars {
            last = font.glyph(for: scalar)
            most = max(most, library.cachedGlyphBytes)
        }
        #expect(most <= budget, "\(most) bytes held, budget \(budget)")
        // The newest stays: asked again, the same object, with no new rendering.
        let rendered = library.renderedGlyphs
        let again = font.glyph(for: Self.ideographs(1, skipping: 1999).unicodeScalars.first!)
        #expect(again === last)
        #expect(library.renderedGlyphs == rendered)
    }

    @Test func largeGlyphsAcrossSizesStayWithinTheBudget() throws {
        let budget = 2 << 20
        let library = try FontLibrary(glyphBudget: budget)
        var most = 0
        for (n, size) in [500, 400, 300].enumerated() {
            let font = try library.font(pixelSize: size)
            for scalar in Self.ideographs(16, skipping: 16 * n).unicodeScalars {
                _ = font.glyph(for: scalar)
                most = max(most, library.cachedGlyphBytes)
            }
        }
        #expect(most <= budget, "\(most) bytes held, budget \(budget)")
    }

    @Test func anEvictedGlyphRendersTheSameAgain() throws {
        let library = try FontLibrary(glyphBudget: 64 << 10)
        let font = try library.font(pixelSize: 64)
        let first = font.glyph(for: "漢")
        for scalar in Self.ideographs(100).unicodeScalars { _ = font.glyph(for: scalar) }
        let rendered = library.renderedGlyphs
        let again = font.glyph(for: "漢")
        #expect(again !== first, "evicted, so rendered again")
        #expect(library.renderedGlyphs == rendered + 1)
        #expect(Self.look(again) == Self.look(first))
    }

    @Test func theGlyphsOfAFrameAreKeptUntilItIsLaidOut() throws {
        let budget = 256 << 10
        let library = try FontLibrary(glyphBudget: budget)
        let font = try library.font(pixelSize: 64)
        let texts = (0..<10).map { Self.ideographs(10, skipping: 10 * $0) }   // ~34 kB each
        var layouts: [TextLayout] = []
        var renderedInside = 0
        library.keepingGlyphs {
            for text in texts { layouts.append(font.layout(text)) }
            // Everything this frame used is still cached: the same objects, nothing rendered.
            let rendered = library.renderedGlyphs
            for (text, layout) in zip(texts, layouts) {
                for (scalar, placed) in zip(text.unicodeScalars, layout.lines[0].glyphs) {
                    #expect(font.glyph(for: scalar) === placed.glyph)
                }
            }
            renderedInside = library.renderedGlyphs - rendered
        }
        #expect(renderedInside == 0)
        #expect(layouts.allSatisfy { $0.lines.count == 1 && $0.lines[0].glyphs.count == 10 && !$0.truncated })
        #expect(library.cachedGlyphBytes <= budget, "after the frame, trimmed to the budget")
    }

    @Test func aLabelRendersOnlyWhatItCanShow() throws {
        let library = try FontLibrary()
        let font = try library.font(pixelSize: 500)
        let text = Self.ideographs(100)
        let label = font.layout(text, options: .label(maxWidth: 700))
        #expect(label.truncated)
        #expect(label.lines.count == 1 && label.lines[0].glyphs.last?.scalar == "\u{2026}")
        // One glyph fits 700 px at 500 px; a few more are measured to learn that, not 100.
        #expect(library.renderedGlyphs <= 4, "\(library.renderedGlyphs) glyphs rendered")

        let details = font.layout(Self.ideographs(100, skipping: 100), options: .details(maxWidth: 700, maxLines: 1))
        #expect(details.truncated && details.lines.count == 1)
        #expect(library.renderedGlyphs <= 8, "\(library.renderedGlyphs) glyphs rendered")
    }

    @Test func aTextBeyondItsShareOfTheBudgetIsCutWithAnEllipsis() throws {
        let budget = 256 << 10   // a quarter, 64 kB, is ~20 of these ideographs at 64 px
        let library = try FontLibrary(glyphBudget: budget)
        let font = try library.font(pixelSize: 64)
        let layout = font.layout(Self.ideographs(60))   // no width limit: all of it would be drawn
        #expect(layout.truncated)
        let shown = layout.lines.flatMap(\.glyphs)
        #expect(shown.last?.scalar == "\u{2026}")
        #expect(shown.count < 40, "\(shown.count) glyphs shown")
        let bytes = shown.dropLast().reduce(0) { $0 + $1.glyph.cachedBytes }
        #expect(bytes <= budget / 4 && bytes > budget / 4 - 5000, "\(bytes) bytes of glyphs shown")
        // What is shown, and the one glyph that did not fit: nothing past it.
        #expect(library.renderedGlyphs == shown.count + 1, "\(library.renderedGlyphs) glyphs rendered")
        #expect(shown.dropLast().map(\.scalar) == Array(Self.ideographs(shown.count - 1).unicodeScalars))
    }

    @Test func aFontWhoseGlyphsWereAllEvictedIsDropped() throws {
        let library = try FontLibrary(glyphBudget: 256 << 10)
        _ = try library.font(pixelSize: 20).layout("Loading")
        #expect(library.fontCount == 1)
        let large = try library.font(FontSpec(paths: [Fonts.cjk], pixelSize: 200))
        for scalar in Self.ideographs(20).unicodeScalars { _ = large.glyph(for: scalar) }
        #expect(library.fontCount == 1, "only the 200 px font is left")
        // The files of every font asked for are still named (the frame cache's key).
        #expect(library.fontFiles == FontSpec(pixelSize: 20).paths)
        // Asked for again, the 20 px font is made anew and draws the same.
        let again = try library.font(pixelSize: 20).layout("Loading")
        #expect(again.width == FontLibraryReference.width)
    }

    @Test func theGlyphCacheFileHoldsWhatWasKept() throws {
        let dir = TempDir()
        let budget = 256 << 10
        let first = try FontLibrary(glyphCache: dir.path, glyphBudget: budget)
        let font = try first.font(pixelSize: 64)
        for scalar in Self.ideographs(200).unicodeScalars { _ = font.glyph(for: scalar) }
        let recent = Self.ideographs(5, skipping: 195)
        let reference = font.layout(recent).lines[0].glyphs.map { Self.look($0.glyph) }
        #expect(first.saveGlyphCache().isEmpty)

        let second = try FontLibrary(glyphCache: dir.path, glyphBudget: budget)
        let again = try second.font(pixelSize: 64).layout(recent).lines[0].glyphs.map { Self.look($0.glyph) }
        #expect(again == reference)
        #expect(!second.usedFreeType, "the most recent glyphs were kept, and saved")
        #expect(second.cachedGlyphBytes <= budget)
        // The oldest were evicted before saving: rendered again, the same.
        let old = try second.font(pixelSize: 64).glyph(for: "一")
        #expect(second.usedFreeType)
        let fresh = try FontLibrary().font(pixelSize: 64).glyph(for: "一")
        #expect(Self.look(old) == Self.look(fresh))
    }
}

/// "Loading" at 20 px in the default chain, laid out by a library with no pressure on it.
enum FontLibraryReference {
    static let width: Int = {
        guard let font = try? FontLibrary().font(pixelSize: 20) else { return -1 }
        return font.layout("Loading").width
    }()
}
