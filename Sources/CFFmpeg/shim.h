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
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
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
    X(av_probe_input_buffer2) \
    X(avformat_alloc_context) \
    X(avio_alloc_context) \
    X(avio_context_free) \
    X(avformat_open_input) \
    X(avformat_find_stream_info) \
    X(avformat_close_input) \
    X(av_find_best_stream) \
    X(av_read_frame) \
    X(avformat_seek_file) \
    X(av_stream_get_side_data) \
    X(avformat_version)

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
    X(av_packet_unref) \
    X(avcodec_version)

#define THROBBER_AVUTIL_FUNCTIONS(X) \
    X(av_log_set_level) \
    X(av_log_set_callback) \
    X(av_log_format_line2) \
    X(av_max_alloc) \
    X(av_malloc) \
    X(av_freep) \
    X(av_dict_set) \
    X(av_dict_free) \
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
    X(av_image_get_buffer_size) \
    X(avutil_version)

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

/* Input through one file descriptor Throbber opened itself. FFmpeg is
   never given a name to open: a name is never read as a URL or protocol
   (`pipe:0`, `subfile,,…:`, `http:/…`), and a name with a colon in it is
   just a name. */
static inline int throbber_fd_read(void *opaque, uint8_t *buffer, int size) {
    int fd = (int)(intptr_t)opaque;
    for (;;) {
        ssize_t n = read(fd, buffer, (size_t)size);
        if (n > 0) return (int)n;
        if (n == 0) return AVERROR_EOF;
        if (errno != EINTR) return AVERROR(errno);
    }
}

static inline int64_t throbber_fd_seek(void *opaque, int64_t offset, int whence) {
    int fd = (int)(intptr_t)opaque;
    if (whence & AVSEEK_SIZE) {
        struct stat status;
        return fstat(fd, &status) == 0 ? (int64_t)status.st_size : AVERROR(errno);
    }
    off_t at = lseek(fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/* FFmpeg's hook for every further file a demuxer asks to open (a
   playlist's segments, a list's entries, a reference to media outside the
   file): refused, and counted in the int the context's `opaque` points to
   (nested demuxers share that pointer). */
static inline int throbber_refuse_open(
    struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    (void)pb;
    (void)url;
    (void)flags;
    (void)options;
    if (s->opaque) *(int *)s->opaque += 1;
    return AVERROR(EPERM);
}

/* A read-only AVIOContext over `fd` with a buffer of `size` bytes, or NULL
   when out of memory. Freed by throbber_fd_io_free, not by FFmpeg: a
   context given to avformat_open_input is the caller's (custom I/O). */
static inline AVIOContext *_Nullable throbber_fd_io(const ThrobberFFmpeg *ff, int fd, int size) {
    unsigned char *buffer = ff->av_malloc((size_t)size);
    if (!buffer) return NULL;
    AVIOContext *io =
        ff->avio_alloc_context(buffer, size, 0, (void *)(intptr_t)fd, throbber_fd_read, NULL, throbber_fd_seek);
    if (!io) ff->av_freep(&buffer);
    return io;
}

static inline void throbber_fd_io_free(const ThrobberFFmpeg *ff, AVIOContext *io) {
    ff->av_freep(&io->buffer);
    ff->avio_context_free(&io);
}

/* Sends every further open of `context` (and of the demuxers it nests) to
   throbber_refuse_open, counting into `*refused`. */
static inline void throbber_refuse_other_files(AVFormatContext *context, int *refused) {
    context->opaque = refused;
    context->io_open = throbber_refuse_open;
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
