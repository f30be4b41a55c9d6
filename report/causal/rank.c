/* rank.c: orders rows by one of the rankings. */
#include "rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const sort_names[CR_SORT_N] = {"lower", "slope", "max",
                                                  "min"};

const char *cr_sort_name(enum cr_sort s) { return sort_names[s]; }

const char *cr_sort_label(enum cr_sort s) {
  static const char *const labels[CR_SORT_N] = {"conservative slope", "slope",
                                                "max speedup", "min speedup"};
  return labels[s];
}

int cr_sort_parse(const char *s, enum cr_sort *out) {
  for (int i = 0; i < CR_SORT_N; i++)
    if (strcmp(s, sort_names[i]) == 0) {
      *out = (enum cr_sort)i;
      return 0;
    }
  return -1;
}

/* qsort has no context argument; ranking is not reentrant-critical. */
static const struct cr_profile *rank_profile;
static enum cr_sort rank_sort;

/* The conservative slope: a line measured in a handful of experiments can
 * show the largest slope by chance, with an interval ten times as wide as
 * a well-measured one's (leveldb, docs/results.md); its lower end puts the
 * line that is surely steep first. The slope's standard error is analytic
 * (cr_fit_slope_se), not the bootstrap's interval, so that the answer's
 * prefixes, ranked without a bootstrap, rank by the same key. */
#define Z95 1.959964

double cr_sort_key(const struct cr_row *r, enum cr_sort s) {
  switch (s) {
  case CR_SORT_LOWER:
    return r->slope - Z95 * r->slope_se;
  case CR_SORT_MAX:
    return r->max;
  case CR_SORT_MIN:
    return r->min;
  default:
    return r->slope;
  }
}

static double key(const struct cr_row *r) {
  double k = cr_sort_key(r, rank_sort);
  return rank_sort == CR_SORT_MIN ? -k : k; /* most negative minimum first */
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
