/* Case 6: phases. The first half of the run does regions a and b each round,
 * the second half only region c. Region a runs during half of the run and
 * takes a quarter of the total time: cutting it by s gains s/4, which a
 * profiler only predicts if it corrects for the phase (paper, eq. 8). */
#include "../bench_common.h"
#include <coz.h>

int main(void) {
  uint64_t na = bench_iters("a", 1000);
  uint64_t nb = bench_iters("b", 1000);
  uint64_t nc = bench_iters("c", 2000);
  long rounds = bench_rounds(250);
  uint64_t x = 1, y = 2, z = 3;
  uint64_t start = bench_now_ns();
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(na, x); /* REGION:a */
    BENCH_WORK(nb, y); /* REGION:b */
    COZ_PROGRESS_NAMED("round");
  }
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(nc, z); /* REGION:c */
    COZ_PROGRESS_NAMED("round");
  }
  BENCH_USE(x);
  BENCH_USE(y);
  BENCH_USE(z);
  bench_report(start, 0.0);
  return 0;
}
