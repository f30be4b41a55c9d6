/* The uninstrumented library of case 10, built with plain clang -O2 -g into
 * libbenchwork.so: its samples are outside the profiling scope. */
#include "../bench_common.h"

uint64_t libwork_spin(uint64_t iters, uint64_t state);

uint64_t libwork_spin(uint64_t iters, uint64_t state) {
  BENCH_WORK(iters, state);
  return state;
}
