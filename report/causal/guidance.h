/* guidance.h: what to do when the result has no row to plot. */
#ifndef COZ_REPORT_GUIDANCE_H
#define COZ_REPORT_GUIDANCE_H

#include "result.h"

/* Why nothing can be plotted, and how many more runs. */
void cr_guidance_explain(const struct cr_profile *p, const struct cr_options *o,
                         struct cr_result *r);

#endif /* COZ_REPORT_GUIDANCE_H */
