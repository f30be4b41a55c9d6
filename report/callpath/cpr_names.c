/* cpr_names.c: the names a call-path report shows. The runtime
 * writes symbol names as the object files hold them, so C++ functions
 * arrive mangled (_ZN2ns5Queue3popEv); the report shows them demangled
 * (ns::Queue::pop()) with libstdc++'s __cxa_demangle, the demangler of the
 * toolchain that compiled them, and keeps the mangled name for JSON and for
 * --root (cpr_lookup_function, cpr_read.c, takes either). */
#include "cpr_names.h"

#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's demangler (libstdc++, <cxxabi.h>): a malloc'ed
 * string, or NULL with *status != 0. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *cpr_demangle(const char *name) {
  /* Only Itanium names: __cxa_demangle would also "demangle" a plain C
   * name that happens to spell a type (`i` -> `int`). */
  if (strncmp(name, "_Z", 2) != 0)
    return NULL;
  int status = 0;
  char *out = __cxa_demangle(name, NULL, NULL, &status);
  if (status != 0) {
    free(out);
    return NULL;
  }
  return out;
}

const char *cpr_name(const struct cpr_data *d, unsigned id) {
  return d->display[id] ? d->display[id] : d->names[id];
}
