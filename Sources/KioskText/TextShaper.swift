// Turns text into glyph clusters and lines. One glyph per scalar (no
// shaping); breaks only between grapheme clusters (Swift Characters).
//
// Glyphs are rendered when the line breaking or a line first needs them, not for the whole
// text up front: a line that cannot fit stops being measured once it is an em past
// `maxWidth`, and lines past `maxLines` are not measured at all. So a 500 px label of 341
// ideographs on an 800 px screen renders three of them, not 341.
//
// One text also brings at most `GlyphBudget.textLimit` bytes of glyphs into the running pass
// (glyphs an earlier text of the pass used count there; a quarter of the library's budget,
// 1 MiB by default: thousands of glyphs at ordinary sizes, a few at 500 px).
// The first glyph past it ends the text there: the layout is made again with the text cut
// before that glyph's cluster and "…" after it, as when `maxLines` cuts it (the glyphs already
// rendered are reused). So the work and the memory one request can cause are bounded, and such
// text degrades as text that does not fit does.

/// A grapheme cluster's glyphs and its line-breaking class.
struct Cluster {
    enum Kind { case space, cjk, other }
    var kind: Kind
    /// Indices into `TextShaper.scalars` (and its glyphs).
    var range: Range<Int>
    var forbidsBreakBefore: Bool
    var forbidsBreakAfter: Bool
}

/// A line before it is turned into positioned glyphs.
struct LineSpan {
    /// Clusters on the line.
    var clusters: Range<Int>
    /// End of the line's paragraph (for filling an ellipsized last line).
    var paragraphEnd: Int
    /// True when the line ends at a wrap point rather than a paragraph end.
    var wrapped: Bool
}

struct TextShaper {
    let font: Font
    let options: TextLayoutOptions
    /// The glyph of each scalar, once rendered (see `glyph(_:)`).
    private var glyphs: [Glyph?] = []
    private(set) var scalars: [Unicode.Scalar] = []
    /// The cluster of each scalar.
    private var clusterOfScalar: [Int] = []
    private(set) var clusters: [Cluster] = []
    /// Cluster ranges of the paragraphs (text between newlines).
    private(set) var paragraphs: [Range<Int>] = []
    /// The most glyph bytes this text may bring into the running pass, and what it brought.
    private let byteLimit: Int
    private var used = 0
    /// The first cluster whose glyph did not fit `byteLimit`, if one did not.
    private var overLimit: Int?

    init(font: Font, options: TextLayoutOptions) {
        self.font = font
        self.options = options
        byteLimit = font.textLimit
    }

    // MARK: Clusters

    private mutating func split(_ text: String) {
        guard !text.isEmpty else { return }
        var paragraphStart = 0
        for character in text {
            if character.isNewline {
                paragraphs.append(paragraphStart..<clusters.count)
                paragraphStart = clusters.count
                continue
            }
            let start = scalars.count
            if character == " " || character == "\t" || character == "\u{3000}" {
                let scalar: Unicode.Scalar = character == "\u{3000}" ? "\u{3000}" : " "
                append(scalar)
                clusters.append(Cluster(kind: .space, range: start..<scalars.count,
                                        forbidsBreakBefore: false, forbidsBreakAfter: false))
                continue
            }
            for scalar in character.unicodeScalars where !scalar.isInvisibleControl {
                append(scalar)
            }
            guard scalars.count > start, let first = character.unicodeScalars.first else { continue }
            clusters.append(Cluster(kind: first.isBreakableCJK ? .cjk : .other,
                                    range: start..<scalars.count,
                                    forbidsBreakBefore: first.forbidsBreakBefore,
                                    forbidsBreakAfter: first.forbidsBreakAfter))
        }
        paragraphs.append(paragraphStart..<clusters.count)
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        glyphs.append(nil)
        scalars.append(scalar)
        clusterOfScalar.append(clusters.count)
    }

    /// The glyph of scalar `index`, rendered on first use. One that would take the text past
    /// `byteLimit` is not used: `overLimit` records its cluster and an empty glyph stands in (the
    /// text is laid out again, cut before it).
    private mutating func glyph(_ index: Int) -> Glyph {
        if let glyph = glyphs[index] { return glyph }
        // Past the cut already: not rendered at all.
        if let over = overLimit, clusterOfScalar[index] >= over { return TextShaper.standIn }
        let (glyph, new) = font.textGlyph(for: scalars[index])
        if new {
            guard used + glyph.cachedBytes <= byteLimit else {
                overLimit = min(overLimit ?? .max, clusterOfScalar[index])
                return TextShaper.standIn
            }
            used += glyph.cachedBytes
        }
        glyphs[index] = glyph
        return glyph
    }

    private static let standIn = Glyph.empty()

