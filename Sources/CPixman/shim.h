#ifndef THROBBER_CPIXMAN_SHIM_H
#define THROBBER_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
