import CKioskFreeType

/// A fallback chain of faces at one pixel size, with its glyph cache.
///
/// Obtain one from `FontLibrary.font(_:)`. The glyphs it keeps count against its library's
/// `glyphBudget`, least recently used out (GlyphBudget.swift). Metrics come from the primary
/// face. Not thread-safe: use from one thread or actor.
public final class Font {
    /// The spec this font was created from.
    public let spec: FontSpec
    /// Pixels from the top of the line box to the baseline (primary face,
    /// `size->metrics.ascender >> 6`).
    public let ascender: Int
    /// Pixels from the baseline to the bottom of the line box, positive.
    public let descender: Int
    /// `ascender + descender`: the distance between consecutive baselines.
    public let lineHeight: Int

    /// Fallbacks that could not be used (missing or unreadable), with why.
    /// A fallback is opened, and so can land here, only when first needed.
    public private(set) var skippedFallbacks: [TextError] = []
    /// The last error met while rendering a glyph; such a glyph draws as
    /// nothing (see `glyph(for:)`). `nil` when all went well.
    public private(set) var lastError: TextError?

    private enum Slot {
        case unopened(String)
        case ready(SizedFace)
        case unusable
    }

    private struct PairKey: Hashable {
        var face: Int
        var left: UInt32
        var right: UInt32
    }

    private let faces: FaceStore
    private var chain: [Slot]
    private var keyForScalar: [UInt32: GlyphKey] = [:]
    /// The glyphs kept (within the library's budget, which evicts from here).
    private var glyphs: [GlyphKey: GlyphEntry] = [:]
    private var kerningPairs: [PairKey: Int] = [:]
    /// The library's glyph budget, shared by all its fonts.
    let budget: GlyphBudget

    /// Whether FreeType told this font something the glyph cache does not have yet.
    private(set) var hasNewGlyphs = false
    /// Glyphs that failed to render (kept in memory as empty glyphs, never saved).
    private var failed: Set<GlyphKey> = []

    /// Kerning pairs kept at most; then they are forgotten and asked of FreeType again. Pairs
    /// grow with the square of the glyphs met, and cost ~50 bytes each: ~0.8 MB at most.
    static let kerningPairLimit = 16384

    init(spec: FontSpec, faces: FaceStore, budget: GlyphBudget, cached: GlyphCacheRecord? = nil) throws(TextError) {
        guard spec.pixelSize > 0 else { throw .invalidArgument("pixel size must be > 0, got \(spec.pixelSize)") }
        guard let primaryPath = spec.paths.first else { throw .invalidArgument("a FontSpec needs at least one font path") }
        self.spec = spec
        self.faces = faces
        self.budget = budget
        if let cached, cached.faceKerning.count == spec.paths.count {
            // Everything from the cache; faces are opened (and FreeType loaded) only for
            // something it does not have.
            ascender = cached.ascender
            descender = cached.descender
            lineHeight = cached.ascender + cached.descender
            chain = spec.paths.map { .unopened($0) }
            faceKerning = cached.faceKerning
            for e in cached.scalars { keyForScalar[e.scalar] = GlyphKey(face: e.face, index: e.index) }
            for p in cached.pairs.prefix(Self.kerningPairLimit) { kerningPairs[PairKey(face: p.face, left: p.left, right: p.right)] = p.pixels }
            // Not used yet in this run: the first to go (the library trims once this is made).
            for g in cached.glyphs {
                let entry = GlyphEntry(glyph: g, key: GlyphKey(face: g.faceIndex, index: g.glyphIndex), font: self)
                glyphs[entry.key] = entry
                budget.addUnused(entry)
            }
            return
        }
        let primary = try SizedFace(face: try faces.face(at: primaryPath), pixelSize: spec.pixelSize)
        let metrics = primary.lineMetrics
        self.ascender = metrics.ascender
        self.descender = metrics.descender
        self.lineHeight = metrics.ascender + metrics.descender
        self.chain = [.ready(primary)] + spec.paths.dropFirst().map { .unopened($0) }
        self.faceKerning = [primary.face.hasKerning ? 1 : 0] + Array(repeating: -1, count: spec.paths.count - 1)
        hasNewGlyphs = true
    }

    /// Per face of the chain: 1 has kerning, 0 none, -1 not known (not opened, not cached).
    private var faceKerning: [Int]

    deinit {
        for entry in glyphs.values { budget.remove(entry) }
    }

    /// Forgets the glyph at `key` (the budget evicted it); true when no glyph is left.
    func evict(_ key: GlyphKey) -> Bool {
        glyphs[key] = nil
        failed.remove(key)
        return glyphs.isEmpty
    }

