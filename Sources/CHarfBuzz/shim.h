#ifndef THROBBER_CHARFBUZZ_SHIM_H
#define THROBBER_CHARFBUZZ_SHIM_H
/* HarfBuzz: shaping (hb.h) and the OpenType tables behind it, for variation
 * axes (hb-ot.h). Its headers include their siblings with quotes, so no
 * include path is needed. Only hb's own OpenType font functions are used:
 * no FreeType, no glib. */
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#endif
