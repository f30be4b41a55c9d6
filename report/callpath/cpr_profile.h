/* cpr_profile.h: call-path profiles of the stacks read: the function
 * profile (body plus descendants), the downward profile rooted at a
 * function and the upward profile of the paths ending at one, computed as
 * the seed paper's appendix does (a call path is credited at most once per
 * sample; recursion is folded by canonicalising the path back to the
 * earlier occurrence of a repeated function); and their text layout. */
#ifndef COZ_REPORT_CPR_PROFILE_H
#define COZ_REPORT_CPR_PROFILE_H

#include "cpr_data.h"

#include <stdio.h>

/* CPR_BODY: the function each sample was taken in (prof(1) generalised to
 * any resource, seed section 5.2). */
enum cpr_kind { CPR_FUNCTIONS, CPR_DOWN, CPR_UP, CPR_BODY };

struct cpr_row {
  unsigned *path; /* function ids in call order */
  size_t n;
  uint64_t samples, weight;
};

struct cpr_rows {
  struct cpr_row *rows;
  size_t n;
};

/* Rows sorted by weight (descending). For CPR_FUNCTIONS and CPR_BODY
 * `root` is unused and every row has one function. */
int cpr_profile(const struct cpr_data *d, size_t resource, enum cpr_kind kind,
                unsigned root, struct cpr_rows *out);
void cpr_rows_free(struct cpr_rows *r);

/* Prints one profile in the seed's layout; rows whose fraction is below
 * threshold are hidden (and counted in a footer line). */
void cpr_print(FILE *f, const struct cpr_data *d, size_t resource,
               enum cpr_kind kind, const char *root,
               const struct cpr_rows *rows, double threshold);

#endif /* COZ_REPORT_CPR_PROFILE_H */
