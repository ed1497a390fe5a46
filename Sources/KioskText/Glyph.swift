/// One rendered glyph: an 8-bit coverage bitmap and its placement.
///
/// Draw it at `(penX + left, baseline − top)`; move the pen by `advance`.
/// Immutable, and shared: a `Font` returns the same object for the same glyph.
public final class Glyph: Sendable {
    /// Bitmap width in pixels.
    public let width: Int
    /// Bitmap height in pixels (rows).
    public let height: Int
    /// Horizontal offset from the pen position to the bitmap's left edge.
    public let left: Int
    /// Distance from the baseline up to the bitmap's top row.
    public let top: Int
    /// Whole-pixel advance: `(advance.x + 32) >> 6`.
    public let advance: Int
    /// Coverage 0...255, `height` rows of `width` bytes, top row first.
    public let coverage: [UInt8]
    /// The glyph index in its face (0 = .notdef).
    public let glyphIndex: UInt32
    /// Which face of the font's chain it came from (0 = primary).
    public let faceIndex: Int

    /// Creates a glyph; `coverage.count` must be `width * height`.
    public init(width: Int, height: Int, left: Int, top: Int, advance: Int,
                coverage: [UInt8], glyphIndex: UInt32, faceIndex: Int) {
        precondition(coverage.count == width * height, "coverage must hold width*height bytes")
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.coverage = coverage
        self.glyphIndex = glyphIndex
        self.faceIndex = faceIndex
    }

    /// True for the .notdef glyph ("tofu"), used when no face has a character.
    public var isNotdef: Bool { glyphIndex == 0 }

    /// Coverage at bitmap pixel (x, y), 0 outside the bitmap.
    public func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return coverage[y * width + x]
    }

    /// An empty glyph that draws nothing and does not advance.
    static func empty(glyphIndex: UInt32 = 0, faceIndex: Int = 0) -> Glyph {
        Glyph(width: 0, height: 0, left: 0, top: 0, advance: 0, coverage: [],
              glyphIndex: glyphIndex, faceIndex: faceIndex)
    }

    /// What keeping this glyph in memory costs, counted against `FontLibrary.glyphBudget`.
    var cachedBytes: Int { coverage.count + Glyph.overheadBytes }

    /// About what a glyph costs besides its coverage: the object, its array's header, the
    /// cache's entry and dictionary slot.
    static let overheadBytes = 200
}
