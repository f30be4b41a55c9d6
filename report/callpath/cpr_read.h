/* cpr_read.h: profile.callpath files (docs/callpath.md) read into a
 * cpr_data; its resources and functions looked up by name. */
#ifndef COZ_REPORT_CPR_READ_H
#define COZ_REPORT_CPR_READ_H

#include "cpr_data.h"

/* The file the runtime writes by default, read when none is named. */
#define CPR_DEFAULT_FILE "profile.callpath"

/* Reads one file into d (several files accumulate). Returns 0, or -1 with
 * one line on stderr when the file cannot be read. Malformed lines are
 * counted in bad_lines and reported once per file. */
int cpr_read_file(struct cpr_data *d, const char *path);
void cpr_free(struct cpr_data *d);
/* Index of a resource by name, or -1. */
long cpr_find_resource(const struct cpr_data *d, const char *name);
/* Function id by name, or -1. */
long cpr_find_function(const struct cpr_data *d, const char *name);

/* Function id for --root: the name as the file holds it (mangled), the
 * demangled name, or the demangled name without its parameter list
 * (ns::Queue::pop). -1 when none matches, -2 when the short form names
 * several functions. */
long cpr_lookup_function(const struct cpr_data *d, const char *name);

#endif /* COZ_REPORT_CPR_READ_H */
