/* bootstrap.h: the confidence intervals of a row. */
#ifndef COZ_REPORT_BOOTSTRAP_H
#define COZ_REPORT_BOOTSTRAP_H

#include "result.h"

/* The noise of one measure's experiments (fills kappa, df);
 * obs as in cr_combine. */
void cr_measure_noise(enum cr_point_kind kind, const struct cr_exp_obs *obs,
                      struct cr_measure *m);
/* Gives a measure its point's pooled noise, kappa_pool with df_pool
 * degrees of freedom, as a prior (fills kappa_prior, df_prior). */
void cr_measure_moderate(struct cr_measure *m, double kappa_pool,
                         double df_pool);
/* The variance of the log of m's value that the replicates draw, on
 * average: its moderated noise, floored at counting noise. */
double cr_measure_log_var(enum cr_point_kind kind, const struct cr_measure *m);
/* The weight of measure m in the fits when its value is `value` (m->value
 * for the estimate, a drawn one in a replicate; base: the baseline's). */
double cr_measure_weight(enum cr_point_kind kind, const struct cr_measure *m,
                         double value, double base);
/* Fills lo/hi of every measure, slope and predictions. A pooled
 * baseline's replicates must have been drawn (cr_pool_bootstrap, with the
 * same number of replicates). */
int cr_bootstrap(struct cr_row *row, unsigned replicates, uint64_t seed);
/* Draws the replicates of a pool. Returns 0, -1 on out of memory. */
int cr_pool_bootstrap(struct cr_pool *pool, unsigned replicates, uint64_t seed);

#endif /* COZ_REPORT_BOOTSTRAP_H */
