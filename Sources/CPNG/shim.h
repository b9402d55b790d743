#ifndef THROBBER_CPNG_SHIM_H
#define THROBBER_CPNG_SHIM_H
/* libpng reports errors by longjmp, which Swift cannot catch. This shim keeps
 * every libpng call behind one setjmp and hands Swift a plain status code
 * plus the library's message. Pixels come out as 8-bit straight RGBA with no
 * gamma or colour-space change: the samples as stored in the file. */
#include <png.h>
#include <setjmp.h>
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

/* Decodes a whole PNG held in memory. Returns 0 and sets *rgba (malloc'd,
 * width*height*4 bytes; caller frees) or returns 1 with `message` filled. */
static inline int throbber_png_decode(const unsigned char *data, size_t size,
                                      unsigned int max_side,
                                      unsigned int *width, unsigned int *height,
                                      unsigned char **rgba, char *message,
                                      size_t message_size) {
    throbber_png_reader reader;
    memset(&reader, 0, sizeof reader);
    reader.data = data;
    reader.size = size;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader,
                                             throbber_png_on_error, throbber_png_on_warning);
    if (!png) { strncpy(message, "out of memory", message_size); return 1; }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(reader.jump)) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        strncpy(message, reader.message[0] ? reader.message : "out of memory", message_size - 1);
        message[message_size - 1] = 0;
        return 1;
    }
    png_set_user_limits(png, max_side, max_side);
    png_set_read_fn(png, &reader, throbber_png_read_bytes);
    png_read_info(png, info);

    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (png_size_t)w * 4) png_error(png, "unsupported pixel layout");

    pixels = (unsigned char *)malloc((size_t)w * h * 4);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *width = w;
    *height = h;
    *rgba = pixels;
    return 0;
}
#endif
