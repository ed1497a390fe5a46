// KioskPNG — PNG files in and out as straight RGBA8, for screenshots,
// golden images and icons.
//
// Design
// - Only libpng's *simplified* API (png_image): png_image_begin_read_from_
//   file/_memory + png_image_finish_read, png_image_write_to_file/_memory.
//   It reports errors through png_image.message and return values, so no
//   setjmp/longjmp crosses Swift frames.
// - Every png_image is released with png_image_free on every path (libpng
//   frees it itself on failure and after finish_read; a second free is a
//   no-op), via `withPNGImage`.
// - Any input (gray, gray+alpha, palette, tRNS, 16-bit, RGB) is converted by
//   libpng to 8-bit straight RGBA. 16-bit files without gamma information are
//   taken as sRGB-encoded (PNG_IMAGE_FLAG_16BIT_sRGB), so 0xABAB → 0xAB.
// - Writing: RGBA8, or RGB8 when every alpha is 255 (smaller files, same
//   pixels on read-back).
// - No Foundation.
