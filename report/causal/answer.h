/* answer.h: which lines to work on, and how sure that is. */
#ifndef COZ_REPORT_ANSWER_H
#define COZ_REPORT_ANSWER_H

#include "result.h"

/* Fills r->answer: stability of the top k over the profile's
 * experiments, and which ranks are settled by their intervals. Returns 0,
 * -1 on out of memory. */
int cr_answer_explain(const struct cr_profile *p, const struct cr_options *o,
                      struct cr_result *r);

/* The whole analysis: the rows (analysis.h), and their answer when rows
 * are plotted and o->top > 0. The answer re-analyses prefixes of the
 * experiments, so it sits above the rows rather than inside them. Returns
 * 0, -1 on out of memory. */
int cr_analyse(const struct cr_profile *p, const struct cr_options *o,
               struct cr_result *out);

#endif /* COZ_REPORT_ANSWER_H */
