/* analysis.c: groups experiments into rows and measures, applies the phase
 * correction, drops what cannot be plotted, then fits, bootstraps and ranks.
 */
#include "analysis.h"
#include "bootstrap.h"
#include "fit.h"
#include "guidance.h"
#include "measure.h"
#include "rank.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cr_options_default(struct cr_options *o) {
  memset(o, 0, sizeof *o);
  o->top = 3;
  o->min_points = 5;
  o->sort = CR_SORT_LOWER;
  o->replicates = 1000;
  o->seed = 0x636f7a2d7265706full; /* fixed: the same input, the same CIs */
}

/* One (experiment, point) pair, before grouping. */
struct tuple {
  uint32_t line, point;
  int speedup;
  size_t exp;
  double duration;
  uint64_t delta, arrivals;
  double difference;
};

static int cmp_tuple(const void *a, const void *b) {
  const struct tuple *x = a, *y = b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->point != y->point)
    return x->point < y->point ? -1 : 1;
  if (x->speedup != y->speedup)
    return x->speedup < y->speedup ? -1 : 1;
  if (x->exp != y->exp)
    return x->exp < y->exp ? -1 : 1;
  return 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

void cr_combine(enum cr_point_kind kind, const struct cr_exp_obs *obs,
                struct cr_measure *m) {
  double weighted = 0, plain = 0;
  m->duration = 0;
  m->delta = m->arrivals = 0;
  for (size_t i = m->first; i < m->first + m->n; i++) {
    const struct cr_exp_obs *o = &obs[i];
    m->duration += o->duration;
    m->delta = add_sat(m->delta, o->delta);
    m->arrivals = add_sat(m->arrivals, o->arrivals);
    weighted += o->difference * o->duration;
    plain += o->difference;
  }
  m->experiments = m->n;
  /* L is the time-average of the in-flight count: weight by duration. */
  m->difference = m->duration > 0 ? weighted / m->duration
                                  : (m->n ? plain / (double)m->n : 0);
  m->value = cr_measure_value(kind, m->duration, (double)m->delta,
                              (double)m->arrivals, m->difference);
  m->valid = m->value > 0;
}

/* Builds the measures of a row whose obs are sorted by speedup. With a
 * pool, the pool is the baseline and the row's own speedup-0 experiments
 * (which the pool holds too) make no measure of their own. */
static int build_measures(struct cr_row *row, const struct cr_pool *pool) {
  row->m = calloc(row->n_obs + 1, sizeof *row->m);
  if (!row->m)
    return -1;
  if (pool) {
    row->m[row->n_m] = pool->m;
    row->m[row->n_m++].pool = pool;
    row->pooled_baseline = 1;
  }
  for (size_t i = 0; i < row->n_obs;) {
    size_t j = i;
    while (j < row->n_obs && row->obs[j].speedup == row->obs[i].speedup)
      j++;
    if (!(pool && row->obs[i].speedup == 0)) {
      struct cr_measure *m = &row->m[row->n_m++];
      m->speedup = row->obs[i].speedup;
      m->first = i;
      m->n = j - i;
      cr_combine(row->kind, row->obs, m);
      cr_measure_noise(row->kind, row->obs, m);
    }
    i = j;
  }
  return 0;
}

