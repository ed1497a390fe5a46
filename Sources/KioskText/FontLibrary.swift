/// The entry point: owns the FreeType library, the opened font files and one
/// cached `Font` per `FontSpec`.
///
/// Not thread-safe: use from one thread or actor. `Font`s it returns keep the
/// FreeType objects they need alive even if the library is released first.
public final class FontLibrary {
    private let faces: FaceStore
    private var fonts: [FontSpec: Font] = [:]

    /// Initializes FreeType (`FT_Init_FreeType`). Opens no files yet.
    public init() throws(TextError) {
        faces = try FaceStore()
    }

    /// The font for `spec`, created on first use and cached.
    ///
    /// Throws `TextError.fontNotFound` when the primary (first) path does not
    /// exist, or a FreeType error when it cannot be opened or sized. Missing
    /// fallbacks are skipped (see `Font.skippedFallbacks`).
    public func font(_ spec: FontSpec) throws(TextError) -> Font {
        if let font = fonts[spec] { return font }
        let font = try Font(spec: spec, faces: faces)
        fonts[spec] = font
        return font
    }

    /// Shorthand: the default chain (`FontSpec.defaultPrimary` plus the
    /// installed `FontSpec.defaultFallbacks`) at `pixelSize`.
    public func font(pixelSize: Int) throws(TextError) -> Font {
        try font(FontSpec(pixelSize: pixelSize))
    }
}
