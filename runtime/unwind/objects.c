/* objects.c: the loaded objects with unwind tables (see objects.h).
 *
 * coz_unwind_refresh lists the objects with dl_iterate_phdr (which takes
 * the loader's lock, so never from a signal handler) when the loader's
 * load/unload counters have moved, builds a new sorted table and publishes
 * it with one atomic store. Handlers pin the table while they use it (a
 * counter of steps in flight); the replaced table is freed once no step is
 * in flight, which, because the new table was published first, means no
 * step can still hold the old one. A step lasts microseconds; if the count
 * does not drop to zero within ~100 ms (a thread stopped in a handler),
 * the old table is left allocated rather than freed under a reader.
 *
 * An object dlclose'd after the last refresh is still in the table: its
 * memory is gone. When glibc's _dl_find_object (2.35+, lock-free and
 * async-signal-safe) is there, every lookup checks that the loader still
 * maps the object, which leaves only a window of a few instructions
 * between that check and the reads; without it, the window runs to the
 * next refresh (documented in docs/design.md). */
#include "objects.h"

#include "encoding.h"
#include "unwind.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#ifdef DLFO_EH_SEGMENT_TYPE
#pragma weak _dl_find_object
#define COZ_HAVE_DL_FIND_OBJECT 1
#endif

static _Atomic(struct coz_unwind_objects *) g_table;
static _Atomic unsigned long g_readers; /* steps in flight */
static unsigned long long g_adds = ~0ull, g_subs = ~0ull;

const struct coz_unwind_objects *coz_unwind_objects_pin(void) {
  /* Both sequentially consistent: if a refresh saw no reader after its
   * exchange, this increment comes after it, and so does the load below,
   * which then returns the new table. */
  atomic_fetch_add(&g_readers, 1);
  return atomic_load(&g_table);
}

void coz_unwind_objects_unpin(void) {
  atomic_fetch_sub_explicit(&g_readers, 1, memory_order_release);
}

const struct coz_unwind_object *
coz_unwind_object_find(const struct coz_unwind_objects *t, uintptr_t pc) {
  if (!t || t->n == 0 || pc < t->v[0].text_lo)
    return NULL;
  size_t lo = 0, hi = t->n; /* the last entry with text_lo <= pc */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->v[mid].text_lo <= pc)
      lo = mid;
    else
      hi = mid;
  }
  const struct coz_unwind_object *o = &t->v[lo];
  if (pc >= o->text_hi)
    return NULL;
#ifdef COZ_HAVE_DL_FIND_OBJECT
  if (_dl_find_object) {
    struct dl_find_object found;
    if (_dl_find_object((void *)pc, &found) != 0 ||
        found.dlfo_eh_frame != (const void *)o->hdr)
      return NULL;
  }
#endif
  return o;
}

/* The loaded segment of info holding addr: [*lo, *hi). */
static bool segment_of(const struct dl_phdr_info *info, uintptr_t addr,
                       uintptr_t *lo, uintptr_t *hi) {
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (addr >= start && addr - start < ph->p_memsz) {
      *lo = start;
      *hi = start + ph->p_memsz;
      return true;
    }
  }
  return false;
}

/* Only the table format every linker writes (datarel|sdata4) is taken; an
 * object without it is left out (its frames then fall back to frame
 * pointers). */
bool coz_unwind_read_hdr(const struct dl_phdr_info *info, uintptr_t hdr,
                         struct coz_unwind_object *o) {
  uintptr_t seg_lo, seg_hi;
  if (!segment_of(info, hdr, &seg_lo, &seg_hi))
    return false;
  struct coz_cursor c = coz_cursor_at((const void *)hdr, (const void *)seg_hi);
  uint8_t version = coz_read_u8(&c);
  uint8_t eh_frame_enc = coz_read_u8(&c);
  uint8_t count_enc = coz_read_u8(&c);
  uint8_t table_enc = coz_read_u8(&c);
  if (c.bad || version != 1 || table_enc != (COZ_PE_DATAREL | COZ_PE_SDATA4))
    return false;
  uint64_t eh_frame = coz_read_pointer(&c, eh_frame_enc, hdr);
  uint64_t count = coz_read_pointer(&c, count_enc, hdr);
  if (c.bad || count == 0 || count > (uint64_t)(c.end - c.p) / 8)
    return false;
  if (!segment_of(info, (uintptr_t)eh_frame, &o->eh_lo, &o->eh_hi))
    return false;
  o->hdr = (const unsigned char *)hdr;
  o->table = c.p;
  o->fde_count = count;
  return true;
}

