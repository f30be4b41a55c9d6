/* result.h: what the analysis of a causal profile makes: its options, and
 * the rows, measures, pools, answer and guidance of its result. The types
 * only: analysis.c builds them, the files beside it fill in their parts. */
#ifndef COZ_REPORT_RESULT_H
#define COZ_REPORT_RESULT_H

#include "profile.h"

#define CR_PRED_N 3 /* predictions per row (fit.h) */

/* The rankings (rank.c); CR_SORT_N counts them. */
enum cr_sort {
  CR_SORT_LOWER,
  CR_SORT_SLOPE,
  CR_SORT_MAX,
  CR_SORT_MIN,
  CR_SORT_N
};

struct cr_options {
  unsigned top;        /* the answer's top k (0: no answer) */
  unsigned min_points; /* distinct speedups needed, baseline included */
  const char *point;   /* only this progress point (candidates included), or
                          NULL: every point but the candidates */
  enum cr_sort sort;
  unsigned replicates; /* bootstrap replicates */
  uint64_t seed;
};

/* One progress point's numbers in one experiment of a row's line. */
struct cr_exp_obs {
  int speedup; /* permille */
  double duration;
  uint64_t delta, arrivals;
  double difference;
};

struct cr_pool;

/* All experiments of one row with one speedup, combined. */
struct cr_measure {
  int speedup; /* permille */
  size_t experiments;
  size_t first, n; /* slice of row.obs (sorted by speedup) */
  /* A pooled baseline: the measure is the pool's, and so are its
   * bootstrap replicates; first and n are unused. NULL otherwise. */
  const struct cr_pool *pool;
  double duration; /* ns, summed */
  uint64_t delta, arrivals;
  double difference; /* duration-weighted mean in flight */
  double value;      /* period ns/visit, or mean latency ns */
  int valid;         /* value finite and > 0 */
  double y, lo, hi;  /* program speedup, 95% CI (NAN when unknown) */
  double weight;     /* cr_measure_weight of the point estimate */
  /* Noise (bootstrap.c): the experiments' duration-weighted relative
   * variance around the combined value, kappa (the relative variance of
   * the value over a total duration D is kappa / D) with df = experiments
   * - 1; and the point's pooled kappa, worth df_prior experiments here. */
  double kappa, df;
  double kappa_prior, df_prior;
};

enum cr_drop {
  CR_KEPT = 0,
  CR_NO_PROGRESS, /* the point never advanced in this line's experiments */
  CR_NO_BASELINE, /* no valid speedup-0 measurement */
  CR_TOO_FEW      /* fewer than min_points distinct valid speedups */
};

/* Every speedup-0 experiment of the profile, whatever line it selected,
 * for one progress point: no delay is inserted at speedup 0, so each is a
 * baseline for every line. Rows whose line runs throughout use it
 * (analysis.c); the bootstrap draws its replicates once for all of them. */
struct cr_pool {
  uint32_t point;
  enum cr_point_kind kind;
  struct cr_exp_obs *obs;
  size_t n;
  struct cr_measure m; /* combined; m.n == n */
  double *rep_value;   /* per replicate: the resampled value */
  size_t reps;
};

struct cr_row {
  uint32_t line, point;
  enum cr_point_kind kind;
  struct cr_exp_obs *obs;
  size_t n_obs; /* = experiments of this row */
  struct cr_measure *m;
  size_t n_m;     /* one per distinct speedup, ascending */
  size_t n_valid; /* valid measures, the baseline included */
  enum cr_drop drop;
  int pooled_baseline; /* m[0] is the point's pool (its own otherwise) */
  int phase_applied;
  double phase_factor; /* t_A / T, capped at 1; 1 when not applied */
  double slope, slope_lo, slope_hi;
  double slope_se; /* analytic (cr_fit_slope_se), NAN when unknown */
  double max, min; /* over valid measures */
  double pred[CR_PRED_N], pred_lo[CR_PRED_N], pred_hi[CR_PRED_N];
  int contention; /* slope and its whole CI below 0 */
};

enum cr_guidance_reason {
  CR_G_NONE = 0,
  CR_G_NO_INPUT,       /* no profile could be read */
  CR_G_NO_EXPERIMENTS, /* profiles hold no experiment */
  CR_G_NO_SUCH_POINT,  /* --point names a point absent from the profile */
  CR_G_NO_PROGRESS,    /* no progress point advanced during experiments */
  CR_G_NO_BASELINE,    /* lines were tried, none with speedup 0 */
  CR_G_TOO_FEW,        /* baselines exist, too few speedups */
  CR_G_ONLY_CANDIDATES /* no progress point, only candidates: suggest */
};

struct cr_guidance {
  enum cr_guidance_reason reason;
  long more_runs; /* estimated extra runs, -1 when unknown */
  char message[1024];
};

/* The answer to "which lines, and how sure" (answer.c). */
#define CR_TOP_MAX 20
struct cr_answer {
  unsigned k; /* the top k looked at: min(--top, rows plotted) */
  /* The top k, in order, has been the same over the last `stable` of the
   * profile's experiments (prefixes checked at steps of a tenth). */
  size_t stable;
  /* Per rank 1..k: whether its 95% interval of the slope overlaps no
   * other row's (its rank is settled); if not, the row it overlaps that
   * takes the most runs to tell apart (rival: 1 + its index in rows) and
   * how many more runs (-1: they may be equal: no number of runs is
   * predicted to separate them). */
  int settled[CR_TOP_MAX];
  size_t rival[CR_TOP_MAX];
  long more_runs[CR_TOP_MAX];
  int top_set_settled; /* every top-k interval lies above all the others */
};

struct cr_result {
  struct cr_answer answer; /* when o->top > 0 and rows were plotted */
  struct cr_pool *pools;   /* one per progress point with baselines */
  size_t n_pools;
  struct cr_row *rows; /* kept rows, ranked */
  size_t n_rows;
  struct cr_row *dropped;
  size_t n_dropped;
  unsigned runs; /* runs seen (startup records, else files) */
  struct cr_guidance guidance;
  enum cr_sort sort;
};

#endif /* COZ_REPORT_RESULT_H */
