/* line_program.h: decodes one DWARF line-number program (.debug_line,
 * versions 2 to 5) into address ranges of file:line.
 *
 * Our own decoder, because Debian 12's libdwarf (20210528) starts the file
 * register of DWARF 5 programs at 0 instead of 1, so rows that rely on the
 * initial value (gcc's first file, clang's header functions in their own
 * sections) come out attributed to the wrong file. It also saves libdwarf's
 * per-row allocations. libdwarf still opens objects and walks their units. */
#ifndef COZ_LINEMAP_LINE_PROGRAM_H
#define COZ_LINEMAP_LINE_PROGRAM_H

#include "dwarf_lines.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sections a line program refers to (NULL/0 when absent). */
struct coz_line_sections {
  const uint8_t *line;
  size_t line_size;
  const uint8_t *line_str; /* .debug_line_str (DW_FORM_line_strp) */
  size_t line_str_size;
  const uint8_t *str; /* .debug_str (DW_FORM_strp) */
  size_t str_size;
};

/* Decodes the program at offset in .debug_line for a unit whose directory
 * is comp_dir (may be NULL) and emits its ranges to sink; with files_only,
 * only resolves every file of its header through sink->file. Returns 0, or
 * -1 when the program is malformed or uses what this decoder does not know
 * (the unit then contributes what was emitted before the problem). */
int coz_line_program_decode(const struct coz_line_sections *s, uint64_t offset,
                            const char *comp_dir,
                            const struct coz_dwarf_sink *sink, bool files_only);

#endif /* COZ_LINEMAP_LINE_PROGRAM_H */