    /// Drops the clusters from `cluster` on, and the paragraphs that start there or later (one
    /// empty paragraph stays when none is left).
    private mutating func cut(before cluster: Int) {
        clusters.removeSubrange(cluster...)
        paragraphs = paragraphs.filter { $0.lowerBound < cluster }.map { $0.lowerBound..<min($0.upperBound, cluster) }
        if paragraphs.isEmpty { paragraphs = [0..<0] }
    }

    // MARK: Measuring

    /// The pen position of `glyph` placed after `previous` at `pen`.
    private func place(_ glyph: Glyph, after previous: Glyph?, at pen: Int) -> Int {
        guard options.kerning, let previous else { return pen }
        return pen + font.kerning(between: previous, and: glyph)
    }

    /// Advances the pen over a cluster; returns the new pen and last glyph.
    private mutating func advance(over cluster: Cluster, pen: Int, previous: Glyph?) -> (pen: Int, last: Glyph?) {
        var pen = pen, previous = previous
        for index in cluster.range {
            let glyph = self.glyph(index)
            pen = place(glyph, after: previous, at: pen) + glyph.advance
            previous = glyph
        }
        return (pen, previous)
    }

    /// Width of all of `text` on one line (newlines ignored).
    /// Past `byteLimit`, the width of the text up to the glyph that did not fit.
    mutating func singleLineWidth(_ text: String) -> Int {
        split(text)
        var pen = 0, previous: Glyph?
        for cluster in clusters {
            let next = advance(over: cluster, pen: pen, previous: previous)
            if overLimit != nil { break }
            (pen, previous) = next
        }
        return pen
    }

    // MARK: Line breaking

    private func canBreak(before index: Int) -> Bool {
        let before = clusters[index - 1], after = clusters[index]
        if before.kind == .space { return after.kind != .space }
        guard before.kind == .cjk || after.kind == .cjk else { return false }
        return !after.forbidsBreakBefore && !before.forbidsBreakAfter
    }

    /// Greedy line breaking of one paragraph; stops once `lines` holds `cap` lines.
    private mutating func breakParagraph(_ paragraph: Range<Int>, into lines: inout [LineSpan], cap: Int) {
        let end = paragraph.upperBound
        guard options.wrap, let maxWidth = options.maxWidth else {
            lines.append(LineSpan(clusters: paragraph, paragraphEnd: end, wrapped: false))
            return
        }
        var start = paragraph.lowerBound
        while lines.count < cap {
            var pen = 0, previous: Glyph?
            var lastBreak: Int?
            var hasContent = false
            var breakAt: Int?
            var index = start
            while index < end {
                let cluster = clusters[index]
                if cluster.kind != .space {
                    if hasContent && canBreak(before: index) { lastBreak = index }
                    let next = advance(over: cluster, pen: pen, previous: previous)
                    if next.pen > maxWidth && hasContent {
                        // A wrap point if there is one, else a character
                        // boundary inside the over-long word.
                        breakAt = lastBreak ?? index
                        break
                    }
                    // (A first cluster wider than the line stays; it is
                    // ellipsized later.)
                    hasContent = true
                    (pen, previous) = next
                } else {
                    (pen, previous) = advance(over: cluster, pen: pen, previous: previous)
                }
                index += 1
            }
            guard let breakAt else {
                lines.append(LineSpan(clusters: start..<end, paragraphEnd: end, wrapped: false))
                return
            }
            lines.append(LineSpan(clusters: start..<breakAt, paragraphEnd: end, wrapped: true))
            start = breakAt
            while start < end && clusters[start].kind == .space { start += 1 }  // leading spaces at a wrap point
            if start == end { return }
        }
    }

    private func hasContent(_ span: LineSpan) -> Bool {
        clusters[span.clusters].contains { $0.kind != .space }
    }

    // MARK: Lines

    /// Positioned glyphs for `range`, dropping trailing spaces if asked.
    private mutating func makeLine(_ range: Range<Int>, trimTrailingSpaces: Bool, ellipsis: [(Glyph, Unicode.Scalar)] = []) -> TextLine {
        makeLine(range, trimTrailingSpaces: trimTrailingSpaces, ellipsis: ellipsis, givingUpPast: .max)!
    }

