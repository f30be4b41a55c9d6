/* fuzz_sink.h: the line map's use of decoded line tables, for the fuzz
 * targets (fuzz_lines.c, fuzz_dwarf_open.c).
 *
 * What linemap.c does with a decoder's output, minus the process-wide
 * file and line interning (whose tables would grow across fuzz inputs):
 * every file name is normalized as sink_file does, every range goes to a
 * coz_objmap_builder whose finished table is then searched. On the way,
 * each contract the decoder and path.c promise is checked, and a broken
 * one aborts (a finding):
 *   - a file and a unit name normalize to a string of the returned length,
 *     with no empty, "." or inner ".." component, absolute when the name
 *     or the directory is, and normalizing the result again changes
 *     nothing;
 *   - a range has lo < hi, comes after the previous range of its sequence
 *     and carries a file handle this sink returned and a line above 0;
 *   - the finished table is sorted, ends in a gap, and its indexed lookup
 *     agrees with a plain scan. */
#ifndef COZ_TEST_FUZZ_SINK_H
#define COZ_TEST_FUZZ_SINK_H

#include "dwarf_lines.h"
#include "objmap.h"

#include <stdbool.h>
#include <stdint.h>

#define FUZZ_SINK_FILES 64

struct fuzz_sink {
  struct coz_dwarf_sink sink; /* hand &sink to the decoder */
  struct coz_objmap_builder b;
  char files[FUZZ_SINK_FILES]; /* handles are addresses in here */
  unsigned n_files;
  bool in_sequence;
  uint64_t last_hi;
};

/* Starts a sink; drop_units makes sink.unit refuse every unit whose
 * normalized name has an odd length (both answers get exercised). */
void fuzz_sink_begin(struct fuzz_sink *fs, bool drop_units);

/* Builds the table from what was received, checks it and frees it. */
void fuzz_sink_finish(struct fuzz_sink *fs);

#endif /* COZ_TEST_FUZZ_SINK_H */
