/* median.h: the median of a round's figures, for the stand-alone cost
 * benchmarks (sampling_cost.c, switch_cost.c). Sorts v in place. */
#ifndef BENCH_MEDIAN_H
#define BENCH_MEDIAN_H

#include <stdlib.h>

static inline int bench_by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* BENCH_MEDIAN_H */