    /// The same, or nil once the pen is past `limit` (the rest is neither measured nor rendered).
    /// Kerning can pull the pen back by a little, never by an em: a line an em past `maxWidth`
    /// cannot fit.
    private mutating func makeLine(_ range: Range<Int>, trimTrailingSpaces: Bool, ellipsis: [(Glyph, Unicode.Scalar)] = [],
                                   givingUpPast limit: Int) -> TextLine? {
        var upper = range.upperBound
        if trimTrailingSpaces {
            while upper > range.lowerBound && clusters[upper - 1].kind == .space { upper -= 1 }
        }
        var placed: [PositionedGlyph] = []
        var pen = 0, previous: Glyph?
        for cluster in clusters[range.lowerBound..<upper] {
            for index in cluster.range {
                let glyph = self.glyph(index)
                let x = place(glyph, after: previous, at: pen)
                placed.append(PositionedGlyph(glyph: glyph, penX: x, scalar: scalars[index]))
                pen = x + glyph.advance
                previous = glyph
            }
            if pen > limit { return nil }
        }
        for (glyph, scalar) in ellipsis {
            let x = place(glyph, after: previous, at: pen)
            placed.append(PositionedGlyph(glyph: glyph, penX: x, scalar: scalar))
            pen = x + glyph.advance
            previous = glyph
        }
        return TextLine(glyphs: placed, width: pen)
    }

    private func ellipsisGlyphs() -> [(Glyph, Unicode.Scalar)] {
        if font.hasGlyph(for: "\u{2026}") { return [(font.glyph(for: "\u{2026}"), "\u{2026}")] }
        let dot = font.glyph(for: ".")
        return [(dot, "."), (dot, "."), (dot, ".")]
    }

    /// Width of the ellipsis drawn after `previous`.
    private func ellipsisWidth(_ ellipsis: [(Glyph, Unicode.Scalar)], after previous: Glyph?) -> Int {
        var pen = 0, previous = previous
        for (glyph, _) in ellipsis {
            pen = place(glyph, after: previous, at: pen) + glyph.advance
            previous = glyph
        }
        return pen
    }

    /// The longest prefix of `range` followed by "…" that fits `maxWidth`;
    /// an empty line if "…" alone does not fit.
    private mutating func ellipsized(_ range: Range<Int>) -> TextLine {
        let ellipsis = ellipsisGlyphs()
        guard let maxWidth = options.maxWidth else {
            return makeLine(range, trimTrailingSpaces: true, ellipsis: ellipsis)
        }
        guard ellipsisWidth(ellipsis, after: nil) <= maxWidth else { return TextLine(glyphs: [], width: 0) }
        var best = range.lowerBound
        var pen = 0, previous: Glyph?
        for index in range {
            (pen, previous) = advance(over: clusters[index], pen: pen, previous: previous)
            if pen > maxWidth { break }
            if clusters[index].kind != .space && pen + ellipsisWidth(ellipsis, after: previous) <= maxWidth {
                best = index + 1
            }
        }
        return makeLine(range.lowerBound..<best, trimTrailingSpaces: true, ellipsis: ellipsis)
    }

    mutating func layout(_ text: String) -> TextLayout {
        split(text)
        var layout = lines(cutAtEnd: false)
        // Past `byteLimit`: again, cut before the first glyph that did not fit. Each time the cut
        // comes earlier, so this ends (at the latest with no clusters, "…" alone).
        while let cluster = overLimit {
            overLimit = nil
            cut(before: cluster)
            layout = lines(cutAtEnd: true)
        }
        return layout
    }

    /// The layout of the clusters; `cutAtEnd` when the text was cut after them.
    private mutating func lines(cutAtEnd: Bool) -> TextLayout {
        let limit = options.maxLines > 0 ? options.maxLines : Int.max
        var spans: [LineSpan] = []
        var cut = false
        for paragraph in paragraphs {
            // Break one line past the limit to learn whether text is cut.
            breakParagraph(paragraph, into: &spans, cap: limit == .max ? .max : limit + 1)
            if spans.count > limit && spans[limit...].contains(where: hasContent) {
                cut = true
                break
            }
        }
        // Lines past the limit without content (trailing empty lines) are dropped silently.
        spans = Array(spans.prefix(limit))
        if cutAtEnd { cut = true }

        var lines: [TextLine] = []
        var truncated = cut
        for (number, span) in spans.enumerated() {
            if cut && number == spans.count - 1 {
                lines.append(ellipsized(span.clusters.lowerBound..<span.paragraphEnd))
                continue
            }
            guard let maxWidth = options.maxWidth else {
                lines.append(makeLine(span.clusters, trimTrailingSpaces: span.wrapped))
                continue
            }
            // A line far too wide is given up on, not made whole.
            let enough = maxWidth + font.spec.pixelSize
            if let line = makeLine(span.clusters, trimTrailingSpaces: span.wrapped, givingUpPast: enough), line.width <= maxWidth {
                lines.append(line)
            } else if let trimmed = makeLine(span.clusters, trimTrailingSpaces: true, givingUpPast: enough), trimmed.width <= maxWidth {
                // Trailing spaces at a paragraph end may hang.
                lines.append(trimmed)
            } else {
                lines.append(ellipsized(span.clusters))
                truncated = true
            }
        }
        return TextLayout(lines: lines, truncated: truncated, ascender: font.ascender, lineHeight: font.lineHeight)
    }
}
