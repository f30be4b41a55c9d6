/* bootstrap.c: 95% confidence intervals by a stratified bootstrap over
 * experiments.
 *
 * Each replicate resamples, with replacement, the experiments of every
 * speedup of the row (stratified: each speedup keeps its number of
 * experiments), recombines them exactly as the point estimate does, and
 * recomputes every program speedup, the slope and the predictions. The
 * interval is the 2.5th-97.5th percentile of the replicates. A speedup
 * measured by a single experiment cannot be resampled; its visit (or
 * arrival) count is redrawn from a Poisson law of the same mean instead,
 * which is the counting noise of a rate. The generator is seeded from
 * --seed and the row's names, so the same input gives the same output.
 */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rng {
  uint64_t s;
};

static uint64_t next_u64(struct rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double u01(struct rng *r) { return (next_u64(r) >> 11) * 0x1p-53; }

static size_t below(struct rng *r, size_t n) {
  size_t i = (size_t)(u01(r) * (double)n);
  return i < n ? i : n - 1;
}

static double std_normal(struct rng *r) { /* Box-Muller */
  double u = u01(r), v = u01(r);
  return sqrt(-2 * log(u > 0 ? u : 0x1p-53)) * cos(6.283185307179586 * v);
}

static uint64_t poisson(struct rng *r, uint64_t mean) {
  if (mean == 0)
    return 0;
  if (mean < 30) { /* Knuth: multiply uniforms until below e^-mean */
    double limit = exp(-(double)mean), prod = u01(r);
    uint64_t k = 0;
    while (prod > limit) {
      k++;
      prod *= u01(r);
    }
    return k;
  }
  double x = round((double)mean + sqrt((double)mean) * std_normal(r));
  if (!(x > 0))
    return 0;
  return x < 0x1p64 ? (uint64_t)x : UINT64_MAX;
}

/* The value of measure m (over obs) recomputed from a resample of its
 * experiments; `*visits` gets the resample's visits (arrivals for
 * latency). */
static double resample(enum cr_point_kind kind, const struct cr_exp_obs *obs,
                       const struct cr_measure *m, struct rng *r,
                       double *visits) {
  if (m->n == 1) {
    const struct cr_exp_obs *o = &obs[m->first];
    double delta = kind == CR_THROUGHPUT ? (double)poisson(r, o->delta) : 0;
    double arrivals = kind == CR_LATENCY ? (double)poisson(r, o->arrivals) : 0;
    *visits = kind == CR_LATENCY ? arrivals : delta;
    return cr_measure_value(kind, o->duration, delta, arrivals, o->difference);
  }
  double duration = 0, weighted = 0, delta = 0, arrivals = 0;
  for (size_t k = 0; k < m->n; k++) {
    const struct cr_exp_obs *o = &obs[m->first + below(r, m->n)];
    duration += o->duration;
    delta += (double)o->delta;
    arrivals += (double)o->arrivals;
    weighted += o->difference * o->duration;
  }
  /* A resample of n experiments spreads sqrt((n-1)/n) times less than new
   * data would (the plug-in variance); widen each sum's deviation from the
   * measured sum by the inverse, which matters most for the 2-5
   * experiments per speedup typical of a profile. */
  double c = sqrt((double)m->n / (double)(m->n - 1));
  duration = fmax(0, m->duration + c * (duration - m->duration));
  delta = fmax(0, (double)m->delta + c * (delta - (double)m->delta));
  arrivals =
      fmax(0, (double)m->arrivals + c * (arrivals - (double)m->arrivals));
  double w0 = m->difference * m->duration;
  weighted = w0 + c * (weighted - w0);
  double diff = duration > 0 ? weighted / duration : 0;
  *visits = kind == CR_LATENCY ? arrivals : delta;
  return cr_measure_value(kind, duration, delta, arrivals, diff);
}

int cr_pool_bootstrap(struct cr_pool *pool, unsigned replicates,
                      uint64_t seed) {
  free(pool->rep_value);
  pool->reps = replicates;
  pool->rep_value = malloc(2 * (replicates ? replicates : 1) * sizeof(double));
  if (!pool->rep_value)
    return -1;
  pool->rep_visits = pool->rep_value + replicates;
  struct rng r = {seed};
  for (size_t b = 0; b < replicates; b++)
    pool->rep_value[b] =
        resample(pool->kind, pool->obs, &pool->m, &r, &pool->rep_visits[b]);
  return 0;
}

/* Measure i of the row in replicate b. */
static double replicate(const struct cr_row *row, size_t i, size_t b,
                        struct rng *r, double *visits) {
  const struct cr_measure *m = &row->m[i];
  if (m->pool && b < m->pool->reps) {
    *visits = m->pool->rep_visits[b];
    return m->pool->rep_value[b];
  }
  return resample(row->kind, row->obs, m, r, visits);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* 2.5th and 97.5th percentiles of the non-NaN values of v[0..n). */
static void interval(double *v, size_t n, double *lo, double *hi) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(v[i]))
      v[k++] = v[i];
  *lo = *hi = NAN;
  if (k == 0)
    return;
  qsort(v, k, sizeof *v, cmp_double);
  double q[2] = {0.025, 0.975}, *out[2] = {lo, hi};
  for (int j = 0; j < 2; j++) {
    double pos = q[j] * (double)(k - 1);
    size_t i = (size_t)pos;
    double w = pos - (double)i;
    *out[j] = i + 1 < k ? v[i] * (1 - w) + v[i + 1] * w : v[i];
  }
}

