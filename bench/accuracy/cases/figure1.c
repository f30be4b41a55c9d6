/* Case 2: the paper's Figure 1. Each round starts two threads, a() slightly
 * longer than b(), joins both, then reaches the progress point. Cutting a
 * gains at most the difference between them; cutting b gains nothing. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>

static uint64_t na, nb;

static void *a(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  BENCH_WORK(na, x); /* REGION:a */
  BENCH_USE(x);
  return NULL;
}

static void *b(void *arg) {
  uint64_t y = (uint64_t)(uintptr_t)arg;
  BENCH_WORK(nb, y); /* REGION:b */
  BENCH_USE(y);
  return NULL;
}

int main(void) {
  na = bench_iters("a", 2000);
  nb = bench_iters("b", 1800);
  long rounds = bench_rounds(500);
  uint64_t start = bench_now_ns();
  for (long r = 0; r < rounds; ++r) {
    pthread_t ta, tb;
    pthread_create(&ta, NULL, a, (void *)(uintptr_t)r);
    pthread_create(&tb, NULL, b, (void *)(uintptr_t)r);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    COZ_PROGRESS;
  }
  bench_report(start, 0.0);
  return 0;
}
