#ifndef THROBBER_CSWSCALE_SHIM_H
#define THROBBER_CSWSCALE_SHIM_H
#include <libswscale/swscale.h>
#endif
