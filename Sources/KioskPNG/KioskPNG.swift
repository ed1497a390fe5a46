// KioskPNG — PNG files in and out as straight RGBA8, for screenshots,
// golden images, icons and pictures given on the command line.
//
// Design
// - Reading (PNGRead.swift): the header (signature + IHDR, CRC checked) is
//   parsed first, and a `PNGReadLimit` decides from it, before any pixel is
//   decoded: as is (at most `maxPixels`), box-filtered down while streaming
//   (larger, non-interlaced), or refused with the size (larger interlaced,
//   or over 65535 on a side / 2^31 pixels). Memory is the result plus a few
//   rows, whatever the file claims (a 30000x30000 IHDR, a zlib bomb).
// - Files are opened through KioskSys without blocking (O_NONBLOCK), must be
//   regular files (fstat; a FIFO, device or directory is refused) of at most
//   `maxFileBytes`, and libpng reads them from the descriptor.
// - Decoding is libpng's row API in one C function, kiosk_png_read_rgba
//   (CKioskPNG/read.c), under its own setjmp: a png_error never longjmps
//   through a Swift frame; Swift gets a status and a message. libpng's own
//   limits are set (png_set_user_limits, png_set_chunk_malloc_max), and
//   the chunks the pixels do not need are skipped without being stored.
// - Any input (gray, gray+alpha, palette, tRNS, 16-bit, RGB) is converted by
//   libpng to 8-bit straight RGBA. 16-bit files without gamma information are
//   taken as sRGB-encoded, so 0xABAB → 0xAB (as the simplified API's
//   PNG_IMAGE_FLAG_16BIT_sRGB did).
// - Writing: libpng's simplified API (png_image_write_to_memory) encodes
//   RGBA8, or RGB8 when every alpha is 255 (smaller files, same pixels on
//   read-back); the bytes go to a new file beside the target, renamed over
//   it (no half-written file; a FIFO or directory at the path is refused).
//   Every png_image is released with png_image_free (`withPNGImage`).
// - Large frames are written by rows (`write(width:height:alpha:path:row:)`, CKioskPNG/
//   write.c: libpng's row API under its own setjmp, bytes straight to the new file): one row
//   in memory whatever the size. kiosk-hud render --size 8192x8192 took 950 MB with the
//   in-memory encoder (the frame, an RGBA copy, an RGB copy, the encoded file), 270 MB so.
// - Errors: one line naming the file and why (`PNGError.description`).
// - No Foundation; system calls only through KioskSys.