    /// The most bytes of glyphs one laid-out text may use (TextShaper.swift).
    var textLimit: Int { budget.textLimit }

    /// Keeps `glyph` at `key`, the most recently used; the budget may evict others.
    private func keep(_ glyph: Glyph, at key: GlyphKey) {
        if let old = glyphs[key] { budget.remove(old) }
        let entry = GlyphEntry(glyph: glyph, key: key, font: self)
        glyphs[key] = entry
        budget.add(entry)
    }

    /// What this font knows, for the glyph cache file.
    func cacheRecord() -> GlyphCacheRecord {
        GlyphCacheRecord(
            ascender: ascender, descender: descender, faceKerning: faceKerning,
            scalars: keyForScalar.map { .init(scalar: $0.key, face: $0.value.face, index: $0.value.index) }.sorted { $0.scalar < $1.scalar },
            glyphs: glyphs.filter { !failed.contains($0.key) }.map(\.value.glyph)
                .sorted { ($0.faceIndex, $0.glyphIndex) < ($1.faceIndex, $1.glyphIndex) },
            pairs: kerningPairs.map { .init(face: $0.key.face, left: $0.key.left, right: $0.key.right, pixels: $0.value) }
                .sorted { ($0.face, $0.left, $0.right) < ($1.face, $1.left, $1.right) })
    }

    /// Marks the cache as saved.
    func didSaveCache() { hasNewGlyphs = false }

    /// The face at `index` in the chain, opening it on first use.
    private func sizedFace(_ index: Int) -> SizedFace? {
        switch chain[index] {
        case .ready(let face): return face
        case .unusable: return nil
        case .unopened(let path):
            do throws(TextError) {
                let face = try SizedFace(face: try faces.face(at: path), pixelSize: spec.pixelSize)
                chain[index] = .ready(face)
                faceKerning[index] = face.face.hasKerning ? 1 : 0
                return face
            } catch {
                skippedFallbacks.append(error)
                chain[index] = .unusable
                return nil
            }
        }
    }

    private func key(for scalar: Unicode.Scalar) -> GlyphKey {
        if let key = keyForScalar[scalar.value] { return key }
        var key = GlyphKey(face: 0, index: 0)  // primary's .notdef unless a face has it
        for index in chain.indices {
            guard let face = sizedFace(index) else { continue }
            let glyphIndex = face.face.glyphIndex(for: scalar)
            if glyphIndex != 0 {
                key = GlyphKey(face: index, index: glyphIndex)
                break
            }
        }
        keyForScalar[scalar.value] = key
        hasNewGlyphs = true
        return key
    }

