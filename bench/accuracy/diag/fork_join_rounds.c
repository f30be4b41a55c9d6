/* fork_join.c with a timeline: every round's barrier arrival and departure
 * times of both threads and, built with -DWITH_COZ, the runtime's global
 * delay count when the main thread leaves the barrier (a round of a sped-up
 * experiment is one whose count grew). Written to $FJ_OUT (default
 * fork_join_rounds.tsv) at exit, one round a line, ns since the start:
 * main arrival, main departure, worker arrival, worker departure, delay.
 * rounds.py summarises it. Used for docs/results.md's fork_join account. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef WITH_COZ
extern _Atomic uint64_t coz_global_delay_ns; /* runtime/delays.c */
static uint64_t delay_now(void) { return atomic_load(&coz_global_delay_ns); }
#else
static uint64_t delay_now(void) { return 0; }
#endif

#define MAX_ROUNDS 8000
static pthread_barrier_t barrier;
static uint64_t na, nb;
static long rounds;
static uint64_t main_in[MAX_ROUNDS], main_out[MAX_ROUNDS];
static uint64_t worker_in[MAX_ROUNDS], worker_out[MAX_ROUNDS];
static uint64_t delay[MAX_ROUNDS];

static void *worker(void *arg) {
  uint64_t y = (uint64_t)(uintptr_t)arg;
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(nb, y); /* REGION:b */
    worker_in[r] = bench_now_ns();
    pthread_barrier_wait(&barrier);
    worker_out[r] = bench_now_ns();
  }
  BENCH_USE(y);
  return NULL;
}

int main(void) {
  na = bench_iters("a", 2000);
  nb = bench_iters("b", 1400);
  rounds = bench_rounds(500);
  if (rounds > MAX_ROUNDS)
    rounds = MAX_ROUNDS;
  pthread_barrier_init(&barrier, NULL, 2);
  uint64_t x = 1;
  uint64_t start = bench_now_ns();
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)(uintptr_t)2);
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(na, x); /* REGION:a */
    main_in[r] = bench_now_ns();
    pthread_barrier_wait(&barrier);
    main_out[r] = bench_now_ns();
    delay[r] = delay_now();
    COZ_PROGRESS;
  }
  pthread_join(t, NULL);
  BENCH_USE(x);
  bench_report(start, 0.0);
  const char *path =
      getenv("FJ_OUT") ? getenv("FJ_OUT") : "fork_join_rounds.tsv";
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return 1;
  }
  for (long r = 0; r < rounds; ++r)
    fprintf(f, "%llu\t%llu\t%llu\t%llu\t%llu\n",
            (unsigned long long)(main_in[r] - start),
            (unsigned long long)(main_out[r] - start),
            (unsigned long long)(worker_in[r] - start),
            (unsigned long long)(worker_out[r] - start),
            (unsigned long long)delay[r]);
  fclose(f);
  return 0;
}
