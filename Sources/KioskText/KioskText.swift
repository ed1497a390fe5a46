// KioskText — FreeType text for the kiosk HUD: glyph bitmaps, line metrics
// and MBProgressHUD-style label layout.
//
// Design
// - Rendering rules are fixed so the output matches cairo + FreeType 2.12
//   pixel for pixel: `FT_Set_Pixel_Sizes(face, 0, px)`, light hinting
//   (`FT_LOAD_TARGET_LIGHT`), `FT_RENDER_MODE_NORMAL` 8-bit coverage, whole
//   pixel advances `(advance.x + 32) >> 6`, and a glyph bitmap drawn at
//   `(penX + left, baseline − top)`.
// - Ownership (every FreeType object freed exactly once, in the right order):
//   `FreeTypeLibrary` owns the `FT_Library`; each `FontFace` owns one
//   `FT_Face` and keeps the library alive; each `SizedFace` owns one
//   `FT_Size` (FT_SIZES_H) and keeps its face alive. A face file is opened
//   once per `FontLibrary` and shared by every `Font` (pixel size) using it;
//   each `Font` activates its own `FT_Size` before loading glyphs.
// - `FontLibrary` caches one `Font` per `FontSpec`; a `Font` is a fallback
//   chain (primary first). The primary is opened eagerly (its metrics define
//   the line box, and a missing primary is an error); fallbacks are opened
//   lazily the first time a character is missing from the faces before them,
//   and a fallback that is missing or unreadable is skipped.
// - Each `Font` caches glyphs by (face index in chain, glyph index) and maps
//   scalars to that key, so a repeated character returns the same `Glyph`
//   object without touching FreeType. What the fonts keep is bounded by the
//   library's `glyphBudget` (bytes, least recently used out), and one text renders
//   only what its lines show, at most a quarter of the budget (GlyphBudget.swift).
// - Layout works on grapheme clusters (never splits a Character) with simple
//   rules: break at spaces, between CJK ideographs, at a character boundary
//   inside a word wider than the line, and at newlines; tail ellipsis "…"
//   when text is cut. No shaping (one glyph per scalar), no bidi.
// - FreeType is loaded with dlopen (CKioskFreeType's kiosk_FT_ wrappers), when the first font
//   file is opened, not linked: libfreetype pulls in libpng, zlib and two brotli libraries, and
//   the dynamic loader mapped and relocated all five before `main` in every start.
// - The glyph cache (`FontLibrary(glyphCache:)`, GlyphCache.swift): a `Font` keeps what FreeType
//   told it — line metrics, scalar → (face, glyph index), glyph bitmaps, kerning pairs — and
//   `saveGlyphCache()` writes it to one file per `FontSpec`. The next start reads the file and
//   never loads FreeType for text made of known glyphs (a kiosk shows the same boot HUD every
//   boot); anything new opens FreeType lazily, and is added to the file. Cached glyphs are the
//   bytes FreeType rendered, so the picture is identical (a test and the VM screendumps check).
//   The file records the identity (device, inode, size, mtime) of each font file of the chain
//   and of the libfreetype that rendered it; any change, a damaged or truncated file, or another
//   format version means rendering afresh, never a wrong glyph.
//   Measured (kiosk-hud show, annular HUD with a label and details, release): on the host,
//   main → first frame 4.5 → 2.3 ms; under QEMU (Tests/VM) the HUD's layout phase 75–85 →
//   45–50 ms and exec → first frame about 100 ms less (the text's share of FreeType's
//   translated code, and its libraries' loading, gone).
// - No Foundation (start-up cost), no Glibc: file access goes through KioskSys.
// - Threading: the classes holding FreeType pointers are not Sendable and
//   must be used from one thread (or actor) at a time. `Glyph` is immutable
//   and Sendable, so laid-out text can be handed to a renderer elsewhere.
