// libpng, loaded with dlopen the first time a PNG is read or written (not linked: `show` draws
// without it, so the executable does not map libpng and zlib on its way to the first frame).
// The header is libpng-dev's; KioskPNG calls the `kiosk_`-prefixed wrappers declared here,
// never libpng's functions, and reads through kiosk_png_read_rgba (read.c), which keeps
// libpng's errors (a longjmp) inside C.
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
// succeeded aborts with a message. The row API's functions (png_create_read_struct …
// png_read_row) may png_error, a longjmp: only read.c calls them, under its own setjmp.
#define KIOSK_PNG_FUNCTIONS(F, V) \
    V(void, png_image_free, (png_imagep image), (image)) \
    F(int, png_image_write_to_memory, (png_imagep image, void *memory, png_alloc_size_t *memory_bytes, int convert_to_8_bit, const void *buffer, png_int_32 row_stride, const void *colormap), (image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap)) \
    F(png_structp, png_create_read_struct, (png_const_charp user_png_ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn), (user_png_ver, error_ptr, error_fn, warn_fn)) \
    F(png_infop, png_create_info_struct, (png_const_structrp png_ptr), (png_ptr)) \
    V(void, png_destroy_read_struct, (png_structpp png_ptr_ptr, png_infopp info_ptr_ptr, png_infopp end_info_ptr_ptr), (png_ptr_ptr, info_ptr_ptr, end_info_ptr_ptr)) \
    F(png_voidp, png_get_error_ptr, (png_const_structrp png_ptr), (png_ptr)) \
    V(void, png_set_read_fn, (png_structrp png_ptr, png_voidp io_ptr, png_rw_ptr read_data_fn), (png_ptr, io_ptr, read_data_fn)) \
    F(png_voidp, png_get_io_ptr, (png_const_structrp png_ptr), (png_ptr)) \
    V(void, png_set_user_limits, (png_structrp png_ptr, png_uint_32 user_width_max, png_uint_32 user_height_max), (png_ptr, user_width_max, user_height_max)) \
    V(void, png_set_chunk_malloc_max, (png_structrp png_ptr, png_alloc_size_t user_chunk_malloc_max), (png_ptr, user_chunk_malloc_max)) \
    V(void, png_set_chunk_cache_max, (png_structrp png_ptr, png_uint_32 user_chunk_cache_max), (png_ptr, user_chunk_cache_max)) \
    V(void, png_set_keep_unknown_chunks, (png_structrp png_ptr, int keep, png_const_bytep chunk_list, int num_chunks), (png_ptr, keep, chunk_list, num_chunks)) \
    V(void, png_read_info, (png_structrp png_ptr, png_inforp info_ptr), (png_ptr, info_ptr)) \
    F(png_uint_32, png_get_IHDR, (png_const_structrp png_ptr, png_const_inforp info_ptr, png_uint_32 *width, png_uint_32 *height, int *bit_depth, int *color_type, int *interlace_method, int *compression_method, int *filter_method), (png_ptr, info_ptr, width, height, bit_depth, color_type, interlace_method, compression_method, filter_method)) \
    V(void, png_set_expand, (png_structrp png_ptr), (png_ptr)) \
    V(void, png_set_scale_16, (png_structrp png_ptr), (png_ptr)) \
    V(void, png_set_gray_to_rgb, (png_structrp png_ptr), (png_ptr)) \
    V(void, png_set_add_alpha, (png_structrp png_ptr, png_uint_32 filler, int flags), (png_ptr, filler, flags)) \
    V(void, png_set_alpha_mode_fixed, (png_structrp png_ptr, int mode, png_fixed_point output_gamma), (png_ptr, mode, output_gamma)) \
    F(int, png_set_interlace_handling, (png_structrp png_ptr), (png_ptr)) \
    V(void, png_read_update_info, (png_structrp png_ptr, png_inforp info_ptr), (png_ptr, info_ptr)) \
    F(size_t, png_get_rowbytes, (png_const_structrp png_ptr, png_const_inforp info_ptr), (png_ptr, info_ptr)) \
    F(png_byte, png_get_channels, (png_const_structrp png_ptr, png_const_inforp info_ptr), (png_ptr, info_ptr)) \
    F(png_byte, png_get_bit_depth, (png_const_structrp png_ptr, png_const_inforp info_ptr), (png_ptr, info_ptr)) \
    V(void, png_read_row, (png_structrp png_ptr, png_bytep row, png_bytep display_row), (png_ptr, row, display_row)) \
    F(png_uint_32, png_get_current_row_number, (png_const_structrp png_ptr), (png_ptr)) \
    F(png_byte, png_get_current_pass_number, (png_const_structrp png_ptr), (png_ptr)) \
    F(png_structp, png_create_write_struct, (png_const_charp user_png_ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn), (user_png_ver, error_ptr, error_fn, warn_fn)) \
    V(void, png_destroy_write_struct, (png_structpp png_ptr_ptr, png_infopp info_ptr_ptr), (png_ptr_ptr, info_ptr_ptr)) \
    V(void, png_set_write_fn, (png_structrp png_ptr, png_voidp io_ptr, png_rw_ptr write_data_fn, png_flush_ptr output_flush_fn), (png_ptr, io_ptr, write_data_fn, output_flush_fn)) \
    V(void, png_set_IHDR, (png_const_structrp png_ptr, png_inforp info_ptr, png_uint_32 width, png_uint_32 height, int bit_depth, int color_type, int interlace_method, int compression_method, int filter_method), (png_ptr, info_ptr, width, height, bit_depth, color_type, interlace_method, compression_method, filter_method)) \
    V(void, png_write_info, (png_structrp png_ptr, png_const_inforp info_ptr), (png_ptr, info_ptr)) \
    V(void, png_write_row, (png_structrp png_ptr, png_const_bytep row), (png_ptr, row)) \
    V(void, png_write_end, (png_structrp png_ptr, png_inforp info_ptr), (png_ptr, info_ptr)) \
    V(void, png_set_filter, (png_structrp png_ptr, int method, int filters), (png_ptr, method, filters)) \
    V(void, png_set_compression_level, (png_structrp png_ptr, int level), (png_ptr, level)) \
    V(void, png_set_compression_strategy, (png_structrp png_ptr, int strategy), (png_ptr, strategy))

