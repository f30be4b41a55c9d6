/* analysis.h: from merged experiments to causal-profile rows.
 *
 * One row per (selected line, progress point). Experiments with the same
 * speedup are combined by summing their deltas and durations; the program
 * speedup at line speedup s is 1 - m_s/m_0, with m the period between visits
 * (throughput) or the mean latency W = L/lambda (latency, Little's law),
 * scaled by the phase correction of the paper's equation 8. See
 * docs/report.md for the method and the confidence intervals.
 */
#ifndef COZ_REPORT_ANALYSIS_H
#define COZ_REPORT_ANALYSIS_H

#include "result.h"

/* The defaults of the options (the usage text prints these). */
void cr_options_default(struct cr_options *o);

/* Builds, bootstraps and ranks every row, and explains why when none can
 * be plotted; the answer is cr_analyse's (answer.h). Returns 0, -1 on out
 * of memory. */
int cr_analyse_rows(const struct cr_profile *p, const struct cr_options *o,
                    struct cr_result *out);
void cr_result_free(struct cr_result *r);

/* Combines obs[m->first .. m->first + m->n) into m (sums; the in-flight
 * count weighted by duration) and sets its value and validity. */
void cr_combine(enum cr_point_kind kind, const struct cr_exp_obs *obs,
                struct cr_measure *m);

#endif /* COZ_REPORT_ANALYSIS_H */
