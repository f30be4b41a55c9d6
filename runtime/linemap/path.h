/* path.h: lexical path normalization for source file names.
 *
 * The same file reaches the line map under different spellings (relative to
 * different compilation directories, with "./" or "../" parts); normalizing
 * them lexically (no file system access: the sources need not exist on
 * this machine) lets one file:line become one struct coz_line. */
#ifndef COZ_LINEMAP_PATH_H
#define COZ_LINEMAP_PATH_H

#include <stddef.h>

/* Writes name, made absolute with dir when it is relative (dir may be NULL
 * or ""), with empty, "." and "dir/.." components removed, into out.
 * Returns the length, or 0 when it does not fit in cap bytes. */
size_t coz_path_normalize(char *out, size_t cap, const char *dir,
                          const char *name);

/* The part of path after its last '/'. */
const char *coz_path_basename(const char *path);

#endif /* COZ_LINEMAP_PATH_H */
