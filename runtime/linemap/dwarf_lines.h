/* dwarf_lines.h: reads the DWARF line tables of one ELF file (libdwarf).
 *
 * Emits, per line-table sequence, the address ranges [lo, hi) of each row
 * (consecutive rows of the same file:line merged), in link-time addresses.
 * File names are resolved once per (compilation unit, file index), so the
 * per-row cost is a few accessor calls. */
#ifndef COZ_LINEMAP_DWARF_LINES_H
#define COZ_LINEMAP_DWARF_LINES_H

#include <stdint.h>

struct coz_dwarf_sink {
  /* The handle for a file of a compilation unit: path as DWARF spells it
   * (possibly relative), comp_dir the unit's directory (may be NULL).
   * Returning NULL drops that file's rows. */
  void *(*file)(void *ctx, const char *path, const char *comp_dir);
  /* The code of file:line covers [lo, hi). Within a sequence, ranges come
   * in increasing address order. */
  void (*range)(void *ctx, uint64_t lo, uint64_t hi, void *file, uint32_t line);
  /* The current sequence ended. */
  void (*end_sequence)(void *ctx);
  void *ctx;
};

/* Reads path (or the separate debug file its .gnu_debuglink names).
 * Returns the number of compilation units that had a line table (0: no
 * debug line info), or -1 when path is not a readable object file. */
long coz_dwarf_read_lines(const char *path, const struct coz_dwarf_sink *sink);

#endif /* COZ_LINEMAP_DWARF_LINES_H */
