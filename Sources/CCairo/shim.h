#ifndef THROBBER_CCAIRO_SHIM_H
#define THROBBER_CCAIRO_SHIM_H
// cairo.h includes its siblings with quotes: no include path needed.
#include <cairo/cairo.h>
#endif
