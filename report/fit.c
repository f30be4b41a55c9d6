/* fit.c: the two summaries drawn from a row's points: a least-squares slope
 * (the default ranking) and the program speedup predicted at a given line
 * speedup (piecewise-linear between the measured neighbours).
 */
#include "analysis.h"

#include <math.h>

double cr_fit_slope(const struct cr_measure *m, size_t n, const double *ys) {
  double sx = 0, sy = 0, k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!m[i].valid || isnan(ys[i]))
      continue;
    sx += m[i].speedup / 1000.0;
    sy += ys[i];
    k++;
  }
  if (k < 2)
    return NAN;
  double mx = sx / k, my = sy / k, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++) {
    if (!m[i].valid || isnan(ys[i]))
      continue;
    double dx = m[i].speedup / 1000.0 - mx;
    sxx += dx * dx;
    sxy += dx * (ys[i] - my);
  }
  return sxx > 0 ? sxy / sxx : NAN;
}

/* Measured points are noisy but unbiased; a global curve (a line, a
 * polynomial) would bias the typical causal-profile shape that rises then
 * goes flat once the line is no longer on the critical path. So predictions
 * interpolate between the nearest measured speedups and are held flat past
 * the largest one (no extrapolation). */
double cr_fit_at(const struct cr_measure *m, size_t n, const double *ys,
                 int permille) {
  long prev = -1;
  for (size_t i = 0; i < n; i++) {
    if (!m[i].valid || isnan(ys[i]))
      continue;
    if (m[i].speedup == permille)
      return ys[i];
    if (m[i].speedup > permille) {
      if (prev < 0)
        return ys[i];
      double x0 = m[prev].speedup, x1 = m[i].speedup;
      double w = (permille - x0) / (x1 - x0);
      return ys[prev] + w * (ys[i] - ys[prev]);
    }
    prev = (long)i;
  }
  return prev < 0 ? NAN : ys[prev];
}
