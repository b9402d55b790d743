#ifndef THROBBER_CCAIRO_SHIM_H
#define THROBBER_CCAIRO_SHIM_H
#include <cairo.h>
#endif
