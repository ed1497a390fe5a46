// The bound on rendered glyphs kept in memory: one budget of bytes for a whole `FontLibrary`
// (every `Font`, every pixel size together), the least recently used glyph evicted first.
//
// Why: a `Font` kept every glyph it had drawn, and text rendered all its glyphs before line
// breaking looked at widths. A 500 px ideograph is up to ~250 kB of coverage, so a label of 341
// distinct CJK characters at `label_size` 500 cost ~70 MB though an 800 px screen shows one of
// them, and a kiosk showing file names during a long update grew the same way, more slowly.
//
// What now bounds it:
// - A glyph costs its coverage plus `Glyph.overheadBytes`; the library's glyphs together stay
//   within `FontLibrary.glyphBudget`, least recently used out. A glyph evicted and asked for
//   again is rendered again, byte for byte the same. A `Font` whose glyphs have all been evicted
//   (a pixel size no longer used) is dropped by its library, and made anew (from the glyph cache
//   file if there is one) when asked for again. Kerning pairs are forgotten past
//   `Font.kerningPairLimit`.
// - The text being laid out is never evicted from: entries are stamped with the pass that used
//   them (`FontLibrary.keepingGlyphs`, which HUDLayoutEngine wraps around the label, details and
//   button; each `Font.layout` is one on its own), and eviction stops at the first entry of the
//   running pass. The first use in a pass moves an entry to the front, so the running pass's
//   entries are the front of the list. During a pass the budget may be passed by that pass's
//   own glyphs; the outermost pass trims when it ends.
// - One text renders only what its lines need (TextShaper.swift), and brings at most
//   `textLimit`, a quarter of the budget, into the pass; past it the text is cut with "…". So
//   the label, details and button of one frame fit the budget together, and the work one
//   request causes is bounded by the budget, whatever its sizes and characters.
// - Text is laid out once per change of content or style, never per frame (HUDRenderer.update
//   lays out only when the label, details, mode, button, image or style changed; `render` and
//   progress never do: KioskHUDTests' TextWorkTests counts the passes).
// - The glyph cache file writes what is kept: a glyph evicted before `saveGlyphCache()` is
//   simply rendered again by the next run. Glyphs read from the file count as used least
//   recently, so they go first.
//
// The default, 4 MiB: the HUD's ordinary text takes far less and is never evicted between
// frames. Measured (HUDRenderer, 800x480, the default sizes 16/12/12 pt): the label "Updating
// firmware…", a 76-character details line and "Cancel", 46 glyphs, 12.4 kB at scale 1, 20.8 kB
// at scale 2; a screen filled with 12 px CJK details, 1,275 glyphs, 425 kB (1920x1080: the whole
// 8,192-byte details, 2,743 glyphs, 904 kB); the 500 px label of 341 ideographs, 416 kB (three
// ideographs measured, "…", the button). What a quarter does not hold is text no screen shows
// whole: 2,730 ideographs of 24 px details on a 3840x2160 screen at scale 2 are cut after 1,533.
//
// Measured, issue #24's requests (Tools/glyph-rss.py: kiosk-hud daemon --offscreen, 800x480,
// release, --glyph-cache none; VmRSS and VmHWM from /proc/PID/status after each reply; reply
// times as the client saw them, ranges over runs on two cores shared with other builds, load
// 3 to 11, so only their size is telling):
//
//                                              before                      after
//   style label_size 500, then three updates   10 → 79 → 147 → 212 MB      10 → 15 → 16 → 17 MB
//   of 341 distinct ideographs each            235–729 ms a reply          3–16 ms
//   sixty such updates                         —                           21 MB from the 40th on
//   style details_size 500, then one update    11 → 534 MB                 11 → 15 MB
//   of 2,730 distinct ideographs               1,885–2,095 ms              3–12 ms
//   3,000 updates of 8 + 40 ideographs at      10 → 25 → 28 → 30 MB        11 → 21 → 22 → 22 MB
//   the default sizes (at 1,000, 2,000, 3,000)  (growing)                  (flat)
//
// (VmHWM equals VmRSS in every row: no peak above what is kept.)
//
// The cost on the usual path (kiosk-hud-bench's `layout`: label, details and button of a request
// laid out, glyphs cached; 800x480, the lowest of five runs on one core): 24.0 µs before, 27.9 µs
// after, the recency list's moves (links that do not own, so a move changes no reference count)
// and the per-text accounting. `layout_500px_new_cjk`, issue #24's label of 341 new ideographs at
// 500 px: 1.4–2.5 ms (three ideographs rendered), where each such request took ~250 ms.

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
    /// Its neighbours in the recency list. Not owning: the font's table owns every entry, and an
    /// entry leaves the list before it leaves the table (`GlyphBudget.remove`, `Font.deinit`).
    /// (Owning links cost four reference-count changes a move, on every first use in a pass.)
    unowned(unsafe) var newer: GlyphEntry?
    unowned(unsafe) var older: GlyphEntry?

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
    private unowned(unsafe) var newest: GlyphEntry?
    private unowned(unsafe) var oldest: GlyphEntry?
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

    /// `entry` was used: the most recent now. Returns whether this is its first use in the
    /// running pass (always true outside one). Within a pass only the first use moves it: the
    /// pass's entries are all kept until it ends, so their order among themselves can wait.
    @discardableResult
    func touch(_ entry: GlyphEntry) -> Bool {
        if depth > 0 && entry.pass == pass { return false }
        entry.pass = pass
        guard entry !== newest else { return true }
        unlink(entry)
        link(entry)
        return true
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
