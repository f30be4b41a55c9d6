/* Case 1: a serial loop with two regions. Region a takes ~60% of each round,
 * region b ~40%; one progress point per round. Cutting a region by s should
 * speed the program up by its share times s. */
#include "../bench_common.h"
#include <coz.h>

int main(void) {
  uint64_t na = bench_iters("a", 1200);
  uint64_t nb = bench_iters("b", 800);
  long rounds = bench_rounds(500);
  uint64_t x = 1, y = 2;
  uint64_t start = bench_now_ns();
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(na, x); /* REGION:a */
    BENCH_WORK(nb, y); /* REGION:b */
    COZ_PROGRESS;
  }
  BENCH_USE(x);
  BENCH_USE(y);
  bench_report(start, 0.0);
  return 0;
}
