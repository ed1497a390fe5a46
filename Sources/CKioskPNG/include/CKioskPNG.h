// libpng, loaded with dlopen the first time a PNG is read or written (not linked: `show` draws
// without it, so the executable does not map libpng and zlib on its way to the first frame).
// The header is libpng-dev's; KioskPNG calls the `kiosk_`-prefixed wrappers declared here,
// never libpng's functions.
#ifndef CKIOSKPNG_H
#define CKIOSKPNG_H

#include <png.h>

/* PNG_FORMAT_RGBA is a parenthesized macro expression that Swift does not
   import; the simplified-API formats KioskPNG uses as constants. */
static const png_uint_32 kiosk_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 kiosk_png_format_rgba = PNG_FORMAT_RGBA;

/// Loads libpng16.so.16 (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves every function below.
/// NULL on success (and on every later call); else why (dlerror's text, kiosk_load).
/// Thread-safe; a failed load may be tried again. Never unloaded.
const char *kiosk_png_load(void);

// F(return type, name, (parameters), (arguments)); V(...) for those returning void. Each
// becomes `kiosk_<name>` with libpng's exact signature; calling one before kiosk_png_load
// succeeded aborts with a message.
#define KIOSK_PNG_FUNCTIONS(F, V) \
    F(int, png_image_begin_read_from_file, (png_imagep image, const char *file_name), (image, file_name)) \
    F(int, png_image_begin_read_from_memory, (png_imagep image, png_const_voidp memory, size_t size), (image, memory, size)) \
    F(int, png_image_finish_read, (png_imagep image, png_const_colorp background, void *buffer, png_int_32 row_stride, void *colormap), (image, background, buffer, row_stride, colormap)) \
    V(void, png_image_free, (png_imagep image), (image)) \
    F(int, png_image_write_to_file, (png_imagep image, const char *file, int convert_to_8bit, const void *buffer, png_int_32 row_stride, const void *colormap), (image, file, convert_to_8bit, buffer, row_stride, colormap)) \
    F(int, png_image_write_to_memory, (png_imagep image, void *memory, png_alloc_size_t *memory_bytes, int convert_to_8_bit, const void *buffer, png_int_32 row_stride, const void *colormap), (image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap))

#define KIOSK_PNG_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_PNG_FUNCTIONS(KIOSK_PNG_DECLARE, KIOSK_PNG_DECLARE)
#undef KIOSK_PNG_DECLARE

#endif
