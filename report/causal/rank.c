/* rank.c: orders rows by one of the three rankings. */
#include "rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const sort_names[] = {"slope", "max", "min"};

const char *cr_sort_name(enum cr_sort s) { return sort_names[s]; }

int cr_sort_parse(const char *s, enum cr_sort *out) {
  for (int i = 0; i < 3; i++)
    if (strcmp(s, sort_names[i]) == 0) {
      *out = (enum cr_sort)i;
      return 0;
    }
  return -1;
}

/* qsort has no context argument; ranking is not reentrant-critical. */
static const struct cr_profile *rank_profile;
static enum cr_sort rank_sort;

static double key(const struct cr_row *r) {
  switch (rank_sort) {
  case CR_SORT_MAX:
    return r->max;
  case CR_SORT_MIN:
    return -r->min; /* most negative minimum first */
  default:
    return r->slope;
  }
}

static int cmp_row(const void *a, const void *b) {
  const struct cr_row *x = a, *y = b;
  double kx = key(x), ky = key(y);
  /* Undefined keys (a single point has no slope) go last. */
  if (isnan(kx) != isnan(ky))
    return isnan(kx) ? 1 : -1;
  if (!isnan(kx) && kx != ky)
    return kx > ky ? -1 : 1;
  int c = strcmp(rank_profile->lines[x->line].name,
                 rank_profile->lines[y->line].name);
  if (c)
    return c;
  c = strcmp(rank_profile->points[x->point].name,
             rank_profile->points[y->point].name);
  if (c)
    return c;
  return (int)x->kind - (int)y->kind;
}

void cr_rank(struct cr_row *rows, size_t n, enum cr_sort sort,
             const struct cr_profile *p) {
  if (n < 2)
    return; /* and qsort must not see a NULL array */
  rank_profile = p;
  rank_sort = sort;
  qsort(rows, n, sizeof *rows, cmp_row);
}
