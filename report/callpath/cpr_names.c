/* cpr_names.c: the names a call-path report shows. The runtime
 * writes symbol names as the object files hold them, so C++ functions
 * arrive mangled (_ZN2ns5Queue3popEv); the report shows them demangled
 * (ns::Queue::pop()) with libstdc++'s __cxa_demangle, the demangler of the
 * toolchain that compiled them, and keeps the mangled name for JSON and for
 * --root. */
#include "cpr_names.h"
#include "cpr_read.h"

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

/* Length of "ns::f" in "ns::f(int) const": up to the '(' that opens the
 * last balanced parameter list (templates' and lambdas' parentheses come
 * before it); the whole name when it has none. */
static size_t without_parameters(const char *s) {
  const char *close = strrchr(s, ')');
  if (!close)
    return strlen(s);
  int depth = 0;
  for (const char *p = close;; p--) {
    if (*p == ')')
      depth++;
    else if (*p == '(' && --depth == 0)
      return (size_t)(p - s);
    if (p == s)
      return strlen(s);
  }
}

long cpr_lookup_function(const struct cpr_data *d, const char *name) {
  long id = cpr_find_function(d, name); /* the name as the file holds it */
  if (id >= 0)
    return id;
  for (size_t i = 0; i < d->n_names; i++)
    if (d->display[i] && strcmp(d->display[i], name) == 0)
      return (long)i;
  /* Without the parameter list: ns::Queue::pop names every overload, which
   * is ambiguous when there are several. */
  size_t n = strlen(name);
  long found = -1;
  for (size_t i = 0; i < d->n_names; i++) {
    const char *dm = d->display[i];
    if (dm && without_parameters(dm) == n && memcmp(dm, name, n) == 0) {
      if (found >= 0)
        return -2;
      found = (long)i;
    }
  }
  return found;
}
