/* Case 11: fork-join with a barrier. Two persistent threads each do their
 * share of a round, a (longer) and b (shorter), then meet at a
 * pthread_barrier; the main thread then reaches the progress point. Cutting a
 * gains until b becomes the longer share (25% -> 25%, 50% -> 30%); cutting b
 * gains nothing. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>

static pthread_barrier_t barrier;
static uint64_t na, nb;
static long rounds;

static void *worker(void *arg) {
  uint64_t y = (uint64_t)(uintptr_t)arg;
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(nb, y); /* REGION:b */
    pthread_barrier_wait(&barrier);
  }
  BENCH_USE(y);
  return NULL;
}

int main(void) {
  na = bench_iters("a", 2000);
  nb = bench_iters("b", 1400);
  rounds = bench_rounds(500);
  pthread_barrier_init(&barrier, NULL, 2);
  uint64_t x = 1;
  uint64_t start = bench_now_ns();
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)(uintptr_t)2);
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(na, x); /* REGION:a */
    pthread_barrier_wait(&barrier);
    COZ_PROGRESS;
  }
  pthread_join(t, NULL);
  BENCH_USE(x);
  bench_report(start, 0.0);
  return 0;
}
