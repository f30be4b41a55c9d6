/* causal_report.h: an analysed profile with what its renderings need. */
#ifndef COZ_REPORT_CAUSAL_REPORT_H
#define COZ_REPORT_CAUSAL_REPORT_H

#include "result.h"

/* Everything a rendering needs to know. */
struct cr_report {
  const struct cr_profile *p;
  const struct cr_options *o;
  const struct cr_result *r;
  const char *const *inputs; /* profile files as named on the command line */
  size_t n_inputs;
  const char *const *source_dirs; /* where to look for source text */
  size_t n_source_dirs;
  int read_sources; /* show source text in the HTML page */
};

#endif /* COZ_REPORT_CAUSAL_REPORT_H */
