#ifndef THROBBER_CWEBP_SHIM_H
#define THROBBER_CWEBP_SHIM_H
// libwebp: the still decoder and encoder, the animation demuxer and decoder
// (libwebpdemux), and the animation encoder (libwebpmux).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#endif
