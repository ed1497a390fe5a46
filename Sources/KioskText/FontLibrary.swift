import CKioskFreeType
import KioskSys

/// The entry point: owns the FreeType library, the opened font files and one
/// cached `Font` per `FontSpec`, and optionally a glyph cache directory.
///
/// Not thread-safe: use from one thread or actor. `Font`s it returns keep the
/// FreeType objects they need alive even if the library is released first.
public final class FontLibrary {
    private let faces: FaceStore
    private var fonts: [FontSpec: Font] = [:]
    /// Every spec asked for, kept when its font is dropped (`fontFiles` names their files).
    private var specsAskedFor: Set<FontSpec> = []

    /// Where rendered glyphs are kept between runs, nil for none.
    public let glyphCacheDirectory: String?
    /// The seam the glyph cache files are written through.
    private let kernel: any KernelFiles & KernelDescriptors

    /// Opens no files yet; FreeType is loaded (dlopen) and initialized when the first font file
    /// is opened, so errors such as a missing libfreetype come from `font(_:)`. (Still `throws`
    /// so callers written for the eager version keep compiling.)
    ///
    /// With `glyphCache`, each font first reads what an earlier run left in that directory
    /// (`glyphs-*.bin`, one file per `FontSpec`); text made only of glyphs found there is laid
    /// out and drawn without FreeType. `saveGlyphCache()` writes what was rendered since.
    /// The files are checked against the font files' and libfreetype's identities (device,
    /// inode, size, time), so an upgrade of either renders afresh.
    ///
    /// `glyphBudget` bounds the rendered glyphs kept in memory, all fonts together, in bytes
    /// (coverage plus ~200 bytes a glyph); at least 64 KiB (less is taken as that). See
    /// `glyphBudget` and `font(_:)`.
    ///
    /// `kernel` is the seam the font files are looked at and the glyph cache files written
    /// through (a fake records them in tests).
    public init(glyphCache: String? = nil, glyphBudget: Int = FontLibrary.defaultGlyphBudget, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) throws(TextError) {
        faces = FaceStore(kernel: kernel)
        self.kernel = kernel
        glyphCacheDirectory = glyphCache
        self.glyphBudget = max(glyphBudget, FontLibrary.minimumGlyphBudget)
        budget = GlyphBudget(limit: self.glyphBudget)
        budget.onFontEmptied = { [weak self] font in self?.drop(font) }
    }

    /// The most bytes of rendered glyphs this library's fonts keep in memory, together: past
    /// it the least recently used glyphs are evicted (and rendered again, identical, if asked
    /// for again), except those of the text being laid out (`keepingGlyphs(_:)`). One laid-out
    /// text uses at most a quarter of it: text past that is cut with "…" (`Font.layout`).
    public let glyphBudget: Int

    /// 4 MiB: the HUD's ordinary text takes a few tens of kB (its label, details and button at
    /// the default sizes, ~15 kB at scale 1), so it is never evicted between frames; one
    /// ideograph at 500 px takes ~250 kB. (GlyphBudget.swift has the measurements.)
    public static let defaultGlyphBudget = 4 << 20

    /// The least `glyphBudget` there is: 64 KiB (its quarter still holds a short label at 64 px).
    public static let minimumGlyphBudget = 64 << 10

    private let budget: GlyphBudget

    /// Runs `body`, keeping every glyph it uses in memory until it returns, even past
    /// `glyphBudget`; then the budget is kept again. A HUD lays out its label, details and
    /// button in one, so that none evicts another's glyphs. (Each `Font.layout` is one too.)
    public func keepingGlyphs<R>(_ body: () throws -> R) rethrows -> R {
        budget.begin()
        defer { budget.end() }
        return try body()
    }

    /// Bytes of glyphs kept in memory, all fonts together (coverage plus `Glyph.overheadBytes`).
    var cachedGlyphBytes: Int { budget.bytes }
    /// Glyphs FreeType rendered for this library's fonts.
    var renderedGlyphs: Int { budget.rendered }
    /// Fonts kept.
    var fontCount: Int { fonts.count }
    /// Times text was laid out: `keepingGlyphs` calls, and `Font.layout` calls outside one.
    var layoutPasses: Int { budget.passes }

