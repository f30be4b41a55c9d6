/* fit.h: a row's slope and predictions from its measures. */
#ifndef COZ_REPORT_FIT_H
#define COZ_REPORT_FIT_H

#include "result.h"

/* The line speedups where every row's program speedup is predicted:
 * 250, 500 and 1000 permille. */
extern const int cr_pred_permille[CR_PRED_N];

/* Weighted least-squares slope of y on s (s in 0..1) over the valid
 * measures; and the program speedup predicted at `permille`: a local linear
 * fit of the measured points within 15% of it, weighted by their weight and
 * a tricube kernel, when they lie on both sides of it; otherwise the linear
 * interpolation between the neighbouring measured points, held at the last
 * one past it. ys[i] is the y of measure i (NAN to skip it), ws[i] its
 * weight (cr_measure_weight). */
double cr_fit_slope(const struct cr_measure *m, size_t n, const double *ys,
                    const double *ws);
/* The standard error of cr_fit_slope by the delta method, without a
 * bootstrap: m[0] is the baseline, log_var[i] the variance of the log of
 * m[i].value (cr_measure_log_var), f the row's phase factor; NAN when the
 * slope has none. */
double cr_fit_slope_se(const struct cr_measure *m, size_t n, const double *ys,
                       const double *ws, const double *log_var, double f);
double cr_fit_at(const struct cr_measure *m, size_t n, const double *ys,
                 const double *ws, int permille);

#endif /* COZ_REPORT_FIT_H */
