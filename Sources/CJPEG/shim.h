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

static inline int throbber_jpeg_decode(const unsigned char *data, size_t size,
                                       unsigned int max_side,
                                       unsigned int *width, unsigned int *height,
                                       unsigned char **rgba, char *message,
                                       size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    throbber_jpeg_errors errors;
    memset(&errors, 0, sizeof errors);
    unsigned char *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = throbber_jpeg_on_error;
    errors.base.emit_message = throbber_jpeg_on_message;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        strncpy(message, errors.message, message_size - 1);
        message[message_size - 1] = 0;
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.image_width > max_side || cinfo.image_height > max_side) {
        snprintf(errors.message, sizeof errors.message, "image is %ux%u, larger than %u pixels on a side",
                 cinfo.image_width, cinfo.image_height, max_side);
        longjmp(errors.jump, 1);
    }
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    pixels = (unsigned char *)malloc(stride * cinfo.output_height);
    if (!pixels) {
        strncpy(errors.message, "out of memory", sizeof errors.message);
        longjmp(errors.jump, 1);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + stride * cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    if (errors.truncated) longjmp(errors.jump, 1);
    jpeg_finish_decompress(&cinfo);
    if (errors.truncated) longjmp(errors.jump, 1);
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    *rgba = pixels;
    return 0;
}
#endif
