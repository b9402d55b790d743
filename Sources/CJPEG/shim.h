#ifndef THROBBER_CJPEG_SHIM_H
#define THROBBER_CJPEG_SHIM_H
/* libjpeg reports errors by longjmp; this shim keeps every call behind one
 * setjmp. A file that ends early is an error here (libjpeg would only warn
 * and pad the image with gray). Output is 8-bit RGBA, alpha 255. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int truncated;
} throbber_jpeg_errors;

static inline void throbber_jpeg_on_error(j_common_ptr cinfo) {
    throbber_jpeg_errors *e = (throbber_jpeg_errors *)cinfo->err;
    cinfo->err->format_message(cinfo, e->message);
    longjmp(e->jump, 1);
}

static inline void throbber_jpeg_on_message(j_common_ptr cinfo, int level) {
    throbber_jpeg_errors *e = (throbber_jpeg_errors *)cinfo->err;
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF && !e->truncated) {
        e->truncated = 1;
        cinfo->err->format_message(cinfo, e->message);
    }
}

/* A decoding between its header and its pixels: the caller learns the size
 * first and gives the buffer the pixels go to, so they are written once. */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    throbber_jpeg_errors errors;
} throbber_jpeg_decoding;

static inline void throbber_jpeg_fail(throbber_jpeg_decoding *d, char *message, size_t message_size) {
    jpeg_destroy_decompress(&d->cinfo);
    strncpy(message, d->errors.message, message_size - 1);
    message[message_size - 1] = 0;
    free(d);
}

/* Reads a JPEG's header from memory (`data` must stay valid until
 * throbber_jpeg_finish). Returns the decoding and sets the size of its RGBA
 * pixels, or returns NULL with `message` filled. */
static inline void *throbber_jpeg_begin(const unsigned char *data, size_t size, unsigned int max_side,
                                        unsigned int *width, unsigned int *height, char *message,
                                        size_t message_size) {
    throbber_jpeg_decoding *d = (throbber_jpeg_decoding *)calloc(1, sizeof *d);
    if (!d) { strncpy(message, "out of memory", message_size - 1); message[message_size - 1] = 0; return NULL; }
    d->cinfo.err = jpeg_std_error(&d->errors.base);
    d->errors.base.error_exit = throbber_jpeg_on_error;
    d->errors.base.emit_message = throbber_jpeg_on_message;
    if (setjmp(d->errors.jump)) {
        throbber_jpeg_fail(d, message, message_size);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_read_header(&d->cinfo, TRUE);
    if (d->cinfo.image_width > max_side || d->cinfo.image_height > max_side) {
        snprintf(d->errors.message, sizeof d->errors.message, "image is %ux%u, larger than %u pixels on a side",
                 d->cinfo.image_width, d->cinfo.image_height, max_side);
        longjmp(d->errors.jump, 1);
    }
    d->cinfo.out_color_space = JCS_EXT_RGBA;
    d->cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&d->cinfo);
    *width = d->cinfo.output_width;
    *height = d->cinfo.output_height;
    return d;
}

/* Decodes the pixels of a begun decoding into `rgba` (width*height*4 bytes;
 * NULL only ends it) and ends it in every case. A file that ends early is
 * an error. Returns 0, or 1 with `message` filled. */
static inline int throbber_jpeg_finish(void *decoding, unsigned char *rgba, char *message, size_t message_size) {
    throbber_jpeg_decoding *d = (throbber_jpeg_decoding *)decoding;
    if (setjmp(d->errors.jump)) {
        throbber_jpeg_fail(d, message, message_size);
        return 1;
    }
    if (rgba) {
        size_t stride = (size_t)d->cinfo.output_width * 4;
        while (d->cinfo.output_scanline < d->cinfo.output_height) {
            JSAMPROW row = rgba + stride * d->cinfo.output_scanline;
            jpeg_read_scanlines(&d->cinfo, &row, 1);
        }
        if (d->errors.truncated) longjmp(d->errors.jump, 1);
        jpeg_finish_decompress(&d->cinfo);
        if (d->errors.truncated) longjmp(d->errors.jump, 1);
    }
    jpeg_destroy_decompress(&d->cinfo);
    free(d);
    return 0;
}
#endif
