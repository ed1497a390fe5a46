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
