#ifndef THROBBER_CRLOTTIE_SHIM_H
#define THROBBER_CRLOTTIE_SHIM_H
#include <stddef.h>
#include <rlottie_capi.h>

/* rlottie 0.1 has no version function or macro. This is the pkg-config
   version (rlottie.pc) of the Debian package the shim was written against;
   a test compares it with `pkg-config --modversion rlottie`, so a different
   library fails loudly instead of pinning hashes to the wrong version. */
#define THROBBER_RLOTTIE_VERSION "0.1.0"
static inline const char *throbber_rlottie_version(void) { return THROBBER_RLOTTIE_VERSION; }

/* rlottie::configureModelCacheSize(size_t) from rlottie.h, the C++ API's
   only way in 0.1 to size the process-wide cache of parsed models that
   lottie_animation_from_data consults for a non-empty key (rlottie 0.2's C
   API calls it lottie_configure_model_cache_size). A free function taking a
   size_t has the C calling convention on the platforms Throbber builds for,
   so it is declared here under its Itanium C++ ABI name. Debian's build
   starts with a cache of 0 models: nothing is kept until this is called. */
extern void throbber_rlottie_configure_model_cache_size(size_t size) __asm__("_ZN7rlottie23configureModelCacheSizeEm");
#endif
