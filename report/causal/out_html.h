/* out_html.h: the causal profile as an HTML page. */
#ifndef COZ_REPORT_OUT_HTML_H
#define COZ_REPORT_OUT_HTML_H

#include "causal_report.h"

#include <stdio.h>

/* One self-contained HTML page with one SVG plot per row. */
int cr_write_html(FILE *f, const struct cr_report *rep);

/* Writes the profile's `s` with &, <, >, " and ' escaped. */
void cr_html_escape(FILE *f, const char *s);

#endif /* COZ_REPORT_OUT_HTML_H */
