/* fit.c: the two summaries drawn from a row's points: a weighted
 * least-squares slope (the default ranking) and the program speedup predicted
 * at a given line speedup (a local fit of the neighbouring measured points).
 */
#include "fit.h"

#include <math.h>
#include <stdbool.h>

const int cr_pred_permille[CR_PRED_N] = {250, 500, 1000};

static bool used(const struct cr_measure *m, const double *ys, const double *ws,
                 size_t i) {
  return m[i].valid && !isnan(ys[i]) && ws[i] > 0;
}

/* The weighted mean of the used points' x (line speedup, 0..1) and their
 * weighted sum of squares about it; false when fewer than two are used. */
static bool x_spread(const struct cr_measure *m, size_t n, const double *ys,
                     const double *ws, double *mx, double *sxx) {
  double sw = 0, sx = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (used(m, ys, ws, i)) {
      sw += ws[i];
      sx += ws[i] * (m[i].speedup / 1000.0);
      k++;
    }
  if (k < 2 || !(sw > 0) || !isfinite(sw))
    return false;
  *mx = sx / sw;
  *sxx = 0;
  for (size_t i = 0; i < n; i++)
    if (used(m, ys, ws, i)) {
      double dx = m[i].speedup / 1000.0 - *mx;
      *sxx += ws[i] * dx * dx;
    }
  return *sxx > 0;
}

/* Weighted least squares, each point weighted by its visits (ws[i],
 * cr_measure_weight): one experiment with few visits, or a stalled one with a
 * very long period, cannot swing the ranking. */
double cr_fit_slope(const struct cr_measure *m, size_t n, const double *ys,
                    const double *ws) {
  double mx, sxx, sw = 0, sy = 0, sxy = 0;
  if (!x_spread(m, n, ys, ws, &mx, &sxx))
    return NAN;
  for (size_t i = 0; i < n; i++)
    if (used(m, ys, ws, i)) {
      sw += ws[i];
      sy += ws[i] * ys[i];
    }
  double my = sy / sw;
  for (size_t i = 0; i < n; i++)
    if (used(m, ys, ws, i))
      sxy += ws[i] * (m[i].speedup / 1000.0 - mx) * (ys[i] - my);
  double slope = sxy / sxx;
  return isfinite(slope) ? slope : NAN;
}

/* The slope is sum c_i y_i with c_i = w_i (x_i - mean x) / Sxx, and
 * y_i = f (1 - v_i / v_0), f the phase factor and v_0 the baseline's value
 * (m[0]): a relative error e_i on v_i moves y_i by -(f - y_i) e_i, and one
 * on v_0 moves every y_i by (f - y_i) e_0. The delta method sums those
 * variances; the weights are taken as fixed, as the slope's own. */
double cr_fit_slope_se(const struct cr_measure *m, size_t n, const double *ys,
                       const double *ws, const double *log_var, double f) {
  double mx, sxx, own = 0, via_base = 0;
  if (!x_spread(m, n, ys, ws, &mx, &sxx))
    return NAN;
  for (size_t i = 1; i < n; i++)
    if (used(m, ys, ws, i)) {
      double c = ws[i] * (m[i].speedup / 1000.0 - mx) / sxx * (f - ys[i]);
      own += c * c * log_var[i];
      via_base += c;
    }
  double se = sqrt(own + via_base * via_base * log_var[0]);
  return isfinite(se) ? se : NAN;
}

/* Half-width of the local fit's window and its kernel's bandwidth, in
 * line speedup: the window holds up to 7 of the runtime's 5% steps; the
 * kernel still gives the outermost ones a fifth of the central weight. */
#define WINDOW 0.15
#define BANDWIDTH 0.2

/* Weighted least squares y = a + b (s - s*) over the valid points within
 * WINDOW of s*; returns a, or NAN when fewer than two points or not on
 * both sides of s*. */
static double local_linear(const struct cr_measure *m, size_t n,
                           const double *ys, const double *ws, int permille) {
  double s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0;
  int count = 0, below = 0, above = 0;
  for (size_t i = 0; i < n; i++) {
    if (!m[i].valid || isnan(ys[i]))
      continue;
    double d = (m[i].speedup - permille) / 1000.0;
    if (fabs(d) > WINDOW + 1e-9)
      continue;
    double u = fabs(d) / BANDWIDTH, k = 1 - u * u * u;
    double w = k * k * k * ws[i];
    if (!(w > 0) || !isfinite(w))
      continue;
    s0 += w;
    s1 += w * d;
    s2 += w * d * d;
    t0 += w * ys[i];
    t1 += w * d * ys[i];
    below |= d <= 0;
    above |= d >= 0;
    count++;
  }
  double det = s0 * s2 - s1 * s1;
  if (count < 2 || !below || !above || !(det > 0) || !isfinite(det))
    return NAN;
  double a = (s2 * t0 - s1 * t1) / det;
  return isfinite(a) ? a : NAN;
}

/* Measured points are noisy: with random speedups a profile has only a few
 * experiments per speedup, so a prediction pools the neighbouring speedups
 * (a local linear fit weighted by each point's precision). A global curve
 * (a line, a polynomial) would instead bias the usual causal-profile shape,
 * which rises then goes flat once the line is no longer on the critical
 * path. Without neighbours on both sides the prediction interpolates
 * between the nearest measured speedups and is held flat past the largest
 * one (no extrapolation). */
double cr_fit_at(const struct cr_measure *m, size_t n, const double *ys,
                 const double *ws, int permille) {
  double local = local_linear(m, n, ys, ws, permille);
  if (!isnan(local))
    return local;
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
