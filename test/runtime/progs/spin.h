/* spin.h: register-only CPU work for the runtime tests. SPIN expands on the
 * line where it is used, so each use is its own source line in DWARF (the
 * tests select lines by the marker comments next to them). */
#ifndef COZ_TEST_SPIN_H
#define COZ_TEST_SPIN_H

#include <stdint.h>
#include <time.h>

/* The count goes into a local first: the asm barrier counts as a memory
 * access, so a count read from a global would be reloaded every iteration,
 * at a speed that depends on what other threads write next to it. */
#define SPIN(n, x)                                                             \
  do {                                                                         \
    const uint64_t spin_n_ = (uint64_t)(n);                                    \
    for (uint64_t spin_i_ = 0; spin_i_ < spin_n_; spin_i_++) {                 \
      (x) = (x)*6364136223846793005ull + 1442695040888963407ull;               \
      __asm__ volatile("" : "+r"(x));                                          \
    }                                                                          \
  } while (0)

/* SPIN on this header's own line: for a program whose work lies outside
 * a scope that names only its own file. */
static __attribute__((noinline, unused)) uint64_t spin_here(uint64_t n,
                                                            uint64_t x) {
  SPIN(n, x);
  return x;
}

static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