/* Paper eq. 8: a line that runs only during a phase A of length t_A moves
 * the whole program by dP = dp_A * t_A / T. t_A ~ s / r, where s is the
 * line's total samples and r its sampling rate while it runs, measured on
 * its baseline experiments (no delays are inserted at speedup 0, so their
 * effective duration is wall time).
 *
 * An experiment in which the line took no sample while its other
 * experiments take many was run while the line was not running (a fixed
 * line, COZ_FIXED_LINE, or a line whose phase ended). It says nothing
 * about the line, and pooled with the others it dilutes each speedup's
 * effect by however many of its experiments fell outside the phase:
 * alternating baselines and speedups over a two-phase run put 3 of 5
 * baselines but 2 of 5 speedups in the line's phase, and predicted 8.4%
 * for a real 12.5%. Such experiments are left out of the measures and of
 * r, so eq. 8 scales what was measured while the line ran. A zero means
 * "not running" only where the line's experiments with samples average at
 * least PHASE_MIN_MEAN (a Poisson zero then has probability below 0.04%);
 * a rarely sampled line keeps its zeros, its share of runs with no delay.
 *
 * For such a line, r weighs each baseline by its own samples,
 * sum S(S-1) / sum S*d (unbiased for Poisson counts S over durations d):
 * an experiment that straddles the phase's end, with a few samples, counts
 * by how much of it the line ran, not as a full one (one with 2 samples
 * among full ones of 500 made r a third too low and the prediction for the
 * second phase 29% for a real 25%).
 *
 * An experiment that straddles the phase's end is left out too when its
 * count is implausibly low for a Poisson count at rate r over its duration
 * (Chernoff bound on P(S' <= S) below PHASE_TAIL_P): it ran mostly outside
 * the phase, and pooled as a full experiment it dilutes its speedup as a
 * zero would. Its speedup is not chance: with COZ_FIXED_LINE the runtime
 * alternates 0 and s, so a phase of five experiments ends on the same
 * speedup in every run; in 23 runs of the phases case, straddlers with 0-2
 * samples among full ones of ~245 predicted 17.4% in the phase for a real
 * 25% at 50% (8.7% for 12.2% after eq. 8). The bound keeps counts above
 * ~3/4 of the expected at 245 and any nonzero count below a mean of ~12, so
 * a steady line loses an experiment with probability below PHASE_TAIL_P. */
#define PHASE_MIN_MEAN 8.0
#define PHASE_TAIL_P 1e-4

struct phase_in {
  double t_obs, s_obs; /* baselines: sum d, sum S */
  double ss, sd;       /* baselines: sum S(S-1), sum S*d */
  double pos_sum;      /* all experiments with S > 0: sum S */
  size_t pos_n;        /* ... and their number */
};

static bool runs_in_phases(const struct phase_in *pi) {
  return pi->pos_n && pi->pos_sum / (double)pi->pos_n >= PHASE_MIN_MEAN;
}

/* The line's sampling rate while it runs (per ns); 0 when unknown. */
static double line_rate(const struct phase_in *pi) {
  if (pi->s_obs <= 0 || pi->t_obs <= 0)
    return 0;
  return runs_in_phases(pi) && pi->ss > 0 ? pi->ss / pi->sd
                                          : pi->s_obs / pi->t_obs;
}

/* log of the Chernoff bound on P(X <= k) for X ~ Poisson(mu), 0 < k < mu:
 * -mu + k + k ln(mu / k). */
static bool implausibly_few(double k, double mu) {
  return k > 0 && k < mu && -mu + k + k * log(mu / k) < log(PHASE_TAIL_P);
}

/* Fills pin (one per line); returns which experiments are left out. */
static bool *phase_inputs(const struct cr_profile *p, struct phase_in *pin) {
  bool *out = calloc(p->n_experiments ? p->n_experiments : 1, sizeof *out);
  if (!out)
    return NULL;
  for (size_t e = 0; e < p->n_experiments; e++) {
    const struct cr_experiment *x = &p->experiments[e];
    if (x->has_selected_samples && x->selected_samples > 0) {
      pin[x->line].pos_sum += (double)x->selected_samples;
      pin[x->line].pos_n++;
    }
  }
  for (size_t e = 0; e < p->n_experiments; e++) {
    const struct cr_experiment *x = &p->experiments[e];
    struct phase_in *pi = &pin[x->line];
    if (!x->has_selected_samples)
      continue;
    out[e] = x->selected_samples == 0 && runs_in_phases(pi);
    if (x->speedup != 0 || out[e])
      continue;
    double s = (double)x->selected_samples;
    pi->t_obs += x->duration;
    pi->s_obs += s;
    pi->ss += s * (s - 1);
    pi->sd += s * x->duration;
  }
  for (size_t e = 0; e < p->n_experiments; e++) {
    const struct cr_experiment *x = &p->experiments[e];
    const struct phase_in *pi = &pin[x->line];
    if (x->has_selected_samples && runs_in_phases(pi) &&
        implausibly_few((double)x->selected_samples,
                        line_rate(pi) * x->duration))
      out[e] = true;
  }
  return out;
}

