#ifndef THROBBER_CHARFBUZZ_SHIM_H
#define THROBBER_CHARFBUZZ_SHIM_H
/* HarfBuzz: shaping (hb.h) and the OpenType tables behind it, for variation
 * axes (hb-ot.h). pkg-config's harfbuzz cflags put <harfbuzz/> on the include
 * path. Only hb's own OpenType font functions are used: no FreeType, no glib. */
#include <hb.h>
#include <hb-ot.h>
#endif
