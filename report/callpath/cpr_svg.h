/* cpr_svg.h: the icicle view of a resource's call paths. */
#ifndef COZ_REPORT_CPR_SVG_H
#define COZ_REPORT_CPR_SVG_H

#include "cpr_data.h"

#include <stdio.h>

/* HTML: an icicle view (inline SVG) of the downward profile of every stack
 * of a resource, for the report's page. */
void cpr_write_icicle_svg(FILE *f, const struct cpr_data *d, size_t resource,
                          double threshold);

#endif /* COZ_REPORT_CPR_SVG_H */
