/* bootstrap.c: 95% confidence intervals by a parametric bootstrap over
 * each speedup's combined value.
 *
 * Each speedup's value (the period between visits, or the mean latency)
 * is redrawn as value x exp(se x T), T about a Student t variate, se its
 * relative standard error from the noise its experiments show (kappa, the
 * duration-weighted relative variance), moderated towards the noise of
 * every speedup of every line of the same progress point: a profile has
 * 2-5 experiments per (line, speedup), far too few to estimate a variance
 * alone (a resample of 2 or 3 experiments covered the truth 78-84% of the
 * time), but hundreds in all. Every program speedup, the slope and the
 * predictions are recomputed per replicate; the interval is the 2.5th-97.5th
 * percentile. docs/report.md has the method and its measured coverage. The
 * generator is seeded from --seed and the row's names, so the same input
 * gives the same output.
 */
#include "bootstrap.h"
#include "fit.h"
#include "measure.h"

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

static double std_normal(struct rng *r) { /* Box-Muller */
  double u = u01(r), v = u01(r);
  return sqrt(-2 * log(u > 0 ? u : 0x1p-53)) * cos(6.283185307179586 * v);
}

/* Gamma(a, 1) (Marsaglia and Tsang; a < 1 by boosting). */
static double gamma_draw(struct rng *r, double a) {
  if (a < 1) {
    double u = u01(r);
    return gamma_draw(r, a + 1) * pow(u > 0 ? u : 0x1p-53, 1 / a);
  }
  double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
  for (;;) {
    double x = std_normal(r), v = 1 + c * x;
    if (v <= 0)
      continue;
    v = v * v * v;
    double u = u01(r);
    if (u < 1 - 0.0331 * x * x * x * x ||
        log(u > 0 ? u : 0x1p-53) < 0.5 * x * x + d * (1 - v + log(v)))
      return d * v;
  }
}

/* Per-experiment numbers of one observation: the rate of visits
 * (throughput) or the mean latency (latency); 0 when undefined. */
static double obs_value(enum cr_point_kind kind, const struct cr_exp_obs *o) {
  if (kind == CR_THROUGHPUT)
    return o->duration > 0 ? (double)o->delta / o->duration : 0;
  return cr_measure_value(kind, o->duration, 0, (double)o->arrivals,
                          o->difference);
}

void cr_measure_noise(enum cr_point_kind kind, const struct cr_exp_obs *obs,
                      struct cr_measure *m) {
  m->kappa = m->df = 0;
  double whole = kind == CR_THROUGHPUT
                     ? (m->duration > 0 ? (double)m->delta / m->duration : 0)
                     : m->value;
  if (!(whole > 0))
    return;
  double sum = 0;
  size_t n = 0;
  for (size_t i = m->first; i < m->first + m->n; i++) {
    const struct cr_exp_obs *o = &obs[i];
    double x = obs_value(kind, o);
    /* A latency experiment without arrivals says nothing of W; a
     * throughput one without visits is a real zero rate. */
    if (kind == CR_LATENCY && !(x > 0))
      continue;
    double e = x / whole - 1;
    sum += o->duration * e * e;
    n++;
  }
  if (n >= 2) {
    m->df = (double)(n - 1);
    m->kappa = sum / m->df;
  }
}

/* How many degrees of freedom of the point's pooled noise a measure's
 * own estimate is moderated with (a prior worth this many experiments):
 * enough to tame 2-3 experiments, few enough that a speedup whose noise
 * really differs (delays add jitter) still shows it once it has 10+
 * (docs/report.md has the coverage this choice gave). */
#define PRIOR_DF 4.0

void cr_measure_moderate(struct cr_measure *m, double kappa_pool,
                         double df_pool) {
  /* The pool holds this measure's own experiments too: count them once. */
  double others = df_pool > m->df ? df_pool - m->df : 0;
  m->df_prior = others < PRIOR_DF ? others : PRIOR_DF;
  m->kappa_prior = kappa_pool;
}

/* A chi-square variate with df degrees of freedom (0 for none). */
static double chi2_draw(struct rng *r, double df) {
  return df > 0 ? 2 * gamma_draw(r, df / 2) : 0;
}

/* The visits (arrivals for latency) counted in measure m. */
static double counted(enum cr_point_kind kind, const struct cr_measure *m) {
  return (double)(kind == CR_LATENCY ? m->arrivals : m->delta);
}