#define KIOSK_PNG_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_PNG_FUNCTIONS(KIOSK_PNG_DECLARE, KIOSK_PNG_DECLARE)
#undef KIOSK_PNG_DECLARE

// MARK: - Reading (read.c)

/// Where kiosk_png_read_rgba's bytes come from when `read` is set (e.g. a file descriptor):
/// copies up to `size` bytes, the next ones of the file, into `buffer` and returns how many
/// (0 at the end of the file), or -1 on an error (the context keeps why).
typedef long (*kiosk_png_read_fn)(void *context, void *buffer, size_t size);

/// What kiosk_png_read_rgba returns.
enum kiosk_png_read_status {
    KIOSK_PNG_READ_OK = 0,
    /// libpng refused the data (or memory ran out): `message` says why.
    KIOSK_PNG_READ_INVALID = 1,
    /// The source's `read` returned -1.
    KIOSK_PNG_READ_SOURCE_FAILED = 2,
};

/// One decode: where from, what the caller expects, and where to.
struct kiosk_png_read_request {
    /// The source: `read`/`context` when `read` is set, else the bytes at `memory`.
    kiosk_png_read_fn read;
    void *context;
    const unsigned char *memory;
    size_t memory_size;
    /// The size the caller read from the IHDR; libpng's must be the same.
    png_uint_32 width, height;
    /// The size to produce: width x height decodes as is (interlaced or not); anything
    /// smaller (each side at most the source's) box-filters the rows while they are read, for
    /// non-interlaced images only, so that only one source row is ever held.
    png_uint_32 out_width, out_height;
    /// out_width * out_height * 4 bytes: straight RGBA8, rows top-down, no padding.
    unsigned char *out;
    /// libpng's own limits: the largest width and height (png_set_user_limits) and the largest
    /// allocation for one ancillary chunk (png_set_chunk_malloc_max).
    png_uint_32 max_side;
    png_alloc_size_t chunk_malloc_max;
    /// Why it failed (NUL-terminated), for KIOSK_PNG_READ_INVALID.
    char message[192];
};

/// Decodes a PNG into `request->out` as straight RGBA8 (palette, gray, 16-bit and tRNS
/// converted; 16-bit files without gamma taken as sRGB-encoded, as the simplified API's
/// PNG_IMAGE_FLAG_16BIT_sRGB), reading only the chunks the pixels need (IHDR, PLTE, tRNS,
/// gAMA, sRGB, IDAT; others are skipped unread into memory). Every libpng call that can
/// png_error runs under this function's setjmp, so no longjmp leaves it: the caller gets a
/// status, and `message`. libpng must be loaded (kiosk_png_load).
enum kiosk_png_read_status kiosk_png_read_rgba(struct kiosk_png_read_request *request);

// MARK: - Writing by rows (write.c)

/// Fills `row` (width × 3 or 4 bytes: straight RGB8 or RGBA8) with row `y`, top-down.
typedef void (*kiosk_png_row_fn)(void *context, png_uint_32 y, unsigned char *row);
/// Writes all `size` bytes of `buffer` to the destination; 0, or -1 on an error (the context
/// keeps why).
typedef int (*kiosk_png_write_fn)(void *context, const void *buffer, size_t size);

/// One encode by rows: only one row is held, whatever the image's size.
struct kiosk_png_write_request {
    png_uint_32 width, height;
    /// RGBA when set, RGB otherwise.
    int alpha;
    /// Speed over size: the Sub filter only and zlib's Z_RLE (large frames).
    int fast;
    kiosk_png_row_fn row;
    kiosk_png_write_fn write;
    void *context;
    /// Why it failed (NUL-terminated).
    char message[192];
};

/// Encodes the rows `request->row` gives as an 8-bit RGB or RGBA PNG through `request->write`,
/// under one setjmp (no longjmp leaves it). KIOSK_PNG_READ_OK, _INVALID (libpng refused or ran
/// out of memory: `message`) or _SOURCE_FAILED (`write` returned -1). libpng must be loaded.
enum kiosk_png_read_status kiosk_png_write_rows(struct kiosk_png_write_request *request);

#endif