static void phase_factor(const struct cr_profile *p, const struct phase_in *in,
                         struct cr_row *row) {
  const struct cr_line *l = &p->lines[row->line];
  const struct phase_in *pi = &in[row->line];
  row->phase_factor = 1;
  row->phase_applied = 0;
  double rate = line_rate(pi);
  if (!l->has_samples || !p->has_runtime || p->runtime_ns <= 0 || rate <= 0)
    return;
  double f = (double)l->samples / rate / p->runtime_ns;
  if (!isfinite(f))
    return;
  row->phase_factor = f < 1 ? f : 1;
  row->phase_applied = 1;
}

static void decide_drop(struct cr_row *row, unsigned min_points) {
  int progressed = 0;
  for (size_t i = 0; i < row->n_obs; i++)
    if (row->obs[i].delta || row->obs[i].arrivals)
      progressed = 1;
  row->n_valid = 0;
  for (size_t i = 0; i < row->n_m; i++)
    row->n_valid += row->m[i].valid;
  if (!progressed)
    row->drop = CR_NO_PROGRESS;
  else if (row->n_m == 0 || row->m[0].speedup != 0 || !row->m[0].valid)
    row->drop = CR_NO_BASELINE;
  else if (row->n_valid < min_points)
    row->drop = CR_TOO_FEW;
  else
    row->drop = CR_KEPT;
}

/* Program speedups, fit, extremes and contention of a kept row. */
static int finish_row(struct cr_row *row, const struct cr_options *o,
                      uint64_t seed) {
  double base = row->m[0].value;
  double *ys = malloc(3 * row->n_m * sizeof *ys);
  if (!ys)
    return -1;
  double *ws = ys + row->n_m, *log_var = ws + row->n_m;
  row->max = -INFINITY;
  row->min = INFINITY;
  for (size_t i = 0; i < row->n_m; i++) {
    struct cr_measure *m = &row->m[i];
    m->y = m->valid ? row->phase_factor * (1 - m->value / base) : NAN;
    m->lo = m->hi = NAN;
    m->weight = m->valid ? cr_measure_weight(row->kind, m, m->value, base) : 0;
    ws[i] = m->weight;
    ys[i] = m->y;
    log_var[i] = m->valid ? cr_measure_log_var(row->kind, m) : 0;
    if (m->valid) {
      row->max = fmax(row->max, m->y);
      row->min = fmin(row->min, m->y);
    }
  }
  row->slope = cr_fit_slope(row->m, row->n_m, ys, ws);
  row->slope_se = isnan(row->slope)
                      ? NAN
                      : cr_fit_slope_se(row->m, row->n_m, ys, ws, log_var,
                                        row->phase_factor);
  for (int k = 0; k < CR_PRED_N; k++)
    row->pred[k] = cr_fit_at(row->m, row->n_m, ys, ws, cr_pred_permille[k]);
  free(ys);
  if (cr_bootstrap(row, o->replicates, seed))
    return -1;
  row->contention = row->slope < 0 && row->slope_hi < 0;
  return 0;
}

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Collects (experiment, point) tuples of the experiments not skipped,
 * merging a point listed twice in one experiment. */
static struct tuple *collect(const struct cr_profile *p,
                             const struct cr_options *o, const bool *skip,
                             size_t *n_out) {
  struct tuple *t = malloc((p->n_obs ? p->n_obs : 1) * sizeof *t);
  if (!t)
    return NULL;
  size_t n = 0;
  for (size_t e = 0; e < p->n_experiments; e++) {
    const struct cr_experiment *x = &p->experiments[e];
    if (skip[e])
      continue;
    for (size_t k = x->first_obs; k < x->first_obs + x->n_obs; k++) {
      const struct cr_obs *ob = &p->obs[k];
      const struct cr_point *pt = &p->points[ob->point];
      if (o->point ? strcmp(o->point, pt->name) != 0 : pt->candidate)
        continue; /* candidates only when named (coz-report suggest) */
      t[n++] =
          (struct tuple){x->line,     ob->point, x->speedup,   e,
                         x->duration, ob->delta, ob->arrivals, ob->difference};
    }
  }
  qsort(t, n, sizeof *t, cmp_tuple);
  size_t w = 0;
  for (size_t i = 0; i < n; i++) {
    if (w > 0 && t[w - 1].exp == t[i].exp && t[w - 1].point == t[i].point) {
      t[w - 1].delta = add_sat(t[w - 1].delta, t[i].delta);
      t[w - 1].arrivals = add_sat(t[w - 1].arrivals, t[i].arrivals);
      t[w - 1].difference += t[i].difference;
    } else {
      t[w++] = t[i];
    }
  }
  *n_out = w;
  return t;
}

