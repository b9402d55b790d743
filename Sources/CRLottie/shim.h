#ifndef THROBBER_CRLOTTIE_SHIM_H
#define THROBBER_CRLOTTIE_SHIM_H
#include <rlottie_capi.h>

/* rlottie 0.1 has no version function or macro. This is the pkg-config
   version (rlottie.pc) of the Debian package the shim was written against;
   a test compares it with `pkg-config --modversion rlottie`, so a different
   library fails loudly instead of pinning hashes to the wrong version. */
#define THROBBER_RLOTTIE_VERSION "0.1.0"
static inline const char *throbber_rlottie_version(void) { return THROBBER_RLOTTIE_VERSION; }
#endif
