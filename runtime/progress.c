/* progress.c: module registry, the marker slow path, and the merged table of
 * progress points (see progress.h). */
#include "progress.h"
#include "abi.h"
#include "profiler_host.h"
#include "util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- Module registry: written by constructors, read by the profiler. ---- */
#define MAX_MODULES 4096
static const struct coz_module_desc *_Atomic modules[MAX_MODULES];
static _Atomic size_t n_modules;

COZ_EXPORT void __coz_register_module(const struct coz_module_desc *desc) {
  if (!desc || desc->abi_version != COZ_ABI_VERSION) {
    coz_log_notice("a module was compiled with an incompatible coz-cc pass "
                   "(ABI %u, runtime %u): rebuild it with this coz-cc",
                   desc ? desc->abi_version : 0, COZ_ABI_VERSION);
    return;
  }
  size_t i = atomic_fetch_add(&n_modules, 1);
  if (i >= MAX_MODULES) {
    atomic_fetch_sub(&n_modules, 1);
    return;
  }
  atomic_store_explicit(&modules[i], desc, memory_order_release);
  coz_host_scope_grew();
}

bool coz_progress_object_has_module(uintptr_t lo, uintptr_t hi, void *arg) {
  (void)arg;
  size_t n = coz_progress_modules();
  for (size_t i = 0; i < n; i++) {
    uintptr_t at = (uintptr_t)atomic_load(&modules[i]);
    if (at >= lo && at < hi)
      return true;
  }
  return false;
}

size_t coz_progress_modules(void) {
  size_t n = atomic_load(&n_modules);
  return n < MAX_MODULES ? n : MAX_MODULES;
}

size_t coz_progress_modules_flagged(uint32_t flags) {
  size_t n = coz_progress_modules(), flagged = 0;
  for (size_t i = 0; i < n; i++) {
    const struct coz_module_desc *m = atomic_load(&modules[i]);
    if (m && (m->flags & flags) == flags)
      flagged++;
  }
  return flagged;
}

/* ---- Slow path: __coz_marker without the pass. ----
 * A fixed open-addressing table keyed by (kind, name contents); names are
 * copied because the caller's string need not outlive the call. */
#define SLOW_SLOTS 1024
#define SLOW_NAME 112
enum { SLOW_EMPTY, SLOW_CLAIMED, SLOW_READY };
struct slow_slot {
  struct coz_counter counter;
  _Atomic int state;
  unsigned kind;
  bool merged; /* profiler thread only */
  char name[SLOW_NAME];
};
static struct slow_slot slow[SLOW_SLOTS];
static _Atomic uint64_t slow_dropped;

/* glibc's rseq area gives the current CPU with one load (0 without rseq). */
extern const ptrdiff_t __rseq_offset __attribute__((weak));

static inline unsigned current_shard(void) {
#if defined(__x86_64__)
  if (&__rseq_offset) {
    uint32_t cpu;
    __asm__ volatile("movl %%fs:(%1), %0"
                     : "=r"(cpu)
                     : "r"((intptr_t)__rseq_offset));
    return cpu & (COZ_SHARDS - 1);
  }
#endif
  return 0;
}

static uint64_t hash_name(unsigned kind, const char *s) {
  uint64_t h = 1469598103934665603ull ^ kind;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool same(const struct slow_slot *e, unsigned kind, const char *name) {
  return e->kind == kind && strncmp(e->name, name, SLOW_NAME - 1) == 0;
}

COZ_EXPORT void __coz_marker(unsigned kind, const char *name) {
  if (!name || kind > COZ_KIND_END)
    return;
  size_t i = hash_name(kind, name) % SLOW_SLOTS;
  for (size_t probe = 0; probe < SLOW_SLOTS;
       probe++, i = (i + 1) % SLOW_SLOTS) {
    struct slow_slot *e = &slow[i];
    int st = atomic_load_explicit(&e->state, memory_order_acquire);
    if (st == SLOW_EMPTY) {
      int expect = SLOW_EMPTY;
      if (atomic_compare_exchange_strong(&e->state, &expect, SLOW_CLAIMED)) {
        e->kind = kind;
        strncpy(e->name, name, SLOW_NAME - 1);
        atomic_store_explicit(&e->state, SLOW_READY, memory_order_release);
      }
      st = atomic_load_explicit(&e->state, memory_order_acquire);
    }
    while (st == SLOW_CLAIMED) /* another thread is copying the name */
      st = atomic_load_explicit(&e->state, memory_order_acquire);
    if (same(e, kind, name)) {
      __atomic_fetch_add(&e->counter.shard[current_shard()].value, 1,
                         __ATOMIC_RELAXED);
      return;
    }
  }
  atomic_fetch_add_explicit(&slow_dropped, 1, memory_order_relaxed);
}

/* ---- The merged table (profiler thread only). ---- */
struct counter_list {
  struct coz_counter **v;
  size_t n, cap;
};
struct point {
  char *name;
  bool latency;
  bool candidate; /* merged apart from a real point of the same name */
  struct counter_list first; /* throughput or begin counters */
  struct counter_list end;   /* end counters */
};
static struct point *points;
static size_t n_points, cap_points;
static size_t modules_merged;
static bool any_real;

static void list_add(struct counter_list *l, struct coz_counter *c) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i] == c) /* linkonce_odr counters shared by modules */
      return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 4;
    struct coz_counter **v = realloc(l->v, cap * sizeof *v);
    if (!v)
      return;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = c;
}

