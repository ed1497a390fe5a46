/// How to lay out text.
public struct TextLayoutOptions: Sendable, Hashable {
    /// The widest a line may be, in pixels; `nil` for no limit (then lines
    /// only break at newlines).
    public var maxWidth: Int?
    /// The most lines to produce; 0 for no limit. Text that does not fit is
    /// cut and the last line ends with "…".
    public var maxLines: Int
    /// Apply the fonts' kerning (FT_Get_Kerning, 'kern' table) between
    /// glyphs of the same face.
    public var kerning: Bool
    /// Wrap lines wider than `maxWidth`; when false each paragraph is one
    /// line, cut with "…" when too wide.
    public var wrap: Bool

    /// Options; the defaults lay out without limits, with kerning and wrapping.
    public init(maxWidth: Int? = nil, maxLines: Int = 0, kerning: Bool = true, wrap: Bool = true) {
        self.maxWidth = maxWidth
        self.maxLines = maxLines
        self.kerning = kerning
        self.wrap = wrap
    }

    /// MBProgressHUD's label: a single line, tail "…" when too wide.
    public static func label(maxWidth: Int?, kerning: Bool = true) -> TextLayoutOptions {
        TextLayoutOptions(maxWidth: maxWidth, maxLines: 1, kerning: kerning, wrap: false)
    }

    /// MBProgressHUD's details label: word-wrapped, optionally limited to
    /// `maxLines` (0 = unlimited).
    public static func details(maxWidth: Int?, maxLines: Int = 0, kerning: Bool = true) -> TextLayoutOptions {
        TextLayoutOptions(maxWidth: maxWidth, maxLines: maxLines, kerning: kerning, wrap: true)
    }
}

/// A glyph placed on a line: draw at `(lineX + penX + glyph.left, baseline − glyph.top)`.
public struct PositionedGlyph: Sendable {
    /// The rendered glyph (shared with the font's cache).
    public var glyph: Glyph
    /// The pen position, in pixels from the line's left edge.
    public var penX: Int
    /// The character it shows (a space for a tab, U+FFFD for invalid UTF-8).
    public var scalar: Unicode.Scalar

    /// A positioned glyph.
    public init(glyph: Glyph, penX: Int, scalar: Unicode.Scalar) {
        self.glyph = glyph
        self.penX = penX
        self.scalar = scalar
    }
}

/// One laid-out line.
public struct TextLine: Sendable {
    /// The glyphs, left to right.
    public var glyphs: [PositionedGlyph]
    /// The pen position after the last glyph (advance width, not ink).
    public var width: Int

    /// A line.
    public init(glyphs: [PositionedGlyph], width: Int) {
        self.glyphs = glyphs
        self.width = width
    }

    /// The characters shown, e.g. for tests and logs.
    public var text: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: glyphs.map(\.scalar))
        return String(view)
    }
}

/// The result of `Font.layout`: lines stacked `lineHeight` apart.
public struct TextLayout: Sendable {
    /// The lines, top to bottom.
    public var lines: [TextLine]
    /// The widest line's width.
    public var width: Int
    /// `lines.count × lineHeight`.
    public var height: Int
    /// True when text was cut (by `maxLines` or an over-wide line) and "…" added.
    public var truncated: Bool
    /// The font's ascender: baseline of line 0, from the layout's top.
    public var ascender: Int
    /// The font's line height.
    public var lineHeight: Int

    /// A layout.
    public init(lines: [TextLine], truncated: Bool, ascender: Int, lineHeight: Int) {
        self.lines = lines
        self.width = lines.map(\.width).max() ?? 0
        self.height = lines.count * lineHeight
        self.truncated = truncated
        self.ascender = ascender
        self.lineHeight = lineHeight
    }

    /// The baseline's y of line `index`, from the layout's top.
    public func baseline(ofLine index: Int) -> Int { index * lineHeight + ascender }
}

extension Font {
    /// Lays out `text` with MBProgressHUD's label rules.
    ///
    /// - Breaks at spaces (spaces at a wrap point are dropped), between CJK
    ///   characters, inside a word wider than `maxWidth` at a character
    ///   boundary, and at newlines ("\n", "\r\n", "\r", U+2028, …), which
    ///   always start a new line ("a\n" is two lines).
    /// - Cut text ends with "…" (U+2026 from the font chain, "..." if no face
    ///   has it), characters being dropped until the line fits `maxWidth`;
    ///   if even "…" does not fit, the line is empty. When `maxLines` cuts
    ///   the text, the last line is filled with as much of its paragraph as
    ///   fits before the "…".
    /// - A tab draws as a space; other control and format characters (Cc, Cf)
    ///   draw nothing. Empty text gives no lines and height 0.
    /// - Glyphs are rendered only as far as the lines need them, and one text brings at most a
    ///   quarter of `FontLibrary.glyphBudget` in glyphs into memory (glyphs that text laid out
    ///   earlier in the same `FontLibrary.keepingGlyphs` used count there, not again): the rest
    ///   is cut, ending in "…" as above (`truncated`). Its glyphs are kept in memory while it is
    ///   laid out.
    public func layout(_ text: String, options: TextLayoutOptions = TextLayoutOptions()) -> TextLayout {
        budget.begin()
        defer { budget.end() }
        var shaper = TextShaper(font: self, options: options)
        return shaper.layout(text)
    }

    /// Lays out UTF-8 bytes; invalid sequences show as U+FFFD, never crash.
    public func layout(utf8 bytes: some Collection<UInt8>, options: TextLayoutOptions = TextLayoutOptions()) -> TextLayout {
        layout(String(decoding: bytes, as: UTF8.self), options: options)
    }
}
