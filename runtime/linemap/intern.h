/* intern.h: one object per source file and one struct coz_line per
 * file:line, however many compilation units or loaded objects mention it.
 * Profiler thread only (the build and refresh). */
#ifndef COZ_LINEMAP_INTERN_H
#define COZ_LINEMAP_INTERN_H

#include "linemap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_file {
  const char *path; /* normalized absolute path (permanent) */
  size_t len;
  uint64_t hash;
  bool is_default;        /* recorded by the pass (default scope) */
  bool in_scope;          /* rows of this file belong in the map */
  struct coz_file *chain; /* hash bucket chain */
  /* This file's lines by number: line tables visit a file's lines in
   * nearly ascending order, so a dense array beats any hash table. */
  struct coz_line_entry **by_line;
  uint32_t by_line_cap;
};

/* Line numbers above this are dropped (a corrupt table must not make us
 * allocate gigabytes for one file's line array). */
#define COZ_MAX_LINENO (1u << 24)

/* A struct coz_line with what the build needs to find it again. */
struct coz_line_entry {
  struct coz_line line; /* first member: &entry->line == (void *)entry */
  struct coz_file *file;
  uint32_t lineno;
  struct coz_line_entry *next_all; /* every line, in creation order */
};

/* Decides in_scope for a file the first time it is interned. */
typedef bool (*coz_scope_fn)(const struct coz_file *file);

/* The file object for a normalized path, created on first use (is_default
 * false). NULL only when out of memory. */
struct coz_file *coz_intern_file(const char *path, size_t len,
                                 coz_scope_fn scope);

/* Marks path as a default file, interning it first if needed; in_scope is
 * decided again afterwards by the caller's scope. *was_other (may be NULL)
 * tells whether it existed before as a file that was not default. */
struct coz_file *coz_intern_default_file(const char *path, size_t len,
                                         coz_scope_fn scope, bool *was_other);

/* Decides in_scope again for every file (the scope changed). */
void coz_intern_rescope(coz_scope_fn scope);

/* The line object for file:lineno (1 <= lineno <= COZ_MAX_LINENO), created
 * on first use; NULL only when out of memory. */
struct coz_line *coz_intern_line(struct coz_file *file, uint32_t lineno);

/* The first created line, to walk them all through next_all. */
struct coz_line_entry *coz_intern_first_line(void);

/* How many lines exist. */
size_t coz_intern_line_count(void);

#endif /* COZ_LINEMAP_INTERN_H */
