/* cpr_names.h: the names a call-path report shows: C++ functions
 * demangled. */
#ifndef COZ_REPORT_CPR_NAMES_H
#define COZ_REPORT_CPR_NAMES_H

#include "cpr_data.h"

/* The demangled form of a C++ symbol name (malloc'ed), or NULL when the
 * name is not a mangled C++ name. */
char *cpr_demangle(const char *name);
/* The name to show for a function: demangled when it was mangled. */
const char *cpr_name(const struct cpr_data *d, unsigned id);

#endif /* COZ_REPORT_CPR_NAMES_H */
