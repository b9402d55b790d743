#ifndef THROBBER_CPNG_SHIM_H
#define THROBBER_CPNG_SHIM_H
/* libpng reports errors by longjmp, which Swift cannot catch. This shim keeps
 * every libpng call behind one setjmp and hands Swift a plain status code
 * plus the library's message. Pixels come out as 8-bit straight RGBA with no
 * gamma or colour-space change: the samples as stored in the file. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    jmp_buf jump;
    char message[256];
} throbber_png_reader;

static inline void throbber_png_on_error(png_structp png, png_const_charp msg) {
    throbber_png_reader *r = (throbber_png_reader *)png_get_error_ptr(png);
    strncpy(r->message, msg ? msg : "unknown libpng error", sizeof r->message - 1);
    r->message[sizeof r->message - 1] = 0;
    longjmp(r->jump, 1);
}

static inline void throbber_png_on_warning(png_structp png, png_const_charp msg) {
    (void)png; (void)msg;
}

static inline void throbber_png_read_bytes(png_structp png, png_bytep out, png_size_t n) {
    throbber_png_reader *r = (throbber_png_reader *)png_get_io_ptr(png);
    if (n > r->size - r->offset) png_error(png, "file is truncated");
    memcpy(out, r->data + r->offset, n);
    r->offset += n;
}

/* A decoding between its header and its pixels: the caller learns the size
 * first and gives the buffer the pixels go to, so they are written once. */
typedef struct {
    throbber_png_reader reader;
    png_structp png;
    png_infop info;
    png_uint_32 width, height;
} throbber_png_decoding;

static inline void throbber_png_fail(throbber_png_decoding *d, char *message, size_t message_size) {
    strncpy(message, d->reader.message[0] ? d->reader.message : "out of memory", message_size - 1);
    message[message_size - 1] = 0;
    png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d);
}

/* Reads a PNG's header from memory (`data` must stay valid until
 * throbber_png_finish). Returns the decoding and sets the size of its 8-bit
 * RGBA pixels, or returns NULL with `message` filled. */
static inline void *throbber_png_begin(const unsigned char *data, size_t size, unsigned int max_side,
                                       unsigned int *width, unsigned int *height, char *message,
                                       size_t message_size) {
    throbber_png_decoding *d = (throbber_png_decoding *)calloc(1, sizeof *d);
    if (!d) { strncpy(message, "out of memory", message_size - 1); message[message_size - 1] = 0; return NULL; }
    d->reader.data = data;
    d->reader.size = size;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d->reader, throbber_png_on_error,
                                    throbber_png_on_warning);
    if (d->png) d->info = png_create_info_struct(d->png);
    if (!d->png || !d->info || setjmp(d->reader.jump)) {
        throbber_png_fail(d, message, message_size);
        return NULL;
    }
    /* libpng's own limit would only say "Invalid IHDR data": check here. */
    png_set_user_limits(d->png, 0x7fffffffL, 0x7fffffffL);
    png_set_read_fn(d->png, &d->reader, throbber_png_read_bytes);
    png_read_info(d->png, d->info);

    png_uint_32 w = png_get_image_width(d->png, d->info);
    png_uint_32 h = png_get_image_height(d->png, d->info);
    if (w > max_side || h > max_side) {
        char why[96];
        snprintf(why, sizeof why, "image is %ux%u, larger than %u pixels on a side", (unsigned)w, (unsigned)h,
                 max_side);
        png_error(d->png, why);
    }
    int color = png_get_color_type(d->png, d->info);
    int depth = png_get_bit_depth(d->png, d->info);
    int has_trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0;

    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (has_trns) png_set_tRNS_to_alpha(d->png);
    if (depth == 16) png_set_scale_16(d->png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(d->png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(d->png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    if (png_get_rowbytes(d->png, d->info) != (png_size_t)w * 4) png_error(d->png, "unsupported pixel layout");
    d->width = w;
    d->height = h;
    *width = w;
    *height = h;
    return d;
}

/* Decodes the pixels of a begun decoding into `rgba` (width*height*4 bytes;
 * NULL only ends it) and ends it in every case. Returns 0, or 1 with
 * `message` filled. */
static inline int throbber_png_finish(void *decoding, unsigned char *rgba, char *message, size_t message_size) {
    throbber_png_decoding *d = (throbber_png_decoding *)decoding;
    png_bytep *volatile rows = NULL;
    if (setjmp(d->reader.jump)) {
        free(rows);
        throbber_png_fail(d, message, message_size);
        return 1;
    }
    if (rgba) {
        rows = (png_bytep *)malloc(sizeof(png_bytep) * d->height);
        if (!rows) png_error(d->png, "out of memory");
        for (png_uint_32 y = 0; y < d->height; y++) rows[y] = rgba + (size_t)y * d->width * 4;
        png_read_image(d->png, rows);
        png_read_end(d->png, NULL);
        free(rows);
    }
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d);
    return 0;
}
#endif