struct collect {
  struct coz_unwind_object *v;
  size_t n, cap; /* room allocated before the walk */
  bool overflow; /* something was loaded since the count: walk again */
  bool counted;
  unsigned long long adds, subs;
};

/* Under the loader's lock: allocates nothing (an allocator that takes its
 * own lock and then the loader's, as tcmalloc does when it unwinds its
 * callers, would deadlock with us). */
static int collect_object(struct dl_phdr_info *info, size_t size, void *arg) {
  struct collect *c = arg;
  if (!c->counted && size >= offsetof(struct dl_phdr_info, dlpi_subs) +
                                 sizeof info->dlpi_subs) {
    c->adds = info->dlpi_adds;
    c->subs = info->dlpi_subs;
    c->counted = true;
  }
  const ElfW(Phdr) *eh = NULL;
  uintptr_t text_lo = UINTPTR_MAX, text_hi = 0;
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_EH_FRAME) {
      eh = ph;
    } else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (lo < text_lo)
        text_lo = lo;
      if (lo + ph->p_memsz > text_hi)
        text_hi = lo + ph->p_memsz;
    }
  }
  struct coz_unwind_object o;
  if (!eh || text_lo >= text_hi ||
      !coz_unwind_read_hdr(info, info->dlpi_addr + eh->p_vaddr, &o))
    return 0;
  o.text_lo = text_lo;
  o.text_hi = text_hi;
  if (c->n == c->cap) {
    c->overflow = true;
    return 1;
  }
  c->v[c->n++] = o;
  return 0;
}

static int count_only(struct dl_phdr_info *info, size_t size, void *arg) {
  unsigned long long *counters = arg;
  if (size >=
      offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    counters[0] = info->dlpi_adds;
    counters[1] = info->dlpi_subs;
  }
  return 1; /* the first object carries the counters */
}

static int count_objects(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  ++*(size_t *)arg;
  return 0;
}

static int by_text_lo(const void *a, const void *b) {
  uintptr_t x = ((const struct coz_unwind_object *)a)->text_lo;
  uintptr_t y = ((const struct coz_unwind_object *)b)->text_lo;
  return x < y ? -1 : x > y;
}

static void refresh(void);

/* Frees a replaced table once no step is in flight (see the top). */
static void retire(struct coz_unwind_objects *old) {
  if (!old)
    return;
  for (int i = 0; i < 2000; i++) {
    if (atomic_load(&g_readers) == 0) {
      free(old);
      return;
    }
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
  }
}

void coz_unwind_refresh(void) {
  /* The causal profiler's thread and the call-path writer both poll: one
   * refresh at a time, and a caller that finds one running leaves it to
   * publish. */
  static atomic_flag busy = ATOMIC_FLAG_INIT;
  if (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire))
    return;
  refresh();
  atomic_flag_clear_explicit(&busy, memory_order_release);
}

static void refresh(void) {
  unsigned long long counters[2] = {0, 0};
  dl_iterate_phdr(count_only, counters);
  if (counters[0] == g_adds && counters[1] == g_subs &&
      atomic_load_explicit(&g_table, memory_order_relaxed))
    return;
  struct collect c = {0};
  for (size_t slack = 16; slack <= 16 << 6; slack *= 4) {
    size_t objects = 0;
    dl_iterate_phdr(count_objects, &objects);
    c = (struct collect){0};
    c.cap = objects + slack;
    c.v = malloc(c.cap * sizeof *c.v);
    if (!c.v)
      return; /* out of memory: keep the old table, try again next time */
    dl_iterate_phdr(collect_object, &c);
    if (!c.overflow)
      break;
    free(c.v);
    c.v = NULL;
  }
  struct coz_unwind_objects *t =
      c.v ? malloc(sizeof *t + c.n * sizeof *t->v) : NULL;
  if (!t) {
    free(c.v); /* out of memory: keep the old table, try again next time */
    return;
  }
  if (c.n)
    qsort(c.v, c.n, sizeof *c.v, by_text_lo);
  t->n = c.n;
  for (size_t i = 0; i < c.n; i++)
    t->v[i] = c.v[i];
  free(c.v);
  g_adds = c.adds;
  g_subs = c.subs;
  retire(atomic_exchange(&g_table, t));
}
