#ifndef THROBBER_CIMAGEQUANT_SHIM_H
#define THROBBER_CIMAGEQUANT_SHIM_H
#include <libimagequant.h>

/* libimagequant 2.x parallelizes with OpenMP. Throbber quantizes each frame on
 * one thread (and runs frames in parallel itself) so that results never
 * depend on OMP_NUM_THREADS. The setting is per calling thread. */
extern void omp_set_num_threads(int);
static inline void throbber_liq_single_thread(void) { omp_set_num_threads(1); }
#endif