static struct point *point_for(const char *name, bool latency, bool candidate) {
  for (size_t i = 0; i < n_points; i++)
    if (points[i].latency == latency && points[i].candidate == candidate &&
        strcmp(points[i].name, name) == 0)
      return &points[i];
  if (n_points == cap_points) {
    size_t cap = cap_points ? 2 * cap_points : 16;
    struct point *p = realloc(points, cap * sizeof *p);
    if (!p)
      return NULL;
    points = p;
    cap_points = cap;
  }
  struct point *p = &points[n_points];
  memset(p, 0, sizeof *p);
  p->name = strdup(name);
  if (!p->name)
    return NULL;
  p->latency = latency;
  p->candidate = candidate;
  any_real |= !candidate;
  n_points++;
  return p;
}

static void merge(unsigned kind, const char *name, struct coz_counter *c,
                  uint32_t flags) {
  if (!name || !c || kind > COZ_KIND_END)
    return;
  struct point *p =
      point_for(name, kind != COZ_KIND_THROUGHPUT, flags & COZ_POINT_CANDIDATE);
  if (p)
    list_add(kind == COZ_KIND_END ? &p->end : &p->first, c);
}

size_t coz_progress_refresh(void) {
  size_t n = coz_progress_modules();
  for (; modules_merged < n; modules_merged++) {
    const struct coz_module_desc *m =
        atomic_load_explicit(&modules[modules_merged], memory_order_acquire);
    if (!m) /* registered but not yet published */
      break;
    for (uint32_t i = 0; i < m->n_points; i++)
      merge(m->points[i].kind, m->points[i].name, m->points[i].counter,
            m->points[i].flags);
  }
  for (size_t i = 0; i < SLOW_SLOTS; i++) {
    struct slow_slot *e = &slow[i];
    if (!e->merged &&
        atomic_load_explicit(&e->state, memory_order_acquire) == SLOW_READY) {
      merge(e->kind, e->name, &e->counter, 0);
      e->merged = true;
    }
  }
  return n_points;
}

const char *coz_progress_name(size_t i) { return points[i].name; }
bool coz_progress_is_latency(size_t i) { return points[i].latency; }
bool coz_progress_is_candidate(size_t i) { return points[i].candidate; }
bool coz_progress_has_real(void) { return any_real; }
bool coz_progress_recorded(size_t i) { return points[i].candidate != any_real; }

static uint64_t sum(const struct counter_list *l) {
  uint64_t total = 0;
  for (size_t i = 0; i < l->n; i++)
    for (int s = 0; s < COZ_SHARDS; s++)
      total += __atomic_load_n(&l->v[i]->shard[s].value, __ATOMIC_RELAXED);
  return total;
}

struct coz_point_reading coz_progress_read(size_t i) {
  struct coz_point_reading r = {sum(&points[i].first), sum(&points[i].end)};
  return r;
}

const char **coz_progress_files(size_t first, size_t *count) {
  size_t n = coz_progress_modules(), total = 0;
  for (size_t i = first; i < n; i++) {
    const struct coz_module_desc *m = atomic_load(&modules[i]);
    if (m)
      total += m->n_files;
  }
  const char **files = calloc(total ? total : 1, sizeof *files);
  size_t k = 0;
  for (size_t i = first; files && i < n; i++) {
    const struct coz_module_desc *m = atomic_load(&modules[i]);
    for (uint32_t j = 0; m && j < m->n_files && k < total; j++)
      files[k++] = m->files[j];
  }
  *count = files ? k : 0;
  return files;
}
