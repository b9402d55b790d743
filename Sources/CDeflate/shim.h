#ifndef THROBBER_CDEFLATE_SHIM_H
#define THROBBER_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