int cr_bootstrap(struct cr_row *row, unsigned replicates, uint64_t seed) {
  size_t n = row->n_m, reps = replicates;
  row->slope_lo = row->slope_hi = NAN;
  for (int k = 0; k < CR_PRED_N; k++)
    row->pred_lo[k] = row->pred_hi[k] = NAN;
  if (reps == 0 || n == 0)
    return 0;
  double *ys = malloc(n * reps * sizeof *ys); /* [measure][rep] */
  double *stat = malloc((1 + CR_PRED_N) * reps * sizeof *stat);
  double *one = malloc(2 * n * sizeof *one), *ws = one ? one + n : NULL;
  if (!ys || !stat || !one) {
    free(ys);
    free(stat);
    free(one);
    return -1;
  }
  struct rng r = {seed};
  for (size_t b = 0; b < reps; b++) {
    for (size_t i = 0; i < n; i++) {
      ws[i] = 0; /* visits until the weight is known */
      one[i] = row->m[i].valid ? replicate(row, i, b, &r, &ws[i]) : 0;
    }
    double base = one[0];
    for (size_t i = 0; i < n; i++) {
      int ok = base > 0 && one[i] > 0;
      /* Weights follow the replicate, so a resampled stall (few visits, a
       * long period) weighs as little as it would in a real profile. */
      ws[i] = ok ? cr_point_weight(ws[i], one[i] / base) : 0;
      one[i] = ok ? row->phase_factor * (1 - one[i] / base) : NAN;
      ys[i * reps + b] = one[i];
    }
    stat[b] = cr_fit_slope(row->m, n, one, ws);
    for (int k = 0; k < CR_PRED_N; k++)
      stat[(1 + k) * reps + b] =
          cr_fit_at(row->m, n, one, ws, cr_pred_permille[k]);
  }
  for (size_t i = 0; i < n; i++)
    if (row->m[i].valid)
      interval(ys + i * reps, reps, &row->m[i].lo, &row->m[i].hi);
  interval(stat, reps, &row->slope_lo, &row->slope_hi);
  for (int k = 0; k < CR_PRED_N; k++)
    interval(stat + (1 + k) * reps, reps, &row->pred_lo[k], &row->pred_hi[k]);
  free(ys);
  free(stat);
  free(one);
  return 0;
}
