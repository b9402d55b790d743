#ifndef THROBBER_CFONTCONFIG_SHIM_H
#define THROBBER_CFONTCONFIG_SHIM_H
/* fontconfig: which installed font file a family name and weight select. */
#include <fontconfig/fontconfig.h>
#endif
