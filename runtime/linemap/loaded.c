/* loaded.c: see loaded.h. */
#include "loaded.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int add_object(struct dl_phdr_info *info, size_t size, void *arg) {
  struct coz_loaded_list *list = arg;
  (void)size;
  list->adds = info->dlpi_adds;
  list->subs = info->dlpi_subs;
  bool is_main = list->calls++ == 0; /* the loader lists it first */
  const char *name = info->dlpi_name;
  char exe[PATH_MAX];
  if (is_main && (!name || !name[0])) {
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
      return 0;
    exe[n] = '\0';
    name = exe;
  }
  if (!name || name[0] == '\0')
    return 0;
  if (list->n == list->cap) {
    size_t cap = list->cap ? list->cap * 2 : 32;
    struct coz_loaded *v = realloc(list->v, cap * sizeof *v);
    if (!v) {
      list->failed = true;
      return 1;
    }
    list->v = v;
    list->cap = cap;
  }
  struct coz_loaded *o = &list->v[list->n];
  memset(o, 0, sizeof *o);
  o->path = strdup(name);
  if (!o->path) {
    list->failed = true;
    return 1;
  }
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
  list->n++;
  return 0;
}

int coz_loaded_snapshot(struct coz_loaded_list *list) {
  memset(list, 0, sizeof *list);
  dl_iterate_phdr(add_object, list);
  if (list->failed) {
    coz_loaded_free(list);
    return -1;
  }
  return 0;
}

void coz_loaded_free(struct coz_loaded_list *list) {
  for (size_t i = 0; i < list->n; i++)
    free(list->v[i].path);
  free(list->v);
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
