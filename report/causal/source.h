/* source.h: source lines shown beside the rows. */
#ifndef COZ_REPORT_SOURCE_H
#define COZ_REPORT_SOURCE_H

#include "causal_report.h"

#include <stddef.h>

/* The text of source line "file:line" looked up as written, then under
 * each source dir; NULL when unreadable. The result is valid until the
 * next call. */
const char *cr_source_line(const struct cr_report *rep, const char *location);
void cr_source_cache_free(void);

/* Splits "file:line" (or "file:first-last": first); returns the line
 * number or 0 (file_len set). */
unsigned long cr_location_split(const char *location, size_t *file_len);

#endif /* COZ_REPORT_SOURCE_H */