    /// True when some face of the chain has a glyph for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        key(for: scalar).index != 0
    }

    /// The glyph for `scalar`, from the first face in the chain that has it,
    /// else the primary's .notdef. Cached: the same object is returned again while it is kept
    /// (within `FontLibrary.glyphBudget`); one evicted is rendered again, identical.
    ///
    /// If FreeType fails to load or render it, the glyph is empty (draws
    /// nothing, zero advance) and the error is kept in `lastError`; use
    /// `loadGlyph(for:)` to get the error thrown instead.
    public func glyph(for scalar: Unicode.Scalar) -> Glyph {
        do throws(TextError) {
            return try loadGlyph(for: scalar)
        } catch {
            lastError = error
            let key = key(for: scalar)
            let empty = Glyph.empty(glyphIndex: key.index, faceIndex: key.face)
            failed.insert(key)
            keep(empty, at: key)
            return empty
        }
    }

    /// `glyph(for:)` for a text being laid out, and whether the glyph is new to the running pass
    /// (what the text adds to the memory the pass keeps; TextShaper.swift).
    func textGlyph(for scalar: Unicode.Scalar) -> (glyph: Glyph, new: Bool) {
        if let entry = glyphs[key(for: scalar)] { return (entry.glyph, budget.touch(entry)) }
        return (glyph(for: scalar), true)
    }

    /// Like `glyph(for:)`, but throws when FreeType fails.
    public func loadGlyph(for scalar: Unicode.Scalar) throws(TextError) -> Glyph {
        let key = key(for: scalar)
        if let entry = glyphs[key] {
            budget.touch(entry)
            return entry.glyph
        }
        guard let face = sizedFace(key.face) else { return Glyph.empty() }  // unreachable: key faces are open
        let glyph = try render(key, in: face)
        budget.rendered += 1
        hasNewGlyphs = true
        keep(glyph, at: key)
        return glyph
    }

    private func render(_ key: GlyphKey, in sized: SizedFace) throws(TextError) -> Glyph {
        let face = sized.face
        try sized.activate()
        try ftCheck(kiosk_FT_Load_Glyph(face.raw, key.index, kiosk_ft_load_target_light()), "FT_Load_Glyph", path: face.path)
        guard let slot = face.raw.pointee.glyph else {
            throw .freetype(call: "FT_Load_Glyph", code: -1, path: face.path)
        }
        // A no-op for glyphs that are already bitmaps (embedded strikes).
        try ftCheck(kiosk_FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL), "FT_Render_Glyph", path: face.path)
        let bitmap = slot.pointee.bitmap
        let coverage = Self.coverage(of: bitmap)
        let width = coverage == nil ? 0 : Int(bitmap.width)
        let height = coverage == nil ? 0 : Int(bitmap.rows)
        return Glyph(width: width, height: height,
                     left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                     advance: (Int(slot.pointee.advance.x) + 32) >> 6,
                     coverage: coverage ?? [],
                     glyphIndex: key.index, faceIndex: key.face)
    }

    /// Copies an FT_Bitmap into top-down rows of `width` coverage bytes.
    /// Handles 8-bit gray and 1-bit mono (embedded bitmaps); other modes
    /// (e.g. color) give `nil` and the glyph draws nothing.
    private static func coverage(of bitmap: FT_Bitmap) -> [UInt8]? {
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width > 0, rows > 0, let buffer = bitmap.buffer else { return [] }
        let mode = FT_Pixel_Mode(UInt32(bitmap.pixel_mode))
        guard mode == FT_PIXEL_MODE_GRAY || mode == FT_PIXEL_MODE_MONO else { return nil }
        let pitch = Int(bitmap.pitch)
        let grays = max(Int(bitmap.num_grays), 2)
        var out = [UInt8](repeating: 0, count: width * rows)
        for y in 0..<rows {
            // A negative pitch means the rows are stored bottom-up.
            let row = buffer + (pitch >= 0 ? y * pitch : (rows - 1 - y) * -pitch)
            for x in 0..<width {
                if mode == FT_PIXEL_MODE_GRAY {
                    let value = Int(row[x])
                    out[y * width + x] = grays == 256 ? UInt8(value) : UInt8(min(255, value * 255 / (grays - 1)))
                } else {
                    out[y * width + x] = (row[x >> 3] & (0x80 >> UInt8(x & 7))) != 0 ? 255 : 0
                }
            }
        }
        return out
    }

    /// Kerning in whole pixels between two glyphs drawn one after the other,
    /// from the face's 'kern' table (`FT_Get_Kerning`, `FT_KERNING_DEFAULT`).
    /// 0 when they come from different faces or the face has no kerning.
    public func kerning(between left: Glyph, and right: Glyph) -> Int {
        guard left.faceIndex == right.faceIndex, left.glyphIndex != 0, right.glyphIndex != 0,
              faceKerning.indices.contains(left.faceIndex), faceKerning[left.faceIndex] != 0 else { return 0 }
        let key = PairKey(face: left.faceIndex, left: left.glyphIndex, right: right.glyphIndex)
        if let cached = kerningPairs[key] { return cached }
        // Not known yet: opening the face records whether it has kerning.
        guard let sized = sizedFace(left.faceIndex), faceKerning[left.faceIndex] == 1 else { return 0 }
        var delta = FT_Vector()
        do throws(TextError) {
            try sized.activate()
            try ftCheck(kiosk_FT_Get_Kerning(sized.face.raw, left.glyphIndex, right.glyphIndex,
                                       FT_KERNING_DEFAULT.rawValue, &delta), "FT_Get_Kerning", path: sized.face.path)
        } catch {
            lastError = error
            delta.x = 0
        }
        let pixels = (Int(delta.x) + 32) >> 6
        if kerningPairs.count >= Self.kerningPairLimit { kerningPairs.removeAll(keepingCapacity: true) }
        kerningPairs[key] = pixels
        hasNewGlyphs = true
        return pixels
    }

    /// The width of `text` on one line (no wrapping; newlines and control
    /// characters draw nothing, a tab counts as a space).
    /// Text past `FontLibrary.glyphBudget`'s share for one text is not measured (see
    /// `layout(_:options:)`).
    public func advance(of text: String, kerning: Bool = true) -> Int {
        budget.begin()
        defer { budget.end() }
        var options = TextLayoutOptions()
        options.kerning = kerning
        options.wrap = false
        var shaper = TextShaper(font: self, options: options)
        return shaper.singleLineWidth(text)
    }
}
