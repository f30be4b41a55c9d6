/* The fork_join case (cases/fork_join.c, included below, unchanged) with a
 * timeline: every round's barrier arrival and departure times of both
 * threads and, built with -DWITH_COZ, the runtime's global delay count when
 * the main thread leaves the barrier (a round of a sped-up experiment is
 * one whose count grew). The case's pthread_barrier_wait is redirected to
 * timed_barrier_wait, which records them. Written to $FJ_OUT (default
 * fork_join_rounds.tsv) at exit, one round a line, ns since the program
 * started: main arrival, main departure, worker arrival, worker departure,
 * delay. rounds.py summarises it. Used for docs/results.md's fork_join
 * account. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifdef WITH_COZ
extern _Atomic uint64_t coz_global_delay_ns; /* runtime/delays.c */
static uint64_t delay_now(void) { return atomic_load(&coz_global_delay_ns); }
#else
static uint64_t delay_now(void) { return 0; }
#endif

#define MAX_ROUNDS 8000
static uint64_t main_in[MAX_ROUNDS], main_out[MAX_ROUNDS];
static uint64_t worker_in[MAX_ROUNDS], worker_out[MAX_ROUNDS];
static uint64_t delay[MAX_ROUNDS];
static long main_rounds; /* rounds the main thread left the barrier of */
static __thread long rounds_here;
static pthread_t main_thread;
static uint64_t t0;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int timed_barrier_wait(pthread_barrier_t *barrier) {
  long r = rounds_here++;
  int is_main = pthread_equal(pthread_self(), main_thread);
  uint64_t in = now_ns() - t0;
  int ret = pthread_barrier_wait(barrier);
  uint64_t out = now_ns() - t0;
  if (r >= MAX_ROUNDS)
    return ret;
  (is_main ? main_in : worker_in)[r] = in;
  (is_main ? main_out : worker_out)[r] = out;
  if (is_main) {
    delay[r] = delay_now();
    main_rounds = r + 1;
  }
  return ret;
}
#define pthread_barrier_wait timed_barrier_wait

__attribute__((constructor)) static void start_clock(void) {
  t0 = now_ns();
  main_thread = pthread_self();
}

__attribute__((destructor)) static void write_timeline(void) {
  const char *path =
      getenv("FJ_OUT") ? getenv("FJ_OUT") : "fork_join_rounds.tsv";
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    _exit(1);
  }
  for (long r = 0; r < main_rounds; ++r)
    fprintf(f, "%llu\t%llu\t%llu\t%llu\t%llu\n", (unsigned long long)main_in[r],
            (unsigned long long)main_out[r], (unsigned long long)worker_in[r],
            (unsigned long long)worker_out[r], (unsigned long long)delay[r]);
  fclose(f);
}

#include "../cases/fork_join.c"
