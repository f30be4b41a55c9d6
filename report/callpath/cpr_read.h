/* cpr_read.h: what the runtime's profile.callpath holds (docs/callpath.md),
 * read: the resources, the sampled stacks and the functions on them. */
#ifndef COZ_REPORT_CPR_READ_H
#define COZ_REPORT_CPR_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Reads one file into d (several files accumulate). Returns 0, or -1 with
 * one line on stderr when the file cannot be read. Malformed lines are
 * counted in bad_lines and reported once per file. */
int cpr_read_file(struct cpr_data *d, const char *path);
void cpr_free(struct cpr_data *d);
/* Index of a resource by name, or -1. */
long cpr_find_resource(const struct cpr_data *d, const char *name);
/* Function id by name, or -1. */
long cpr_find_function(const struct cpr_data *d, const char *name);

#endif /* COZ_REPORT_CPR_READ_H */
