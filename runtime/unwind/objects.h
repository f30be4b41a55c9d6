/* objects.h: the table of loaded objects that have unwind tables, as
 * coz_unwind_step sees it. Built by coz_unwind_refresh (unwind.h) outside
 * signal handlers, read by handlers without locks. */
#ifndef COZ_UNWIND_OBJECTS_H
#define COZ_UNWIND_OBJECTS_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One loaded object with a usable .eh_frame_hdr. Run-time addresses. */
struct coz_unwind_object {
  uintptr_t text_lo, text_hi; /* span of its executable segments */
  const unsigned char *hdr;   /* .eh_frame_hdr (datarel base of the table) */
  /* The hdr's binary search table: fde_count pairs (initial location,
   * FDE address), each an sdata4 relative to hdr, sorted by location. */
  const unsigned char *table;
  uint64_t fde_count;
  /* The loaded segment holding .eh_frame: every CIE and FDE read stays
   * inside it. */
  uintptr_t eh_lo, eh_hi;
};

struct coz_unwind_objects {
  size_t n;
  struct coz_unwind_object v[]; /* sorted by text_lo, disjoint */
};

/* The current table, pinned so that a refresh does not free it while a
 * step uses it; NULL before the first refresh. Every call is matched by
 * coz_unwind_objects_unpin. Async-signal-safe. */
const struct coz_unwind_objects *coz_unwind_objects_pin(void);
void coz_unwind_objects_unpin(void);

/* The object whose code holds pc, or NULL. Also NULL when the loader no
 * longer has that object (dlclose'd since the last refresh), so that its
 * unmapped tables are never read. Async-signal-safe. */
const struct coz_unwind_object *
coz_unwind_object_find(const struct coz_unwind_objects *t, uintptr_t pc);

/* Reads the .eh_frame_hdr (version 1) at run-time address hdr of the
 * object info describes into o's hdr, table, fde_count and eh_lo/eh_hi
 * (the PT_LOAD segment of info holding .eh_frame); false when it is not
 * there or not usable. Every read stays inside info's PT_LOAD segments.
 * Called by coz_unwind_refresh (and the fuzz target) on the object's
 * dl_iterate_phdr entry. */
bool coz_unwind_read_hdr(const struct dl_phdr_info *info, uintptr_t hdr,
                         struct coz_unwind_object *o);

#endif /* COZ_UNWIND_OBJECTS_H */
