/* svg.h: the SVG plot of one row. */
#ifndef COZ_REPORT_SVG_H
#define COZ_REPORT_SVG_H

#include "causal_report.h"

#include <stdio.h>

/* One SVG plot of a row. */
void cr_write_svg(FILE *f, const struct cr_report *rep,
                  const struct cr_row *row);

#endif /* COZ_REPORT_SVG_H */
