/* Case 10: a region reached through a call into an uninstrumented shared
 * library. Its samples fall outside the scope and must be attributed to the
 * instrumented call site (paper 3.4.2), the line marked REGION:lib, not to
 * the caller of do_round. */
#include "../bench_common.h"
#include <coz.h>

uint64_t libwork_spin(uint64_t iters, uint64_t state);

static uint64_t n_lib, n_own;

__attribute__((noinline)) static uint64_t do_round(uint64_t x) {
  x = libwork_spin(n_lib, x); /* REGION:lib */
  BENCH_WORK(n_own, x);       /* REGION:own */
  return x;
}

int main(void) {
  n_lib = bench_iters("lib", 1200);
  n_own = bench_iters("own", 800);
  long rounds = bench_rounds(500);
  uint64_t x = 1;
  uint64_t start = bench_now_ns();
  for (long r = 0; r < rounds; ++r) {
    x = do_round(x);
    COZ_PROGRESS;
  }
  BENCH_USE(x);
  bench_report(start, 0.0);
  return 0;
}
