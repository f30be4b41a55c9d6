/* loaded.c: see loaded.h. */
#include "loaded.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *coz_executable_path(void) {
  static char path[PATH_MAX];
  static _Atomic int state; /* 0 not read, 1 reading, 2 read */
  int expected = 0;
  if (atomic_compare_exchange_strong(&state, &expected, 1)) {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    atomic_store(&state, 2);
  }
  return atomic_load(&state) == 2 && path[0] ? path : NULL;
}

/* Looks for the pass's marker symbol name in the object's dynamic string
 * table, in memory (no file access). */
static int find_pass_marker(const struct dl_phdr_info *info,
                            const struct coz_loaded *o) {
  static const char marker[] = "\0__coz_register_module"; /* and its NUL */
  const ElfW(Dyn) *dyn = NULL;
  for (size_t i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(o->bias + info->dlpi_phdr[i].p_vaddr);
  if (!dyn)
    return -1;
  uintptr_t strtab = 0;
  size_t strsz = 0;
  for (; dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_STRTAB)
      strtab = (uintptr_t)dyn->d_un.d_ptr;
    else if (dyn->d_tag == DT_STRSZ)
      strsz = (size_t)dyn->d_un.d_val;
  }
  /* The loader usually relocates d_ptr in place; a read-only dynamic
   * section keeps the link-time address. */
  if (strtab && strtab < o->lo)
    strtab += o->bias;
  if (!strtab || strsz == 0 || strtab < o->lo || strtab + strsz > o->hi)
    return -1;
  return memmem((const void *)strtab, strsz, marker, sizeof marker) != NULL;
}

/* Under the loader's lock: copies into room allocated before the walk. */
static int add_object(struct dl_phdr_info *info, size_t size, void *arg) {
  struct coz_loaded_list *list = arg;
  (void)size;
  list->adds = info->dlpi_adds;
  list->subs = info->dlpi_subs;
  bool is_main = list->calls++ == 0; /* the loader lists it first */
  const char *name = info->dlpi_name;
  if (is_main && (!name || !name[0]))
    name = coz_executable_path();
  if (!name || name[0] == '\0')
    return 0;
  size_t len = strlen(name) + 1;
  if (list->n == list->cap || list->names_cap - list->names_used < len) {
    list->overflow = true; /* something was loaded since we counted */
    return 1;
  }
  struct coz_loaded *o = &list->v[list->n];
  memset(o, 0, sizeof *o);
  o->path = memcpy(list->names + list->names_used, name, len);
  list->names_used += len;
  o->is_main = is_main;
  o->bias = (uintptr_t)info->dlpi_addr;
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = o->bias + ph->p_vaddr, hi = lo + ph->p_memsz;
    if (!o->hi || lo < o->lo)
      o->lo = lo;
    if (hi > o->hi)
      o->hi = hi;
    if ((ph->p_flags & PF_X) && o->n_seg < COZ_MAX_SEGMENTS) {
      o->seg_lo[o->n_seg] = ph->p_vaddr;
      o->seg_hi[o->n_seg] = ph->p_vaddr + ph->p_memsz;
      o->n_seg++;
    }
  }
  o->pass_marker = find_pass_marker(info, o);
  list->n++;
  return 0;
}

struct room {
  size_t objects, bytes;
};

static int count_object(struct dl_phdr_info *info, size_t size, void *arg) {
  struct room *r = arg;
  (void)size;
  r->objects++;
  r->bytes += (info->dlpi_name ? strlen(info->dlpi_name) : 0) + 1;
  return 0;
}

int coz_loaded_snapshot(struct coz_loaded_list *list) {
  /* Count, allocate with some slack, copy; again if a dlopen in between
   * outgrew the slack. */
  for (size_t slack = 16; slack <= 16 << 6; slack *= 4) {
    struct room r = {0, 0};
    dl_iterate_phdr(count_object, &r);
    memset(list, 0, sizeof *list);
    list->cap = r.objects + slack;
    list->names_cap = r.bytes + PATH_MAX + slack * 256;
    list->v = calloc(list->cap, sizeof *list->v);
    list->names = malloc(list->names_cap);
    if (!list->v || !list->names) {
      coz_loaded_free(list);
      return -1;
    }
    dl_iterate_phdr(add_object, list);
    if (!list->overflow)
      return 0;
    coz_loaded_free(list);
  }
  return -1;
}

void coz_loaded_free(struct coz_loaded_list *list) {
  free(list->v);
  free(list->names);
  memset(list, 0, sizeof *list);
}

/* Every entry carries the counters, so the first one suffices. */
static int read_counters(struct dl_phdr_info *info, size_t size, void *arg) {
  unsigned long long *c = arg;
  (void)size;
  c[0] = info->dlpi_adds;
  c[1] = info->dlpi_subs;
  return 1;
}

void coz_loaded_counters(unsigned long long *adds, unsigned long long *subs) {
  unsigned long long c[2] = {0, 0};
  dl_iterate_phdr(read_counters, c);
  *adds = c[0];
  *subs = c[1];
}
