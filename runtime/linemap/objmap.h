/* objmap.h: the lookup table of one loaded object.
 *
 * A sorted array of disjoint address ranges, each naming its line, built on
 * the profiler thread and never changed after it is published, so signal
 * handlers search it with no lock (binary search: O(log n)). */
#ifndef COZ_LINEMAP_OBJMAP_H
#define COZ_LINEMAP_OBJMAP_H

#include "intern.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_range {
  uint64_t lo, hi; /* link-time addresses, [lo, hi) */
  struct coz_line *line;
};

struct coz_objmap {
  uintptr_t bias;       /* load address - link-time address */
  uintptr_t lo, hi;     /* run-time addresses spanned by the ranges */
  size_t n;             /* number of ranges */
  struct coz_range *r;  /* sorted by lo, disjoint */
  const char *path;     /* object file (for diagnostics) */
  atomic_bool unloaded; /* set when the object left the process */
};

struct coz_seq {
  size_t first, end;
};

struct coz_raw_range {
  uint64_t lo, hi;
  struct coz_file *file;
  uint32_t line;
};

/* Collects one object's ranges while its DWARF is read. */
struct coz_objmap_builder {
  struct coz_raw_range *raw;
  size_t n_raw, cap_raw;
  struct coz_seq *seq; /* each sequence's ranges: raw[first..end) */
  size_t n_seq, cap_seq;
  size_t cur_seq_start;
  bool failed; /* out of memory */
};

void coz_objmap_add_range(struct coz_objmap_builder *b, uint64_t lo,
                          uint64_t hi, struct coz_file *file, uint32_t line);
void coz_objmap_end_sequence(struct coz_objmap_builder *b);

/* Interns the lines of the collected ranges and builds the sorted table;
 * keeps only ranges whose start lies in one of the n_seg executable
 * segments [seg_lo[i], seg_hi[i]) (so code the linker discarded, whose rows
 * point at address 0 or a tombstone, drops out). Frees the builder's
 * memory. Returns NULL when no range is left or out of memory (*oom). */
struct coz_objmap *coz_objmap_finish(struct coz_objmap_builder *b,
                                     const uint64_t *seg_lo,
                                     const uint64_t *seg_hi, size_t n_seg,
                                     bool *oom);

/* Frees a builder without building. */
void coz_objmap_discard(struct coz_objmap_builder *b);

/* The line of the range holding the run-time address pc, or NULL.
 * Async-signal-safe. */
struct coz_line *coz_objmap_lookup(const struct coz_objmap *m, uintptr_t pc);

#endif /* COZ_LINEMAP_OBJMAP_H */
