import KioskText

/// Paths used by the tests (Debian packages fonts-dejavu-core, fonts-wqy-microhei).
enum Fonts {
    static let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    static let cjk = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
}

/// The default chain (DejaVu Sans Bold + installed fallbacks) at `px`.
func defaultFont(_ px: Int) throws -> Font {
    try FontLibrary().font(FontSpec(pixelSize: px))
}

/// Pen offsets of a single-line layout.
func penOffsets(_ layout: TextLayout) -> [Int] {
    layout.lines.first?.glyphs.map(\.penX) ?? []
}

/// Layout options without kerning (the reference numbers are unkerned).
func unkerned(maxWidth: Int? = nil, maxLines: Int = 0, wrap: Bool = true) -> TextLayoutOptions {
    TextLayoutOptions(maxWidth: maxWidth, maxLines: maxLines, kerning: false, wrap: wrap)
}
