#ifndef THROBBER_CZOPFLI_SHIM_H
#define THROBBER_CZOPFLI_SHIM_H
#include <stdlib.h>
#include <zopfli/zopfli.h>

/* zopfli 1.0.3 has no version function or macro and no pkg-config file.
   This is the upstream version of the Debian package (libzopfli-dev) the
   shim was written against; a test compares it with dpkg's record, so a
   different library fails loudly instead of pinning hashes to the wrong
   version. */
#define THROBBER_ZOPFLI_VERSION "1.0.3"
static inline const char *throbber_zopfli_version(void) { return THROBBER_ZOPFLI_VERSION; }

/* ZopfliCompress allocates its output with malloc: the caller frees it here. */
static inline void throbber_zopfli_free(unsigned char *out) { free(out); }
#endif
