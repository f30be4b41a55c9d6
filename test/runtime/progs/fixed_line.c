/* A serial loop: line A (work_a) takes a fraction f of each iteration,
 * lines A to B (work_a and work_b) a fraction g.
 *   fixed_line ITERS            runs the loop (profiled or not)
 *   fixed_line ITERS measure    also times them and prints f=... g=... */
#include "spin.h"
#include <coz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static uint64_t work_a(uint64_t x) {
  SPIN(400000, x); /* LINE_A */
  return x;
}

__attribute__((noinline)) static uint64_t work_b(uint64_t x) {
  SPIN(600000, x); /* LINE_B */
  return x;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  int measure = argc > 2 && strcmp(argv[2], "measure") == 0;
  uint64_t x = 1;
  double in_a = 0, in_ab = 0, start = now_s();
  for (long i = 0; i < iters; i++) {
    double t0 = measure ? now_s() : 0;
    x = work_a(x);
    double t1 = measure ? now_s() : 0;
    x = work_b(x);
    if (measure) {
      in_a += t1 - t0;
      in_ab += now_s() - t0;
    }
    COZ_PROGRESS;
  }
  double total = now_s() - start;
  if (measure)
    printf("f=%.4f g=%.4f\n", in_a / total, in_ab / total);
  printf("time=%.4f x=%llu\n", total, (unsigned long long)(x & 1));
  return 0;
}
