/* scope.h: COZ_SOURCE_SCOPE / COZ_BINARY_SCOPE pattern lists.
 *
 * A list is ':'- or ','-separated fnmatch(3) globs. A glob matches the whole
 * path ('*' also crosses '/'); a glob without '/' also matches the
 * basename, so "*.c" or "prog.c" work without a directory. "%" matches
 * everything. */
#ifndef COZ_LINEMAP_SCOPE_H
#define COZ_LINEMAP_SCOPE_H

#include <stdbool.h>

/* Whether path matches one glob of the list. With alias non-NULL, a glob
 * equal to alias also matches (COZ_BINARY_SCOPE's "MAIN"). */
bool coz_scope_match(const char *list, const char *path, const char *alias);

/* Whether list holds at least one glob. */
bool coz_scope_nonempty(const char *list);

#endif /* COZ_LINEMAP_SCOPE_H */
