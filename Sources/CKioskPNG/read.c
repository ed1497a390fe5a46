// kiosk_png_read_rgba: libpng's row API under one setjmp, so that a png_error (a longjmp) never
// crosses a Swift frame. The state lives on the heap, not in this function's locals, so nothing
// the longjmp skips over is left indeterminate.
#include "CKioskPNG.h"
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    jmp_buf jump;
    /// Where read_data jumps once the last row is complete and libpng goes on to inflate what
    /// follows the image in the zlib stream (read_last_row).
    jmp_buf last_row;
    int in_last_row;
    /// Bytes read past the last row (the end of the zlib stream, its checksum, the chunk's CRC).
    size_t after_pixels;
    struct kiosk_png_read_request *request;
    /// The next byte of `request->memory` (memory source).
    size_t offset;
    int source_failed;
    png_structp png;
    png_infop info;
    /// The scaled path's buffers: one decoded row, each output column's count of source
    /// columns, and the band's sums (R·A, G·A, B·A, A per output column).
    unsigned char *row;
    uint32_t *column_count;
    uint64_t *sums;
};

/// libpng's error handler (and ours): keeps the message and jumps back to kiosk_png_read_rgba.
static void fail(struct reader *r, const char *message) {
    snprintf(r->request->message, sizeof r->request->message, "%s", message && *message ? message : "libpng error");
    longjmp(r->jump, 1);
}

static void on_error(png_structp png, png_const_charp message) {
    fail(kiosk_png_get_error_ptr(png), message);
}

/// Warnings (an ancillary chunk's bad CRC, too much image data …) are not failures.
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// libpng's read callback: exactly `length` bytes, or a failure.
static void read_data(png_structp png, png_bytep data, size_t length) {
    struct reader *r = kiosk_png_get_io_ptr(png);
    struct kiosk_png_read_request *q = r->request;
    // Past the last row of the last pass (png_read_finish_row moved on): the pixels are all in
    // the caller's buffer, and libpng wants the rest of the zlib stream only to check it. A
    // well-formed file has a few bytes left there (checked as before: a truncation, a bad CRC);
    // after 64 KiB (at most ~66 MB inflated) it is a bomb, and the read stops.
    if (r->in_last_row && (kiosk_png_get_current_pass_number(png) >= 7 || kiosk_png_get_current_row_number(png) >= q->height)) {
        r->after_pixels += length;
        if (r->after_pixels > 65536) longjmp(r->last_row, 1);
    }
    while (length > 0) {
        size_t n;
        if (q->read) {
            long got = q->read(q->context, data, length);
            if (got < 0) {
                r->source_failed = 1;
                fail(r, "read failed");
            }
            n = (size_t)got;
        } else {
            size_t left = q->memory_size - r->offset;
            n = length < left ? length : left;
            if (n) memcpy(data, q->memory + r->offset, n);
            r->offset += n;
        }
        if (n == 0) fail(r, "the file ends early (truncated)");
        if (n > length) fail(r, "read returned more than asked");
        data += n;
        length -= n;
    }
}

static void *allocate(struct reader *r, size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size);
    if (!p) fail(r, "out of memory");
    return p;
}

/// Reads one row; for the image's last row (`last`), returns as soon as the row is complete.
/// libpng's png_read_row then inflates whatever follows the image in the zlib stream
/// (png_read_finish_IDAT, 1 KB at a time): a zlib bomb after the pixels is gigabytes of
/// inflating (a 1 MB file took 2.3 s; the 64 MiB files read allows, minutes). read_data
/// jumps back here after 64 KiB of it, and nothing more is read: libpng is only destroyed.
static void read_row(struct reader *r, unsigned char *row, int last) {
    if (!last) {
        kiosk_png_read_row(r->png, row, NULL);
        return;
    }
    if (setjmp(r->last_row) == 0) {
        r->in_last_row = 1;
        kiosk_png_read_row(r->png, row, NULL);
    }
    r->in_last_row = 0;
}

/// The whole image, as is: every pass of an interlaced one combined into `out`.
static void read_as_is(struct reader *r, int passes) {
    struct kiosk_png_read_request *q = r->request;
    size_t stride = (size_t)q->width * 4;
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < q->height; y++)
            read_row(r, q->out + y * stride, pass == passes - 1 && y + 1 == q->height);
}

/// Writes output row `oy` from the band's sums (`rows` source rows) and clears them.
static void emit_row(struct reader *r, png_uint_32 oy, uint32_t rows) {
    struct kiosk_png_read_request *q = r->request;
    unsigned char *o = q->out + (size_t)oy * q->out_width * 4;
    uint64_t *s = r->sums;
    for (png_uint_32 ox = 0; ox < q->out_width; ox++, o += 4, s += 4) {
        uint64_t n = (uint64_t)r->column_count[ox] * rows;
        uint64_t alpha = s[3];
        if (alpha == 0) {
            o[0] = o[1] = o[2] = o[3] = 0;
        } else {
            // Colour weighted by alpha (what a premultiplied average gives), back to straight.
            o[0] = (unsigned char)((s[0] + alpha / 2) / alpha);
            o[1] = (unsigned char)((s[1] + alpha / 2) / alpha);
            o[2] = (unsigned char)((s[2] + alpha / 2) / alpha);
            o[3] = (unsigned char)((alpha + n / 2) / n);
        }
        s[0] = s[1] = s[2] = s[3] = 0;
    }
}

