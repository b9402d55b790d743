#ifndef THROBBER_CFFMPEG_SHIM_H
#define THROBBER_CFFMPEG_SHIM_H
/* FFmpeg's headers, and a table of the functions the video code calls,
   filled by dlopen/dlsym on the first video read. FFmpeg is the one C
   library Throbber does not link and call directly: libavformat and
   libavcodec bring some 95 more shared libraries, and loading them would
   cost every run about 22 ms at start-up, video or not
   (docs/architecture.md, "Video"). The table also holds the libavutil and
   libswscale functions the video code calls (libswscale is linked for
   resizing and loads libavutil at start anyway), so that one loader serves
   it.
   Each field has the type of the function it names, taken from FFmpeg's own
   prototype with __typeof__, so every call through the table is checked by
   the compiler against the header it was built with. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* The functions, by library: X(name) for each. */
#define THROBBER_AVFORMAT_FUNCTIONS(X) \
    X(av_probe_input_format3) \
    X(avformat_open_input) \
    X(avformat_find_stream_info) \
    X(avformat_close_input) \
    X(av_find_best_stream) \
    X(av_read_frame) \
    X(avformat_seek_file) \
    X(av_stream_get_side_data)

#define THROBBER_AVCODEC_FUNCTIONS(X) \
    X(avcodec_find_decoder) \
    X(avcodec_find_decoder_by_name) \
    X(avcodec_descriptor_get) \
    X(avcodec_profile_name) \
    X(avcodec_alloc_context3) \
    X(avcodec_parameters_to_context) \
    X(avcodec_open2) \
    X(avcodec_send_packet) \
    X(avcodec_receive_frame) \
    X(avcodec_flush_buffers) \
    X(avcodec_free_context) \
    X(av_packet_alloc) \
    X(av_packet_free) \
    X(av_packet_unref)

#define THROBBER_AVUTIL_FUNCTIONS(X) \
    X(av_log_set_level) \
    X(av_log_set_callback) \
    X(av_log_format_line2) \
    X(av_max_alloc) \
    X(av_strerror) \
    X(av_dict_get) \
    X(av_frame_alloc) \
    X(av_frame_free) \
    X(av_frame_clone) \
    X(av_frame_unref) \
    X(av_display_rotation_get) \
    X(av_get_pix_fmt_name) \
    X(av_pix_fmt_desc_get) \
    X(av_color_space_name) \
    X(av_color_range_name) \
    X(av_color_primaries_name) \
    X(av_color_transfer_name) \
    X(av_chroma_location_name) \
    X(av_opt_set_int) \
    X(av_image_get_buffer_size)

#define THROBBER_SWSCALE_FUNCTIONS(X) \
    X(sws_alloc_context) \
    X(sws_init_context) \
    X(sws_setColorspaceDetails) \
    X(sws_getCoefficients) \
    X(sws_scale) \
    X(sws_freeContext)

#pragma clang assume_nonnull begin
/* One field per function: `__typeof__(avformat_open_input) *avformat_open_input;`. */
#define THROBBER_FN(name) __typeof__(name) *name;
typedef struct ThrobberFFmpeg {
    THROBBER_AVFORMAT_FUNCTIONS(THROBBER_FN)
    THROBBER_AVCODEC_FUNCTIONS(THROBBER_FN)
    THROBBER_AVUTIL_FUNCTIONS(THROBBER_FN)
    THROBBER_SWSCALE_FUNCTIONS(THROBBER_FN)
} ThrobberFFmpeg;
#undef THROBBER_FN
#pragma clang assume_nonnull end

/* Sonames of the major versions the headers describe: a library of another
   major version has another ABI, so it is not tried. */
#define THROBBER_SONAME(lib, major) "lib" #lib ".so." AV_STRINGIFY(major)

/* Opens the four libraries (RTLD_NOW | RTLD_LOCAL) and returns a new table
   of their functions; or NULL with what failed in `failure`
   ("libavformat.so.59: cannot open shared object file…" or
   "libavcodec.so.59 has no avcodec_open2"). The libraries and the table stay
   for the life of the process. */
static inline const ThrobberFFmpeg *_Nullable throbber_ffmpeg_load(char *failure, size_t size) {
    const char *names[4] = {
        THROBBER_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), THROBBER_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR),
        THROBBER_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), THROBBER_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR)};
    void *handles[4];
    ThrobberFFmpeg *table = calloc(1, sizeof(ThrobberFFmpeg));
    if (!table) {
        snprintf(failure, size, "out of memory");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        handles[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *why = dlerror();
            snprintf(failure, size, "%s", why ? why : names[i]);
            free(table);
            return NULL;
        }
    }
#define THROBBER_LOAD(lib, name) \
    if (!(table->name = (__typeof__(name) *)dlsym(handles[lib], #name))) { \
        snprintf(failure, size, "%s has no %s", names[lib], #name); \
        free(table); \
        return NULL; \
    }
#define THROBBER_LOAD_AVFORMAT(name) THROBBER_LOAD(0, name)
#define THROBBER_LOAD_AVCODEC(name) THROBBER_LOAD(1, name)
#define THROBBER_LOAD_AVUTIL(name) THROBBER_LOAD(2, name)
#define THROBBER_LOAD_SWSCALE(name) THROBBER_LOAD(3, name)
    THROBBER_AVFORMAT_FUNCTIONS(THROBBER_LOAD_AVFORMAT)
    THROBBER_AVCODEC_FUNCTIONS(THROBBER_LOAD_AVCODEC)
    THROBBER_AVUTIL_FUNCTIONS(THROBBER_LOAD_AVUTIL)
    THROBBER_SWSCALE_FUNCTIONS(THROBBER_LOAD_SWSCALE)
#undef THROBBER_LOAD_AVFORMAT
#undef THROBBER_LOAD_AVCODEC
#undef THROBBER_LOAD_AVUTIL
#undef THROBBER_LOAD_SWSCALE
#undef THROBBER_LOAD
    return table;
}

/* Values FFmpeg defines with function-like macros, which Swift does not import. */
static inline int throbber_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int throbber_averror_eof(void) { return AVERROR_EOF; }
static inline int throbber_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int throbber_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t throbber_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline const char *throbber_avformat_soname(void) {
    return THROBBER_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR);
}
#endif
