/* bench_common.h: shared helpers for the accuracy programs.
 *
 * Every program has regions of work marked with a comment REGION:<name> on the
 * line that does the work; the harness finds the line number from that
 * comment. A region is made really faster with the BENCH_CUT environment
 * variable ("a=0.25,b=0.5"): its iteration count is scaled by 1 - cut.
 * BENCH_SCALE scales the number of rounds (the length of a run).
 *
 * The work itself is BENCH_WORK: an LCG step kept in a register by an empty
 * asm barrier. It is a macro so that every instruction of the loop carries the
 * line of the region that expands it (an inline function would put the
 * samples on this header's lines instead).
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

/* Include this header first: the programs are strict C11 plus POSIX. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_LCG_MUL 6364136223846793005ULL
#define BENCH_LCG_ADD 1442695040888963407ULL

/* About 1 ns per iteration on the benchmark machine: 1000 iterations ~ 1 us.
 * The whole loop is on the line that expands the macro. The count is copied
 * into a local first: the asm barrier counts as a memory access to the
 * compiler, so `iters` itself (a global, or a variable captured by reference)
 * was reloaded from memory every iteration, and when that memory shared a
 * cache line with a lock or a queue the other thread wrote, the loop's speed
 * depended on the other thread and on the process's layout. */
#define BENCH_WORK(iters, state)                                               \
  do {                                                                         \
    const uint64_t bench_n_ = (iters);                                         \
    for (uint64_t bench_i_ = 0; bench_i_ < bench_n_; ++bench_i_) {             \
      (state) = (state)*BENCH_LCG_MUL + BENCH_LCG_ADD;                         \
      __asm__ volatile("" : "+r"(state));                                      \
    }                                                                          \
  } while (0)

/* Keeps a result alive without a memory access in the hot loop. */
#define BENCH_USE(state) __asm__ volatile("" : : "r"(state))

static inline uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The fraction by which region `name` is cut, from BENCH_CUT. */
static inline double bench_cut(const char *name) {
  const char *spec = getenv("BENCH_CUT");
  size_t len = strlen(name);
  while (spec && *spec) {
    if (strncmp(spec, name, len) == 0 && spec[len] == '=') {
      double cut = strtod(spec + len + 1, NULL);
      if (cut < 0.0 || cut >= 1.0) {
        fprintf(stderr, "BENCH_CUT: %s must be in [0, 1)\n", name);
        exit(2);
      }
      return cut;
    }
    spec = strchr(spec, ',');
    if (spec)
      ++spec;
  }
  return 0.0;
}

/* Iterations of region `name` after its cut; base is in thousands. */
static inline uint64_t bench_iters(const char *name, double base_kiters) {
  return (uint64_t)(base_kiters * 1000.0 * (1.0 - bench_cut(name)));
}

/* Rounds scaled by BENCH_SCALE (default 1). */
static inline long bench_rounds(long base) {
  const char *s = getenv("BENCH_SCALE");
  double scale = s ? strtod(s, NULL) : 1.0;
  if (!(scale > 0.0)) {
    fprintf(stderr, "BENCH_SCALE must be a positive number\n");
    exit(2);
  }
  long n = (long)(base * scale);
  return n > 0 ? n : 1;
}

/* The one line the harness parses. */
static inline void bench_report(uint64_t start_ns, double latency_ns) {
  uint64_t elapsed = bench_now_ns() - start_ns;
  if (latency_ns > 0.0)
    printf("BENCH elapsed_ns=%llu latency_ns=%.0f\n",
           (unsigned long long)elapsed, latency_ns);
  else
    printf("BENCH elapsed_ns=%llu\n", (unsigned long long)elapsed);
}

#endif /* BENCH_COMMON_H */
