#ifndef THROBBER_CGIF_SHIM_H
#define THROBBER_CGIF_SHIM_H
#include <gif_lib.h>
#endif
