/* cpr_names.h: C++ names of a call-path profile's functions:
 * shown demangled, looked up by any of their forms. */
#ifndef COZ_REPORT_CPR_NAMES_H
#define COZ_REPORT_CPR_NAMES_H

#include "cpr_read.h"

/* The demangled form of a C++ symbol name (malloc'ed), or NULL when the
 * name is not a mangled C++ name. */
char *cpr_demangle(const char *name);
/* The name to show for a function: demangled when it was mangled. */
const char *cpr_name(const struct cpr_data *d, unsigned id);
/* Function id for --root: the name as the file holds it (mangled), the
 * demangled name, or the demangled name without its parameter list
 * (ns::Queue::pop). -1 when none matches, -2 when the short form names
 * several functions. */
long cpr_lookup_function(const struct cpr_data *d, const char *name);

#endif /* COZ_REPORT_CPR_NAMES_H */
