/* cp_table.c: the call-path sample table. One mmap'ed array of entries
 * keyed by (resource, stack), filled from signal handlers: lock-free, no
 * allocation, open addressing with linear probing. A thread that meets a
 * slot another thread is still filling moves on, so two entries may hold
 * the same stack; the writer and the report sum them. The pages are
 * populated up front so that sampling never page-faults (the page-fault
 * clock would count the profiler's own faults). */
#include "cp_internal.h"

#include <string.h>
#include <sys/mman.h>

enum { CP_TABLE_SLOTS = 8192, CP_PROBES = 64 };

static struct cp_entry *table;
_Atomic uint64_t cp_total_weight[CP_NRES];
_Atomic uint64_t cp_total_samples[CP_NRES];
_Atomic uint64_t cp_dropped_samples[CP_NRES];

bool cp_table_init(void) {
  size_t bytes = sizeof(struct cp_entry) * CP_TABLE_SLOTS;
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED)
    return false;
  table = p;
  return true;
}

size_t cp_table_capacity(void) { return table ? CP_TABLE_SLOTS : 0; }

const struct cp_entry *cp_table_entry(size_t i) {
  return atomic_load_explicit(&table[i].state, memory_order_acquire) == 2
             ? &table[i]
             : NULL;
}

static uint32_t stack_hash(enum cp_resource r, const struct cp_stack *st) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)r ^
               ((uint64_t)st->depth << 8) ^ st->truncated;
  for (unsigned i = 0; i < st->depth; i++) {
    h ^= st->pc[i];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return (uint32_t)(h ^ (h >> 32));
}

static bool same_stack(const struct cp_entry *e, enum cp_resource r,
                       uint32_t hash, const struct cp_stack *st) {
  return e->hash == hash && e->resource == r && e->depth == st->depth &&
         e->truncated == st->truncated &&
         memcmp(e->pc, st->pc, st->depth * sizeof st->pc[0]) == 0;
}

void cp_table_add(enum cp_resource r, const struct cp_stack *st,
                  uint64_t weight) {
  if (!table) {
    atomic_fetch_add(&cp_dropped_samples[r], 1);
    return;
  }
  uint32_t hash = stack_hash(r, st);
  for (unsigned probe = 0; probe < CP_PROBES; probe++) {
    struct cp_entry *e = &table[(hash + probe) & (CP_TABLE_SLOTS - 1)];
    uint32_t s = atomic_load_explicit(&e->state, memory_order_acquire);
    if (s == 0) {
      uint32_t expected = 0;
      if (atomic_compare_exchange_strong(&e->state, &expected, 1)) {
        e->hash = hash;
        e->resource = (uint16_t)r;
        e->depth = (uint16_t)st->depth;
        e->truncated = st->truncated;
        memcpy(e->pc, st->pc, st->depth * sizeof st->pc[0]);
        atomic_store_explicit(&e->samples, 1, memory_order_relaxed);
        atomic_store_explicit(&e->weight, weight, memory_order_relaxed);
        atomic_store_explicit(&e->state, 2, memory_order_release);
        return;
      }
      s = expected;
    }
    if (s == 2 && same_stack(e, r, hash, st)) {
      atomic_fetch_add_explicit(&e->samples, 1, memory_order_relaxed);
      atomic_fetch_add_explicit(&e->weight, weight, memory_order_relaxed);
      return;
    }
    /* s == 1: being filled (maybe by the very code this handler
     * interrupted): never wait, take the next slot. */
  }
  atomic_fetch_add(&cp_dropped_samples[r], 1);
}

void cp_record(enum cp_resource r, const struct cp_stack *st, uint64_t weight) {
  if (weight == 0)
    return;
  atomic_fetch_add_explicit(&cp_total_weight[r], weight, memory_order_relaxed);
  atomic_fetch_add_explicit(&cp_total_samples[r], 1, memory_order_relaxed);
  cp_table_add(r, st, weight);
}