/* For throughput the visits follow the value (in a replicate, the drawn
 * rate), as they would have in experiments that ran at it, so a
 * replicate's weighted mean of y is the y of its experiments put
 * together, as the estimate's is (cr_point_weight); kept as counted, y's
 * curvature in the rate stretched the slope's interval downwards (test_ci,
 * docs/results.md "Weights by visits"). Arrivals stay as counted: a drawn
 * latency says nothing of them. A drawn stall still weighs little,
 * through r. */
double cr_measure_weight(enum cr_point_kind kind, const struct cr_measure *m,
                         double value, double base) {
  double visits = counted(kind, m);
  if (kind == CR_THROUGHPUT)
    visits *= m->value / value; /* drawn rate / measured rate */
  return cr_point_weight(visits, value / base);
}

/* The moderated relative variance of m's value over its duration,
 * s2 / duration with s2 = (df kappa + df_prior kappa_prior) /
 * (df + df_prior), and its degrees of freedom df + df_prior; -1 when there
 * is no spread to go by (one experiment in all). */
static double moderated_var(const struct cr_measure *m, double *df) {
  *df = m->df + m->df_prior;
  if (!(*df > 0) || !(m->duration > 0))
    return -1;
  return (m->df * m->kappa + m->df_prior * m->kappa_prior) / *df / m->duration;
}

/* A rate counted from v visits is never known better than counting noise
 * allows, whatever two close experiments suggest; with no spread to go by,
 * counting noise is all there is. */
static double floor_counting(double var, double v) {
  return v > 0 && var < 1 / v ? 1 / v : fmax(var, 0);
}

double cr_measure_log_var(enum cr_point_kind kind, const struct cr_measure *m) {
  double df, var = moderated_var(m, &df);
  /* The variance of a t variate with df degrees of freedom, df / (df - 2),
   * where it is finite: what redraw's chi-square adds on average. */
  if (var > 0 && df > 2)
    var *= df / (df - 2);
  return floor_counting(var, counted(kind, m));
}

/* The value of measure m in one replicate. The moderated variance (above)
 * is uncertain itself: each replicate draws it as s2 (df + df_prior) / chi2
 * with a chi-square of df + df_prior degrees of freedom (so each point's
 * interval is a t interval with those), made of prior_chi2, drawn once per
 * replicate and shared by every speedup of the row (they all lean on the
 * same pooled estimate: independent draws would average its error away in
 * the slope), plus one of the measure's own df. */
static double redraw(enum cr_point_kind kind, const struct cr_measure *m,
                     double prior_chi2, struct rng *r) {
  double df, var = moderated_var(m, &df);
  if (var >= 0) {
    double chi2 = prior_chi2 + chi2_draw(r, m->df);
    var = chi2 > 0 ? var * df / chi2 : 0;
  }
  var = floor_counting(var, counted(kind, m));
  double f = exp(sqrt(var) * std_normal(r));
  /* Throughput noise is on the rate, the value is its inverse. */
  return kind == CR_THROUGHPUT ? m->value / f : m->value * f;
}

int cr_pool_bootstrap(struct cr_pool *pool, unsigned replicates,
                      uint64_t seed) {
  free(pool->rep_value);
  pool->reps = replicates;
  pool->rep_value = malloc((replicates ? replicates : 1) * sizeof(double));
  if (!pool->rep_value)
    return -1;
  struct rng r = {seed};
  for (size_t b = 0; b < replicates; b++)
    pool->rep_value[b] =
        redraw(pool->kind, &pool->m, chi2_draw(&r, pool->m.df_prior), &r);
  return 0;
}

/* Measure i of the row in replicate b. */
static double replicate(const struct cr_row *row, size_t i, size_t b,
                        double prior_chi2, struct rng *r) {
  const struct cr_measure *m = &row->m[i];
  if (m->pool && b < m->pool->reps)
    return m->pool->rep_value[b];
  return redraw(row->kind, m, prior_chi2, r);
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
  double prior_df = 0;
  for (size_t i = 0; i < n; i++)
    prior_df = fmax(prior_df, row->m[i].df_prior);
  for (size_t b = 0; b < reps; b++) {
    double prior_chi2 = chi2_draw(&r, prior_df);
    for (size_t i = 0; i < n; i++)
      one[i] = row->m[i].valid ? replicate(row, i, b, prior_chi2, &r) : 0;
    double base = one[0];
    for (size_t i = 0; i < n; i++) {
      int ok = base > 0 && one[i] > 0;
      ws[i] = ok ? cr_measure_weight(row->kind, &row->m[i], one[i], base) : 0;
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
