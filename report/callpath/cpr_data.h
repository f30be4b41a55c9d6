/* cpr_data.h: what a call-path profile file holds, in memory: the
 * resources, the sampled stacks and the functions on them. The types only:
 * cpr_read.c fills them, the profiles and renderings read them. */
#ifndef COZ_REPORT_CPR_DATA_H
#define COZ_REPORT_CPR_DATA_H

#include <stddef.h>
#include <stdint.h>

struct cpr_resource {
  char *name, *unit;
  uint64_t period; /* of the first run that used it */
  uint64_t samples, total, dropped;
};

struct cpr_stack {
  size_t resource;
  uint64_t samples, weight;
  size_t n;
  unsigned *fn; /* function ids, root (outermost) first */
};

struct cpr_data {
  struct cpr_resource *res;
  size_t n_res;
  struct cpr_stack *stacks;
  size_t n_stacks, cap_stacks;
  char **names;   /* function names by id, as the file holds them */
  char **display; /* by id: the demangled name, NULL if not mangled */
  size_t n_names, cap_names;
  void *name_index;
  size_t bad_lines;
};

#endif /* COZ_REPORT_CPR_DATA_H */