/// A non-interlaced image box-filtered down while it is read: source column x goes to output
/// column x * out_width / width, row y to y * out_height / height (each box is the floor or the
/// ceiling of the ratio wide and high), so only one source row and one row of sums are held.
static void read_scaled(struct reader *r) {
    struct kiosk_png_read_request *q = r->request;
    png_uint_32 w = q->width, h = q->height, ow = q->out_width, oh = q->out_height;
    r->row = allocate(r, w, 4);
    r->column_count = allocate(r, ow, sizeof *r->column_count);
    r->sums = allocate(r, (size_t)ow * 4, sizeof *r->sums);
    for (png_uint_32 x = 0; x < w; x++) r->column_count[(uint64_t)x * ow / w]++;
    uint32_t rows = 0;
    for (png_uint_32 y = 0; y < h; y++) {
        read_row(r, r->row, y + 1 == h);
        const unsigned char *p = r->row;
        uint64_t *s = r->sums;
        for (png_uint_32 ox = 0; ox < ow; ox++, s += 4) {
            // One box's part of this row: at most 65535 pixels, so 255 * 255 * 65535 fits 32 bits.
            uint32_t red = 0, green = 0, blue = 0, alpha = 0;
            for (uint32_t n = r->column_count[ox]; n > 0; n--, p += 4) {
                uint32_t a = p[3];
                red += p[0] * a;
                green += p[1] * a;
                blue += p[2] * a;
                alpha += a;
            }
            s[0] += red;
            s[1] += green;
            s[2] += blue;
            s[3] += alpha;
        }
        rows++;
        png_uint_32 oy = (png_uint_32)((uint64_t)y * oh / h);
        if (y + 1 == h || (png_uint_32)((uint64_t)(y + 1) * oh / h) != oy) {
            emit_row(r, oy, rows);
            rows = 0;
        }
    }
}

/// Everything that can png_error; runs under kiosk_png_read_rgba's setjmp.
static void decode(struct reader *r) {
    struct kiosk_png_read_request *q = r->request;
    r->png = kiosk_png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
    if (!r->png) fail(r, "out of memory (png_create_read_struct)");
    r->info = kiosk_png_create_info_struct(r->png);
    if (!r->info) fail(r, "out of memory (png_create_info_struct)");

    // libpng's own limits: no IHDR over max_side, no ancillary chunk allocation over
    // chunk_malloc_max, few stored ancillary chunks; and every chunk that the pixels do not
    // need (text, ICC profiles, Exif, unknown ones …) skipped without being stored or inflated.
    kiosk_png_set_user_limits(r->png, q->max_side, q->max_side);
    kiosk_png_set_chunk_malloc_max(r->png, q->chunk_malloc_max);
    kiosk_png_set_chunk_cache_max(r->png, 16);
    kiosk_png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    static const png_byte gamma_chunks[] = { 'g', 'A', 'M', 'A', 0, 's', 'R', 'G', 'B', 0 };
    kiosk_png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_AS_DEFAULT, gamma_chunks, 2);

    kiosk_png_set_read_fn(r->png, r, read_data);
    kiosk_png_read_info(r->png, r->info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    kiosk_png_get_IHDR(r->png, r->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    if (width != q->width || height != q->height) fail(r, "the image's size is not the one asked for");
    int scaled = q->out_width != width || q->out_height != height;
    if (scaled && (q->out_width == 0 || q->out_height == 0 || q->out_width > width || q->out_height > height))
        fail(r, "the output size is not a reduction of the image's");
    if (scaled && interlace != PNG_INTERLACE_NONE) fail(r, "an interlaced image is not scaled while read");

    // To straight RGBA8: palette to RGB, gray below 8 bits to 8, tRNS to alpha; 16 bits to 8
    // (rounded); gray to RGB; opaque alpha added where there is none. Output sRGB; a file
    // without gAMA/sRGB is taken to be sRGB already (no gamma conversion).
    kiosk_png_set_expand(r->png);
    kiosk_png_set_scale_16(r->png);
    kiosk_png_set_gray_to_rgb(r->png);
    kiosk_png_set_add_alpha(r->png, 0xFF, PNG_FILLER_AFTER);
    kiosk_png_set_alpha_mode_fixed(r->png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    int passes = kiosk_png_set_interlace_handling(r->png);
    kiosk_png_read_update_info(r->png, r->info);
    if (kiosk_png_get_channels(r->png, r->info) != 4 || kiosk_png_get_bit_depth(r->png, r->info) != 8
        || kiosk_png_get_rowbytes(r->png, r->info) != (size_t)width * 4)
        fail(r, "libpng did not convert the rows to RGBA8");

    if (scaled) read_scaled(r);
    else read_as_is(r, passes);
    // The rest of the file (IEND, trailing chunks) is not read: the pixels are complete.
}

enum kiosk_png_read_status kiosk_png_read_rgba(struct kiosk_png_read_request *request) {
    request->message[0] = 0;
    struct reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(request->message, sizeof request->message, "out of memory");
        return KIOSK_PNG_READ_INVALID;
    }
    r->request = request;
    enum kiosk_png_read_status status = KIOSK_PNG_READ_OK;
    if (setjmp(r->jump) == 0) decode(r);
    else status = r->source_failed ? KIOSK_PNG_READ_SOURCE_FAILED : KIOSK_PNG_READ_INVALID;
    if (r->png) kiosk_png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    free(r->row);
    free(r->column_count);
    free(r->sums);
    free(r);
    return status;
}
