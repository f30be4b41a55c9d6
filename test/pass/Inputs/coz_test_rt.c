/* A stand-in for the runtime, for tests only: records the modules the pass
 * registers and prints, at exit, each distinct counter's total (sum of its
 * shards) and each module's instrumented files. Layouts: design.md,
 * Contract 2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define COZ_SHARDS 16
struct coz_counter {
  struct {
    uint64_t value;
    uint64_t pad[7];
  } shard[COZ_SHARDS];
};
struct coz_point_desc {
  const char *name;
  uint32_t kind;
  uint32_t flags;
  struct coz_counter *counter;
  const char *site;
};
struct coz_module_desc {
  uint32_t abi_version;
  uint32_t n_points;
  const struct coz_point_desc *points;
  uint32_t n_files;
  uint32_t flags;
  const char *const *files;
};

#define MAX_MODULES 64
static const struct coz_module_desc *modules[MAX_MODULES];
static int n_modules;

static int seen_before(int m, uint32_t p) {
  const struct coz_counter *c = modules[m]->points[p].counter;
  for (int i = 0; i <= m; i++)
    for (uint32_t j = 0; j < modules[i]->n_points; j++) {
      if (i == m && j == p)
        return 0;
      if (modules[i]->points[j].counter == c)
        return 1;
    }
  return 0;
}

static void report(void) {
  for (int m = 0; m < n_modules; m++) {
    const struct coz_module_desc *d = modules[m];
    printf("coz-module abi=%u points=%u files=%u\n", d->abi_version,
           d->n_points, d->n_files);
    for (uint32_t f = 0; f < d->n_files; f++)
      printf("coz-file %s\n", d->files[f]);
    for (uint32_t p = 0; p < d->n_points; p++) {
      const struct coz_point_desc *pt = &d->points[p];
      if (seen_before(m, p))
        continue; /* a counter shared through its linkonce_odr symbol */
      uint64_t total = 0;
      for (int s = 0; s < COZ_SHARDS; s++)
        total += pt->counter->shard[s].value;
      printf("coz-point kind=%u flags=%u name=%s total=%llu site=%s\n",
             pt->kind, pt->flags, pt->name, (unsigned long long)total,
             pt->site ? pt->site : "(none)");
    }
  }
}

void __coz_register_module(const struct coz_module_desc *desc) {
  if (n_modules == 0)
    atexit(report);
  if (n_modules < MAX_MODULES)
    modules[n_modules++] = desc;
}
