// KioskRaster — the pure software rasterizer under KioskHUD.
//
// No Glibc, no Foundation: only the Swift standard library, so it starts instantly and runs in
// tests with no display. Drawing goes in small stages, like tiny-skia:
//
//   geometry (Path: closed polygons, curves flattened to ≤ 0.1 px)
//     → coverage (Rasterizer: exact-area "cell" accumulation, one sparse row at a time;
//                 the inside of a shape comes out as one long span, not per-pixel work)
//     → blitter (a SpanSink: SolidSink32/SolidSink16 for a solid colour, ShaderSink for
//                gradients and images; a span of one coverage value, or per-pixel masks)
//     → blend (Blend: SrcOver on premultiplied 8-bit with pixman's rounding, two channels
//              per 32-bit multiply, eight pixels per SIMD lane group)
//
// Surfaces carry width, height, stride (bytes) and pixel format (XRGB8888, ARGB8888
// premultiplied, RGB565); a dumb buffer's pitch is not width × 4. Every Canvas draw reports its
// damage (clipped bounding box) into a DamageRegion, so presenting copies only what changed.
//
// Why the cell rasterizer: a dense accumulation buffer (font-rs) costs a prefix sum over the whole
// bounding box — 32,000 dependent float adds for a 200×160 bezel, ~45 µs. Cells are made only
// where an edge crosses a pixel; between them coverage is constant, so a bezel row is two edge
// cells and one opaque span that the SIMD fill handles at memset-like speed. Measurements live in
// README.md (benchmark table) and are printed by `swift run -c release kiosk-hud-bench`.
//
// Where the time goes per pixel (800x480, x86-64 with the Swift default target: SSE2 only; the
// same Swift SIMD code becomes NEON on the aarch64 boards — checked in the arm64 release
// binary's disassembly: every span loop below is NEON, and what is scalar there (the ring, the
// rotated scanout copies, a row's coverage sum) is scalar on x86 too; ConstantMultiply is used on
// x86 only; the arm64 package's Swift 6.0.3 left blendSpan's step closures as calls and
// checked the exclusivity of fillRoundedRect's captured locals at run time, until they became
// local functions and inout parameters: see docs/measurements.md "arm64: the hot loops' code").
// Times are medians of
// `kiosk-hud-bench --seconds 1 --sizes 800x480`; instructions per call are callgrind's
// (`--count`, on a copy of the binary with `strip --strip-debug`: valgrind refuses Swift's
// debug info), repeatable where times on the shared machine are not. memcpy of a frame: 31.5 µs,
// 0.082 ns/px.
//
//   el_dim / el_copy+dim   73.6 µs, 0.19 ns/px, 1.53 M instr (4.0 a pixel). Blend.overSpan, eight
//                          pixels per step in 16-bit lanes. Bound by the vector multiplier, not
//                          by memory: the same 0.22 ns/px at 400x240, 800x480 and 1920x1080 on
//                          the two-multiply path, and unrolling to 16 pixels changed nothing.
//                          pixman's MUL is a·x + 128 (pmullw, paddw) then ·257 >> 16 (pmulhuw);
//                          ConstantMultiply finds, for a factor fixed over the span, a 16-bit M
//                          and byte c with ((256·x + c)·M) >> 24 == MUL(x, a) for all x, so one
//                          pmulhuw per lane: 83 -> 74 µs. Factors 125…255 (any dim up to 51 %
//                          black at any fade opacity) have one. The blit + dim reads the picture
//                          once and writes the frame once: the same time as the dim alone.
//   full_blitbg            107 µs, 1.96 M instr: copy + dim 74 µs, the HUD 30 µs.
//   el_gradient            752 µs, 1.96 ns/px, 9.18 M instr (24 a pixel): four pixels per step
//                          in Double, the scalar expression's operations in its order (bit for
//                          bit; an incremental t drifts by an ulp and flips a channel now and
//                          then), the floor without a checked conversion (Lanes.floor), opaque
//                          colours written into the row (no scratch row, no blend). It is most
//                          of `full` (864 µs, 11.1 M instr).
//   tick_bezel             33.2 µs, 456 k instr (was 550 k): the 200×160 copy ~2 µs, the bezel
//                          11.4 µs (78 % in overSpan, 0.28 ns/px on 198-px rows: its factor 51
//                          has no ConstantMultiply pair), the ring 6.5 µs, bar and button ~8 µs
//                          (coverage per column, 11 %, and the per-pixel zone blends), text 3 µs.
//   el_ring                6.5 µs, 76 k instr for the track and the arc (~400 pixels each):
//                          per pixel a square root, the two cut lines and a scalar blend. A
//                          four-lane version of the same operations was slower (9.3 µs): SSE2
//                          code for SIMD4<Double> selects lane by lane with branches.
//
// The fast paths, each tested against the per-pixel version it replaced (kept as the reference):
//   - Blend.overSpan / blendSpan (BlendSpans.swift): SrcOver of one colour or of per-pixel sources,
//     eight pixels per step, pixman's rounding, ·257 >> 16 as one pmulhuw; a span's last 0–7
//     pixels are one more step over its last eight, loaded before anything is written.
//   - ConstantMultiply: the one-multiply MUL above, for the dim and the blit + dim (x86 only).
//   - Blend565 (over565Span, blend565Span): the same on RGB565, sixteen pixels per step.
//   - Shader.linearOpaqueSpan (ShaderSpans.swift): the opaque two-stop gradient, as above.
//   - fillRoundedRect (AnalyticRoundedRect.swift): coverage four columns per step, only near the
//     rounded ends; one span per run between; the bezel's straight rows reuse the first one's
//     values (150 of 160), and a row whose distances to the shapes' centre lines and zones are
//     bit for bit those of a row above (the mirror of a shape at whole or half pixels) reuses its
//     values: half the rows of the bar, the button and the bezel's corners.
//   - CoverageTable: MUL(colour, c) and 255 − its alpha for every coverage c, so an edge or glyph
//     pixel blends with one multiply; the last four colours are kept (a tick draws with three and
//     rebuilt all three each frame), built eight coverages per step.
//   - KioskHUD's HUDRenderer (above this module): a fade frame draws the picture and the dim
//     straight into the frame in one pass; the dimmed backdrop is built and kept only while the
//     opacity holds, so a static HUD's partial frames copy it under the damage.
