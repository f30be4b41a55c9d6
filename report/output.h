/* output.h: the three renderings of an analysed profile. */
#ifndef COZ_REPORT_OUTPUT_H
#define COZ_REPORT_OUTPUT_H

#include "analysis.h"

#include <jansson.h>
#include <stdio.h>

/* Everything an output needs to know. */
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

/* The ranked table, or the guidance when nothing can be plotted. */
int cr_write_text(FILE *f, const struct cr_report *rep);

/* The JSON document (schema in docs/report.md); NULL on out of memory. */
json_t *cr_report_json(const struct cr_report *rep);
int cr_write_json(FILE *f, const struct cr_report *rep);

/* One self-contained HTML page with one SVG plot per row. */
int cr_write_html(FILE *f, const struct cr_report *rep);

/* Writes the profile's `s` with &, <, >, " and ' escaped. */
void cr_html_escape(FILE *f, const char *s);

/* One SVG plot of a row (svg.c). */
void cr_write_svg(FILE *f, const struct cr_report *rep,
                  const struct cr_row *row);

/* The text of source line "file:line" looked up as written, then under
 * each source dir; NULL when unreadable. The result is valid until the
 * next call. (source.c) */
const char *cr_source_line(const struct cr_report *rep, const char *location);
void cr_source_cache_free(void);

/* Splits "file:line"; returns the line number or 0 (file_len set). */
unsigned long cr_location_split(const char *location, size_t *file_len);

#endif /* COZ_REPORT_OUTPUT_H */
