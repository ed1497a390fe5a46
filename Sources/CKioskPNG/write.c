// kiosk_png_write_rows: libpng's row API for writing, under one setjmp (as read.c), so an
// image of any size is encoded holding one row of it; the bytes go to the caller's `write`.
#include "CKioskPNG.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

struct writer {
    jmp_buf jump;
    struct kiosk_png_write_request *request;
    int sink_failed;
    png_structp png;
    png_infop info;
    unsigned char *row;
};

static void fail(struct writer *w, const char *message) {
    snprintf(w->request->message, sizeof w->request->message, "%s", message && *message ? message : "libpng error");
    longjmp(w->jump, 1);
}

static void on_error(png_structp png, png_const_charp message) { fail(kiosk_png_get_error_ptr(png), message); }
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void write_data(png_structp png, png_bytep data, size_t length) {
    struct writer *w = kiosk_png_get_io_ptr(png);
    if (w->request->write(w->request->context, data, length) != 0) {
        w->sink_failed = 1;
        fail(w, "write failed");
    }
}

static void flush_data(png_structp png) { (void)png; }

/// Everything that can png_error; runs under kiosk_png_write_rows's setjmp.
static void encode(struct writer *w) {
    struct kiosk_png_write_request *q = w->request;
    size_t channels = q->alpha ? 4 : 3;
    if (q->width == 0 || q->height == 0 || q->width > 0x7FFFFFFF / channels) fail(w, "invalid size");
    w->row = malloc((size_t)q->width * channels);
    if (!w->row) fail(w, "out of memory (row)");
    w->png = kiosk_png_create_write_struct(PNG_LIBPNG_VER_STRING, w, on_error, on_warning);
    if (!w->png) fail(w, "out of memory (png_create_write_struct)");
    w->info = kiosk_png_create_info_struct(w->png);
    if (!w->info) fail(w, "out of memory (png_create_info_struct)");
    kiosk_png_set_write_fn(w->png, w, write_data, flush_data);
    kiosk_png_set_IHDR(w->png, w->info, q->width, q->height, 8, q->alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                       PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (q->fast) {
        // One filter (Sub) instead of libpng's try-all-five per row, and zlib's run-length
        // strategy: a HUD frame is mostly runs of one colour.
        kiosk_png_set_filter(w->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
        kiosk_png_set_compression_strategy(w->png, 3 /* Z_RLE */);
    }
    kiosk_png_write_info(w->png, w->info);
    for (png_uint_32 y = 0; y < q->height; y++) {
        q->row(q->context, y, w->row);
        kiosk_png_write_row(w->png, w->row);
    }
    kiosk_png_write_end(w->png, NULL);
}

enum kiosk_png_read_status kiosk_png_write_rows(struct kiosk_png_write_request *request) {
    request->message[0] = 0;
    struct writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(request->message, sizeof request->message, "out of memory");
        return KIOSK_PNG_READ_INVALID;
    }
    w->request = request;
    enum kiosk_png_read_status status = KIOSK_PNG_READ_OK;
    if (setjmp(w->jump) == 0) encode(w);
    else status = w->sink_failed ? KIOSK_PNG_READ_SOURCE_FAILED : KIOSK_PNG_READ_INVALID;
    if (w->png) kiosk_png_destroy_write_struct(&w->png, w->info ? &w->info : NULL);
    free(w->row);
    free(w);
    return status;
}