    /// What an idle HUD keeps of its glyphs (`releaseGlyphs()`): the last frames' text, many
    /// times over (a label, details and button at the default sizes take 12–21 kB).
    public static let idleGlyphBytes = 256 << 10

    /// Evicts the least recently used glyphs until at most `bytes` are kept (the last text laid
    /// out is the most recently used, so it stays): for an owner that has gone idle and gives
    /// memory back (the daemon, a second after its last change). Glyphs evicted are rendered
    /// again, or read from the glyph cache file, when next needed.
    public func releaseGlyphs(keepingAtMost bytes: Int = FontLibrary.idleGlyphBytes) {
        budget.trim(to: bytes)
    }

    /// Forgets `font` once the budget evicted its last glyph (a pixel size no longer used).
    private func drop(_ font: Font) {
        if fonts[font.spec] === font { fonts[font.spec] = nil }
    }

    /// The font for `spec`, created on first use and cached. A font whose glyphs were all
    /// evicted (see `glyphBudget`) is forgotten, and made anew when asked for again.
    ///
    /// Throws `TextError.fontNotFound` when the primary (first) path does not
    /// exist, or a FreeType error when it cannot be opened or sized. Missing
    /// fallbacks are skipped (see `Font.skippedFallbacks`).
    public func font(_ spec: FontSpec) throws(TextError) -> Font {
        if let font = fonts[spec] { return font }
        var cached: GlyphCacheRecord?
        if let dir = glyphCacheDirectory,
           let bytes = try? kernel.readFileBytes(dir + "/" + GlyphCacheFile.fileName(for: spec), limit: GlyphCacheFile.sizeLimit) {
            cached = GlyphCacheFile.decode(bytes, spec: spec, kernel: kernel)
        }
        let font = try Font(spec: spec, faces: faces, budget: budget, cached: cached)
        fonts[spec] = font
        specsAskedFor.insert(spec)
        budget.trim()
        return font
    }

    /// Shorthand: the default chain (`FontSpec.defaultPrimary` plus the
    /// installed `FontSpec.defaultFallbacks`) at `pixelSize`.
    public func font(pixelSize: Int) throws(TextError) -> Font {
        try font(FontSpec(pixelSize: pixelSize))
    }

    /// The font files of the fonts asked for so far that exist (the text drawn came from these).
    public var fontFiles: [String] {
        var seen = Set<String>()
        var out: [String] = []
        let order = specsAskedFor.sorted { ($0.pixelSize, $0.paths.joined(separator: "\n")) < ($1.pixelSize, $1.paths.joined(separator: "\n")) }
        for spec in order {
            for p in spec.paths where !seen.contains(p) && kernel.fileIdentity(p) != nil {
                seen.insert(p)
                out.append(p)
            }
        }
        return out
    }

    /// True once FreeType was loaded and used (a font file opened): false when everything so
    /// far came from the glyph cache.
    public var usedFreeType: Bool { faces.opened }

    /// Writes the glyph cache file of each font that rendered something new since it was read
    /// (or last saved), creating the directory if needed. Returns what could not be written,
    /// as messages: a cache that cannot be written (read-only root, no permission) costs only
    /// the next start's time, so the caller logs and carries on.
    @discardableResult
    public func saveGlyphCache() -> [String] {
        guard let dir = glyphCacheDirectory else { return [] }
        let pending = fonts.values.filter(\.hasNewGlyphs)
        guard !pending.isEmpty, let freetype = kiosk_freetype_path().map({ String(cString: $0) }) else { return [] }
        var problems: [String] = []
        do { try kernel.makeDirectories(dir) } catch { return ["glyph cache \(dir): \(error)"] }
        for font in pending {
            let bytes = GlyphCacheFile.encode(font.cacheRecord(), spec: font.spec, freetypePath: freetype, kernel: kernel)
            guard bytes.count <= GlyphCacheFile.sizeLimit else {
                // Text in thousands of different characters: the file would not be read back.
                problems.append("glyph cache: \(font.spec.pixelSize) px would take \(bytes.count) bytes (limit \(GlyphCacheFile.sizeLimit)); not written")
                continue
            }
            do {
                try kernel.replaceFile(dir + "/" + GlyphCacheFile.fileName(for: font.spec), with: bytes)
                font.didSaveCache()
            } catch {
                problems.append("glyph cache: \(error)")
            }
        }
        return problems
    }
}
