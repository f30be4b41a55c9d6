/* cpr_json.h: a call-path profile as JSON. */
#ifndef COZ_REPORT_CPR_JSON_H
#define COZ_REPORT_CPR_JSON_H

#include "cpr_profile.h"

/* The profiles `kinds` of one resource as one JSON document (schema
 * coz-callpath/1, docs/callpath.md); `root` is the function id of the
 * downward and upward profiles. Returns 0, or -1 (out of memory, write
 * error). */
int cpr_print_json(FILE *f, const struct cpr_data *d, size_t resource,
                   const enum cpr_kind *kinds, size_t n_kinds, long root,
                   double threshold);

#endif /* COZ_REPORT_CPR_JSON_H */
