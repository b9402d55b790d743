#ifndef THROBBER_CZLIB_SHIM_H
#define THROBBER_CZLIB_SHIM_H
#include <zlib.h>

/* zlib's init macros pass sizeof(z_stream), which Swift cannot call. */
static inline int throbber_inflate_init_raw(z_stream *strm) {
    return inflateInit2(strm, -15);
}
static inline int throbber_inflate_init(z_stream *strm) {
    return inflateInit(strm);
}
/* windowBits 15 + 16: a gzip wrapper (.tgs stickers). */
static inline int throbber_inflate_init_gzip(z_stream *strm) {
    return inflateInit2(strm, 15 + 16);
}
static inline int throbber_deflate_init(z_stream *strm, int level, int windowBits,
                                        int memLevel, int strategy) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, memLevel, strategy);
}
#endif
