/* loaded.h: a snapshot of the objects loaded in the process
 * (dl_iterate_phdr), with what the line map needs of each. */
#ifndef COZ_LINEMAP_LOADED_H
#define COZ_LINEMAP_LOADED_H

#include "objmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The executable's path, read from /proc/self/exe the first time and kept:
 * once the main thread has exited (main calling pthread_exit), the link
 * no longer resolves, so the runtime calls this at start-up. NULL if it
 * cannot be read. Thread-safe; call it outside signal handlers. */
const char *coz_executable_path(void);

struct coz_loaded {
  char *path;       /* file to read (the executable's from /proc/self/exe) */
  bool is_main;     /* the executable */
  uintptr_t bias;   /* load address - link-time address (dlpi_addr) */
  uintptr_t lo, hi; /* run-time span of all its PT_LOAD segments */
  uint64_t seg_lo[COZ_MAX_SEGMENTS], seg_hi[COZ_MAX_SEGMENTS];
  size_t n_seg; /* executable PT_LOAD segments, link-time addresses */
  /* Whether its dynamic symbols name __coz_register_module, as every
   * object compiled with the pass does (the runtime defines and exports
   * it, instrumented modules reference it): 1 yes, 0 no, -1 cannot tell
   * (no dynamic section, e.g. a static executable). */
  int pass_marker;
};

struct coz_loaded_list {
  struct coz_loaded *v;
  size_t n, cap;
  char *names; /* the paths, allocated before the walk */
  size_t names_used, names_cap;
  unsigned long long adds, subs; /* the loader's load/unload counters */
  bool overflow; /* more objects or longer names than room: walk again */
  unsigned calls;
};

/* Fills list (caller-owned, freed with coz_loaded_free); objects without a
 * file name (the vDSO) are left out. Only copies under the loader's lock,
 * so that slow reading afterwards does not hold up dlopen in other
 * threads, and allocates nothing under it: an allocator that takes its own
 * lock and then the loader's (tcmalloc unwinds its callers with libunwind,
 * which walks the objects) would otherwise deadlock with us. Returns 0, or
 * -1 when out of memory. */
int coz_loaded_snapshot(struct coz_loaded_list *list);

void coz_loaded_free(struct coz_loaded_list *list);

/* The loader's counters of loads and unloads so far: when they have not
 * moved, neither has the list. */
void coz_loaded_counters(unsigned long long *adds, unsigned long long *subs);

#endif /* COZ_LINEMAP_LOADED_H */
