/* Cost of one progress-point visit. THREADS threads (argv[1], 1 or 2) each
 * run ITERS iterations of an LCG step plus, unless built with
 * -DNO_PROGRESS, one visit of the shared named point "hot" (-DSHARED_ATOMIC:
 * an atomic add on one plain global instead, the cache-line ping-pong the
 * sharded counters avoid). Prints the mean ns of thread CPU time per
 * iteration (CPU time, so that a loaded machine's preemptions do not count;
 * cache-line transfers stall the thread and do count). */
#define _POSIX_C_SOURCE 200809L
#include <coz.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 50000000ULL

#ifdef SHARED_ATOMIC
static _Atomic uint64_t shared_counter;
#endif

static double cpu_ns[2];

static double thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void *loop(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  uint64_t x = id + 1;
  double t0 = thread_cpu_ns();
  for (uint64_t i = 0; i < ITERS; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    __asm__ volatile("" : "+r"(x));
#if defined(SHARED_ATOMIC)
    atomic_fetch_add_explicit(&shared_counter, 1, memory_order_relaxed);
#elif !defined(NO_PROGRESS)
    COZ_PROGRESS_NAMED("hot");
#endif
  }
  __asm__ volatile("" : : "r"(x));
  cpu_ns[id] = thread_cpu_ns() - t0;
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  if (threads < 1 || threads > 2) {
    fprintf(stderr, "usage: %s [1|2]\n", argv[0]);
    return 2;
  }
  pthread_t t[2];
  for (int i = 0; i < threads; ++i)
    pthread_create(&t[i], NULL, loop, (void *)(uintptr_t)i);
  double total = 0;
  for (int i = 0; i < threads; ++i) {
    pthread_join(t[i], NULL);
    total += cpu_ns[i];
  }
  printf("ns_per_iter=%.4f\n", total / threads / (double)ITERS);
  return 0;
}
