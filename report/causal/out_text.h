/* out_text.h: the causal profile as text. */
#ifndef COZ_REPORT_OUT_TEXT_H
#define COZ_REPORT_OUT_TEXT_H

#include "causal_report.h"

#include <stdio.h>

/* The ranked table, or the guidance when nothing can be plotted. */
int cr_write_text(FILE *f, const struct cr_report *rep);

#endif /* COZ_REPORT_OUT_TEXT_H */
