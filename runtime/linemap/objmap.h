/* objmap.h: the lookup table of one loaded object.
 *
 * A sorted array of range starts, each naming the line whose code begins
 * there and runs to the next start (NULL: no in-scope line). Built on the
 * profiler thread and never changed once published, so signal handlers
 * search it with no lock (binary search: O(log n)). */
#ifndef COZ_LINEMAP_OBJMAP_H
#define COZ_LINEMAP_OBJMAP_H

#include "intern.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_range {
  uint64_t lo;           /* link-time address; runs to the next lo */
  struct coz_line *line; /* NULL: a gap */
};

struct coz_objmap {
  uintptr_t bias;      /* load address - link-time address */
  uintptr_t lo, hi;    /* run-time addresses spanned by the ranges */
  size_t n;            /* entries of r; the last one is a NULL gap */
  struct coz_range *r; /* sorted by lo (equal los: the later wins) */
  /* Bucket index: idx[k] is the entry covering address base + (k << shift),
   * so a lookup searches only r[idx[k]..idx[k+1]] (a few cache lines, not
   * the whole table). NULL: search it all. */
  uint32_t *idx;
  uint64_t base;
  unsigned shift;
  const char *path;     /* object file (for diagnostics) */
  atomic_bool unloaded; /* set when the object left the process */
};

#define COZ_MAX_SEGMENTS 16

/* Collects one object's ranges while its line tables are decoded. */
struct coz_objmap_builder {
  struct coz_range *r; /* sequences one after the other */
  size_t n, cap;
  struct coz_seq {
    size_t first, end; /* r[first..end), end a NULL gap entry */
  } * seq;
  size_t n_seq, cap_seq;
  size_t cur_first;   /* first entry of the current sequence */
  uint64_t cur_limit; /* end of the segment the sequence started in */
  bool cur_started;   /* the current sequence has had a range */
  bool cur_dropped;   /* the sequence starts outside the segments */
  bool sorted;        /* sequences came in address order, disjoint */
  bool failed;        /* out of memory */
  /* Executable segments of the object, link-time addresses: ranges
   * elsewhere (code the linker discarded, left at 0 or a tombstone)
   * are dropped. */
  uint64_t seg_lo[COZ_MAX_SEGMENTS], seg_hi[COZ_MAX_SEGMENTS];
  size_t n_seg;
};

/* Starts a builder for an object with these executable segments;
 * size_hint is a guess of the number of ranges. */
void coz_objmap_begin(struct coz_objmap_builder *b, const uint64_t *seg_lo,
                      const uint64_t *seg_hi, size_t n_seg, size_t size_hint);

/* Whether ranges of the current sequence are kept (it starts, at lo, in
 * an executable segment), so that no line is created for code the linker
 * discarded. */
bool coz_objmap_keeps(struct coz_objmap_builder *b, uint64_t lo);

/* The code of line covers [lo, hi); calls within a sequence come in
 * increasing address order. */
void coz_objmap_add_range(struct coz_objmap_builder *b, uint64_t lo,
                          uint64_t hi, struct coz_line *line);
void coz_objmap_end_sequence(struct coz_objmap_builder *b);

/* The finished table, or NULL when no range was kept or out of memory
 * (*oom). Frees the builder's memory. */
struct coz_objmap *coz_objmap_finish(struct coz_objmap_builder *b, bool *oom);

/* Frees a builder without building. */
void coz_objmap_discard(struct coz_objmap_builder *b);

/* The line of the range holding the run-time address pc, or NULL.
 * Async-signal-safe. */
struct coz_line *coz_objmap_lookup(const struct coz_objmap *m, uintptr_t pc);

#endif /* COZ_LINEMAP_OBJMAP_H */
