/* A serial loop: line A (work_a) takes a fraction f of each iteration.
 *   fixed_line ITERS            runs the loop (profiled or not)
 *   fixed_line ITERS measure    also times work_a and prints f=... */
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
  double in_a = 0, start = now_s();
  for (long i = 0; i < iters; i++) {
    double t0 = measure ? now_s() : 0;
    x = work_a(x);
    if (measure)
      in_a += now_s() - t0;
    x = work_b(x);
    COZ_PROGRESS;
  }
  double total = now_s() - start;
  if (measure)
    printf("f=%.4f\n", in_a / total);
  printf("time=%.4f x=%llu\n", total, (unsigned long long)(x & 1));
  return 0;
}
