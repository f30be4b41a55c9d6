/* dwarf_lines.h: reads the DWARF line tables of one ELF file.
 *
 * Emits, per line-table sequence, the address ranges [lo, hi) of each row
 * (consecutive rows of the same file:line merged), in link-time addresses.
 * File names are resolved once per (compilation unit, file index), so the
 * per-row cost is a few instructions. */
#ifndef COZ_LINEMAP_DWARF_LINES_H
#define COZ_LINEMAP_DWARF_LINES_H

#include <stdbool.h>
#include <stddef.h>
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
  /* Optional (NULL: every unit): whether to read the unit whose main file
   * is name (as DWARF spells it) in comp_dir (either may be NULL). */
  bool (*unit)(void *ctx, const char *name, const char *comp_dir);
};

struct coz_dwarf_object;

/* Opens path now, for a coz_dwarf_open of it later: called before the
 * program's main, so that opening a file later, from the profiler thread,
 * takes no descriptor number the program's own code would have got
 * (fd_floor.h). Not thread-safe: before the thread that reads starts. */
void coz_dwarf_preopen(const char *path);

/* Opens path's debug info: in the file itself, else in the separate debug
 * file its build ID or .gnu_debuglink names (debug_link.h). NULL when
 * there is none (or path is not a readable, well-formed ELF file). */
struct coz_dwarf_object *coz_dwarf_open(const char *path);

/* Size in bytes of the object's .debug_line (to size buffers). */
size_t coz_dwarf_line_bytes(const struct coz_dwarf_object *obj);

/* Decodes every unit's line table into sink; with files_only, only calls
 * sink->file for every file of every table (a quick look at which files
 * the object has code from). Returns the number of units read. */
long coz_dwarf_read_lines(struct coz_dwarf_object *obj,
                          const struct coz_dwarf_sink *sink, bool files_only);

void coz_dwarf_close(struct coz_dwarf_object *obj);

#endif /* COZ_LINEMAP_DWARF_LINES_H */