static int append_row(struct cr_row **arr, size_t *n, size_t *cap,
                      const struct cr_row *row) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    struct cr_row *na = realloc(*arr, nc * sizeof *na);
    if (!na)
      return -1;
    *arr = na;
    *cap = nc;
  }
  (*arr)[(*n)++] = *row;
  return 0;
}

static void free_row(struct cr_row *r) {
  free(r->obs);
  free(r->m);
}

/* The pools: every speedup-0 experiment, per point, including those left
 * out of their own line's rows for running outside its phase (they still
 * measure the program with no delay). */
static int build_pools(const struct cr_profile *p, const struct cr_options *o,
                       struct cr_result *out) {
  bool *skip = calloc(p->n_experiments ? p->n_experiments : 1, sizeof *skip);
  if (!skip)
    return -1;
  for (size_t e = 0; e < p->n_experiments; e++)
    skip[e] = p->experiments[e].speedup != 0;
  size_t n = 0;
  struct tuple *t = collect(p, o, skip, &n);
  free(skip);
  out->pools = calloc(p->n_points ? p->n_points : 1, sizeof *out->pools);
  if (!t || !out->pools) {
    free(t);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    out->pools[t[i].point].n++;
  int rc = 0;
  for (uint32_t pt = 0; pt < p->n_points && rc == 0; pt++) {
    struct cr_pool *pool = &out->pools[pt];
    pool->point = pt;
    pool->kind = p->points[pt].kind;
    pool->obs = calloc(pool->n ? pool->n : 1, sizeof *pool->obs);
    rc = pool->obs ? 0 : -1;
    pool->n = 0;
  }
  out->n_pools = p->n_points;
  for (size_t i = 0; i < n && rc == 0; i++) {
    struct cr_pool *pool = &out->pools[t[i].point];
    pool->obs[pool->n++] = (struct cr_exp_obs){0, t[i].duration, t[i].delta,
                                               t[i].arrivals, t[i].difference};
  }
  free(t);
  for (size_t pt = 0; pt < out->n_pools && rc == 0; pt++) {
    struct cr_pool *pool = &out->pools[pt];
    pool->m = (struct cr_measure){.speedup = 0, .first = 0, .n = pool->n};
    cr_combine(pool->kind, pool->obs, &pool->m);
    cr_measure_noise(pool->kind, pool->obs, &pool->m);
  }
  return rc;
}

/* Each measure's noise moderated towards its point's: the pool and every
 * line's own speedups (pooled baselines not counted twice); then the
 * pools' replicates. */
static int moderate_noise(const struct cr_profile *p,
                          const struct cr_options *o, struct cr_result *out,
                          struct cr_row *rows, size_t n_rows) {
  double *sum = calloc(2 * (out->n_pools ? out->n_pools : 1), sizeof *sum);
  if (!sum)
    return -1;
  double *df = sum + out->n_pools;
  for (size_t i = 0; i < out->n_pools; i++) {
    sum[i] += out->pools[i].m.df * out->pools[i].m.kappa;
    df[i] += out->pools[i].m.df;
  }
  for (size_t r = 0; r < n_rows; r++)
    for (size_t i = 0; i < rows[r].n_m; i++)
      if (!rows[r].m[i].pool) {
        sum[rows[r].point] += rows[r].m[i].df * rows[r].m[i].kappa;
        df[rows[r].point] += rows[r].m[i].df;
      }
  int rc = 0;
  for (size_t i = 0; i < out->n_pools && rc == 0; i++) {
    struct cr_pool *pool = &out->pools[i];
    cr_measure_moderate(&pool->m, df[i] > 0 ? sum[i] / df[i] : 0, df[i]);
    if (pool->n && pool->m.valid)
      rc = cr_pool_bootstrap(
          pool, o->replicates,
          hash_str(o->seed ^ 0x706f6f6cull, p->points[i].name));
  }
  for (size_t r = 0; r < n_rows; r++)
    for (size_t i = 0; i < rows[r].n_m; i++) {
      struct cr_measure *m = &rows[r].m[i];
      uint32_t pt = rows[r].point;
      if (m->pool)
        *m = m->pool->m, m->pool = &out->pools[pt];
      else
        cr_measure_moderate(m, df[pt] > 0 ? sum[pt] / df[pt] : 0, df[pt]);
    }
  free(sum);
  return rc;
}

static void free_pools(struct cr_result *r) {
  for (size_t i = 0; i < r->n_pools; i++) {
    free(r->pools[i].obs);
    free(r->pools[i].rep_value);
  }
  free(r->pools);
  r->pools = NULL;
  r->n_pools = 0;
}

int cr_analyse_rows(const struct cr_profile *p, const struct cr_options *o,
                    struct cr_result *out) {
  memset(out, 0, sizeof *out);
  out->sort = o->sort;
  out->runs = p->runs ? p->runs : p->files_with_experiments;
  size_t n_t = 0, cap_rows = 0, cap_dropped = 0, n_all = 0, cap_all = 0;
  struct cr_row *all = NULL;
  struct phase_in *pin = calloc(p->n_lines ? p->n_lines : 1, sizeof *pin);
  bool *inactive = pin ? phase_inputs(p, pin) : NULL;
  struct tuple *t = inactive ? collect(p, o, inactive, &n_t) : NULL;
  int rc = -1;
  if (!t || build_pools(p, o, out))
    goto done;
  /* Every row first: the intervals use the noise of all of them. */
  for (size_t i = 0; i < n_t;) {
    size_t j = i;
    while (j < n_t && t[j].line == t[i].line && t[j].point == t[i].point)
      j++;
    struct cr_row row;
    memset(&row, 0, sizeof row);
    row.line = t[i].line;
    row.point = t[i].point;
    row.kind = p->points[t[i].point].kind;
    row.n_obs = j - i;
    row.obs = malloc(row.n_obs * sizeof *row.obs);
    if (!row.obs)
      goto done;
    for (size_t k = i; k < j; k++)
      row.obs[k - i] =
          (struct cr_exp_obs){t[k].speedup, t[k].duration, t[k].delta,
                              t[k].arrivals, t[k].difference};
    /* A line that runs only in a phase keeps its own baselines: they were
     * measured while it ran (the pool also holds the other phases). */
    const struct cr_pool *pool = &out->pools[row.point];
    bool pooled = !runs_in_phases(&pin[row.line]) && pool->n && pool->m.valid;
    if (build_measures(&row, pooled ? pool : NULL) ||
        append_row(&all, &n_all, &cap_all, &row)) {
      free_row(&row);
      goto done;
    }
    phase_factor(p, pin, &all[n_all - 1]);
    decide_drop(&all[n_all - 1], o->min_points);
    i = j;
  }
  if (moderate_noise(p, o, out, all, n_all))
    goto done;
  for (size_t i = 0; i < n_all; i++) {
    struct cr_row *row = &all[i];
    uint64_t seed = hash_str(hash_str(o->seed, p->lines[row->line].name),
                             p->points[row->point].name);
    int err =
        row->drop == CR_KEPT
            ? finish_row(row, o, seed) ||
                  append_row(&out->rows, &out->n_rows, &cap_rows, row)
            : append_row(&out->dropped, &out->n_dropped, &cap_dropped, row);
    if (err)
      goto done;
    all[i].obs = NULL, all[i].m = NULL; /* owned by out now */
  }
  cr_rank(out->rows, out->n_rows, o->sort, p);
  if (out->n_rows == 0)
    cr_guidance_explain(p, o, out);
  rc = 0;
done:
  for (size_t i = 0; i < n_all; i++)
    free_row(&all[i]);
  free(all);
  free(inactive);
  free(t);
  free(pin);
  return rc;
}

void cr_result_free(struct cr_result *r) {
  free_pools(r);
  for (size_t i = 0; i < r->n_rows; i++)
    free_row(&r->rows[i]);
  for (size_t i = 0; i < r->n_dropped; i++)
    free_row(&r->dropped[i]);
  free(r->rows);
  free(r->dropped);
  memset(r, 0, sizeof *r);
}
