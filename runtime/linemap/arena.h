/* arena.h: bump allocation for the line map's permanent data.
 *
 * Lines, their names and the interned file paths live for the whole
 * process (lookups from signal handlers may hold them at any time), so they
 * are never freed; carving them out of large chunks keeps the build fast.
 * Profiler thread only. */
#ifndef COZ_LINEMAP_ARENA_H
#define COZ_LINEMAP_ARENA_H

#include <stddef.h>

/* Zeroed, 16-byte aligned memory that is never freed, or NULL. */
void *coz_arena_alloc(size_t size);

/* A permanent copy of s[0..len) with a terminating NUL, or NULL. */
char *coz_arena_strndup(const char *s, size_t len);

#endif /* COZ_LINEMAP_ARENA_H */
