#ifndef THROBBER_CJPEG_SHIM_H
#define THROBBER_CJPEG_SHIM_H
/* libjpeg reports errors by longjmp; this shim keeps every call behind one
 * setjmp. Every warning (corrupt entropy data, a file that ends early,
 * extraneous bytes) is an error at once, as `djpeg -strict` makes it:
 * libjpeg would only warn and go on decoding garbage or padding the image
 * with gray. The decompressor's own memory is limited (as `djpeg
 * -maxmemory` limits it), so a progressive file's whole-image coefficient
 * buffer beyond the limit is refused before it is allocated, and so are
 * more scans than a real file has (as `djpeg -maxscans`). Output is 8-bit
 * RGBA, alpha 255. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/* Most scans a file may have: a progressive file has about ten; a file
 * with thousands of empty scans only costs time (djpeg -maxscans). */
#define THROBBER_JPEG_MAX_SCANS 1000

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    /* The decompressor's memory limit in bytes, for the message when the
     * coefficient buffer does not fit in it. */
    long max_memory;
} throbber_jpeg_errors;

static inline void throbber_jpeg_on_error(j_common_ptr cinfo) {
    throbber_jpeg_errors *e = (throbber_jpeg_errors *)cinfo->err;
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE) {
        /* libjpeg-turbo asks for a temporary file when a whole-image
         * buffer does not fit in max_memory_to_use. */
        int mb = e->max_memory >= 1000000;
        snprintf(e->message, sizeof e->message,
                 "decoding this progressive JPEG needs more than the %ld %s of memory this run may use "
                 "(raise --max-memory)",
                 mb ? e->max_memory / 1000000 : e->max_memory, mb ? "MB" : "bytes");
    } else {
        cinfo->err->format_message(cinfo, e->message);
    }
    longjmp(e->jump, 1);
}

/* Warnings (level -1) end the decoding; trace messages are ignored. */
static inline void throbber_jpeg_on_message(j_common_ptr cinfo, int level) {
    throbber_jpeg_errors *e = (throbber_jpeg_errors *)cinfo->err;
    if (level < 0) {
        cinfo->err->format_message(cinfo, e->message);
        longjmp(e->jump, 1);
    }
}

/* Called by libjpeg between passes and scans: refuses a file with more
 * scans than THROBBER_JPEG_MAX_SCANS. */
static inline void throbber_jpeg_on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    int scans = ((j_decompress_ptr)cinfo)->input_scan_number;
    if (scans > THROBBER_JPEG_MAX_SCANS) {
        throbber_jpeg_errors *e = (throbber_jpeg_errors *)cinfo->err;
        snprintf(e->message, sizeof e->message, "more than %d scans", THROBBER_JPEG_MAX_SCANS);
        longjmp(e->jump, 1);
    }
}

/* A decoding between its header and its pixels: the caller learns the size
 * first and gives the buffer the pixels go to, so they are written once. */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    throbber_jpeg_errors errors;
    struct jpeg_progress_mgr progress;
} throbber_jpeg_decoding;

static inline void throbber_jpeg_fail(throbber_jpeg_decoding *d, char *message, size_t message_size) {
    jpeg_destroy_decompress(&d->cinfo);
    strncpy(message, d->errors.message, message_size - 1);
    message[message_size - 1] = 0;
    free(d);
}

/* Reads a JPEG's header from memory (`data` must stay valid until
 * throbber_jpeg_finish), with libjpeg's own allocations limited to
 * `max_memory` bytes (0: no limit). Returns the decoding and sets the size
 * of its RGBA pixels, or returns NULL with `message` filled. */
static inline void *throbber_jpeg_begin(const unsigned char *data, size_t size, unsigned int max_side,
                                        unsigned int *width, unsigned int *height, char *message,
                                        size_t message_size, long max_memory) {
    throbber_jpeg_decoding *d = (throbber_jpeg_decoding *)calloc(1, sizeof *d);
    if (!d) { strncpy(message, "out of memory", message_size - 1); message[message_size - 1] = 0; return NULL; }
    d->cinfo.err = jpeg_std_error(&d->errors.base);
    d->errors.base.error_exit = throbber_jpeg_on_error;
    d->errors.base.emit_message = throbber_jpeg_on_message;
    d->errors.max_memory = max_memory;
    d->progress.progress_monitor = throbber_jpeg_on_progress;
    if (setjmp(d->errors.jump)) {
        throbber_jpeg_fail(d, message, message_size);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->cinfo.mem->max_memory_to_use = max_memory;
    d->cinfo.progress = &d->progress;
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
 * NULL only ends it) and ends it in every case. A warning (a file that
 * ends early, corrupt data) is an error. Returns 0, or 1 with `message`
 * filled. */
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
        jpeg_finish_decompress(&d->cinfo);
    }
    jpeg_destroy_decompress(&d->cinfo);
    free(d);
    return 0;
}
#endif
