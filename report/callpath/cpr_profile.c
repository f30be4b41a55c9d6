/* cpr_profile.c: function, downward and upward call-path profiles
 * (the seed paper's sections 4.2-4.4 and its appendix), computed from the
 * stack samples directly rather than from a sample tree: the result is the
 * same, and each sample's paths are easy to credit exactly once.
 *
 * Downward, root F: each sample whose stack holds F starts at F's outermost
 * occurrence. The path grows one callee at a time; the path credited for a
 * frame is the canonical path of its caller plus the frame's function, and
 * the canonical path then drops back to the earlier occurrence of that
 * function if it already appeared (the appendix's Canonicalize-name), so
 * recursion folds instead of producing ever longer paths. Every distinct
 * path is credited once per sample (the appendix's lock bit).
 * Upward, root F: the mirror image, from F's innermost occurrence outwards.
 * Function profile: every function on the stack, once per sample. */
#include "cpr_profile.h"
#include "cpr_names.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct path_entry {
  unsigned *path;
  size_t n;
  uint64_t samples, weight;
  size_t stamp; /* last sample credited + 1 */
};

struct path_table {
  struct path_entry *e;
  size_t n, cap; /* open addressing; cap a power of two */
};

static uint64_t hash_path(const unsigned *p, size_t n) {
  uint64_t h = 1469598103934665603ull ^ n;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
    h ^= h >> 31;
  }
  return h;
}

static int grow(struct path_table *t) {
  size_t cap = t->cap ? 2 * t->cap : 1024;
  struct path_entry *e = calloc(cap, sizeof *e);
  if (!e)
    return -1;
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->e[i].path)
      continue;
    size_t k = hash_path(t->e[i].path, t->e[i].n) & (cap - 1);
    while (e[k].path)
      k = (k + 1) & (cap - 1);
    e[k] = t->e[i];
  }
  free(t->e);
  t->e = e;
  t->cap = cap;
  return 0;
}

/* Credits (samples, weight) to path once for the sample `stamp`. */
static int credit(struct path_table *t, const unsigned *path, size_t n,
                  size_t stamp, const struct cpr_stack *s) {
  if (2 * (t->n + 1) > t->cap && grow(t) != 0)
    return -1;
  size_t k = hash_path(path, n) & (t->cap - 1);
  while (t->e[k].path &&
         !(t->e[k].n == n && memcmp(t->e[k].path, path, n * sizeof *path) == 0))
    k = (k + 1) & (t->cap - 1);
  struct path_entry *e = &t->e[k];
  if (!e->path) {
    e->path = malloc((n ? n : 1) * sizeof *path);
    if (!e->path)
      return -1;
    memcpy(e->path, path, n * sizeof *path);
    e->n = n;
    t->n++;
  }
  if (e->stamp == stamp + 1)
    return 0; /* this sample already counted here */
  e->stamp = stamp + 1;
  e->samples += s->samples;
  e->weight += s->weight;
  return 0;
}

/* One step along a stack from the root: credits the canonical path so far
 * extended by f, then makes that the canonical path, cutting a recursive
 * path back to f's earlier occurrence (so recursion counts once). */
static int extend(struct path_table *t, const struct cpr_stack *s, size_t stamp,
                  unsigned f, unsigned *cp, unsigned *canon, size_t *nc) {
  memcpy(cp, canon, *nc * sizeof *cp);
  cp[*nc] = f;
  if (credit(t, cp, *nc + 1, stamp, s) != 0)
    return -1;
  size_t k = 0;
  while (k < *nc && canon[k] != f)
    k++;
  if (k < *nc)
    *nc = k + 1; /* back to the earlier occurrence */
  else
    canon[(*nc)++] = f;
  return 0;
}

static int down(struct path_table *t, const struct cpr_stack *s, size_t stamp,
                unsigned root, unsigned *cp, unsigned *canon) {
  size_t i = 0;
  while (i < s->n && s->fn[i] != root)
    i++;
  if (i == s->n)
    return 0;
  size_t nc = 1;
  canon[0] = root;
  if (credit(t, canon, 1, stamp, s) != 0)
    return -1;
  for (size_t j = i + 1; j < s->n; j++) {
    if (extend(t, s, stamp, s->fn[j], cp, canon, &nc) != 0)
      return -1;
  }
  return 0;
}

static int up(struct path_table *t, const struct cpr_stack *s, size_t stamp,
              unsigned root, unsigned *cp, unsigned *canon) {
  /* Paths are built callee-first here and reversed when rows are made. */
  size_t i = s->n;
  while (i > 0 && s->fn[i - 1] != root)
    i--;
  if (i == 0)
    return 0;
  size_t nc = 1;
  canon[0] = root;
  if (credit(t, canon, 1, stamp, s) != 0)
    return -1;
  for (size_t j = i - 1; j-- > 0;) {
    if (extend(t, s, stamp, s->fn[j], cp, canon, &nc) != 0)
      return -1;
  }
  return 0;
}

static int functions(struct path_table *t, const struct cpr_stack *s,
                     size_t stamp) {
  for (size_t j = 0; j < s->n; j++)
    if (credit(t, &s->fn[j], 1, stamp, s) != 0)
      return -1;
  return 0;
}

static int by_weight(const void *a, const void *b) {
  const struct cpr_row *x = a, *y = b;
  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;
  if (x->n != y->n)
    return x->n < y->n ? -1 : 1;
  for (size_t i = 0; i < x->n; i++)
    if (x->path[i] != y->path[i])
      return x->path[i] < y->path[i] ? -1 : 1;
  return 0;
}

int cpr_profile(const struct cpr_data *d, size_t resource, enum cpr_kind kind,
                unsigned root, struct cpr_rows *out) {
  memset(out, 0, sizeof *out);
  struct path_table t = {0};
  size_t max_depth = 1;
  for (size_t i = 0; i < d->n_stacks; i++)
    if (d->stacks[i].n + 1 > max_depth)
      max_depth = d->stacks[i].n + 1;
  unsigned *cp = malloc(max_depth * sizeof *cp);
  unsigned *canon = malloc(max_depth * sizeof *canon);
  int rc = cp && canon ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < d->n_stacks; i++) {
    const struct cpr_stack *s = &d->stacks[i];
    if (s->resource != resource)
      continue;
    if (kind == CPR_FUNCTIONS)
      rc = functions(&t, s, i);
    else if (kind == CPR_BODY)
      rc = s->n ? credit(&t, &s->fn[s->n - 1], 1, i, s) : 0;
    else if (kind == CPR_DOWN)
      rc = down(&t, s, i, root, cp, canon);
    else
      rc = up(&t, s, i, root, cp, canon);
  }
  free(cp);
  free(canon);
  if (rc == 0 && t.n) {
    out->rows = calloc(t.n, sizeof *out->rows);
    if (!out->rows)
      rc = -1;
  }
  for (size_t i = 0; i < t.cap; i++) {
    struct path_entry *e = &t.e[i];
    if (!e->path)
      continue;
    if (rc != 0) {
      free(e->path);
      continue;
    }
    if (kind == CPR_UP) /* callee-first -> call order */
      for (size_t a = 0, b = e->n; a + 1 < b; a++, b--) {
        unsigned x = e->path[a];
        e->path[a] = e->path[b - 1];
        e->path[b - 1] = x;
      }
    out->rows[out->n++] =
        (struct cpr_row){e->path, e->n, e->samples, e->weight};
  }
  free(t.e);
  if (rc == 0)
    qsort(out->rows, out->n, sizeof *out->rows, by_weight);
  return rc;
}

void cpr_rows_free(struct cpr_rows *r) {
  for (size_t i = 0; i < r->n; i++)
    free(r->rows[i].path);
  free(r->rows);
  memset(r, 0, sizeof *r);
}

void cpr_print(FILE *f, const struct cpr_data *d, size_t resource,
               enum cpr_kind kind, const char *root,
               const struct cpr_rows *rows, double threshold) {
  const struct cpr_resource *r = &d->res[resource];
  static const char *const titles[] = {
      "Body+Descendants Function Profile", "Downward Call Path Profile",
      "Upward Call Path Profile", "Body Profile"};
  bool single = kind == CPR_FUNCTIONS || kind == CPR_BODY;
  fprintf(f, "%s for resource: %s", titles[kind], r->name);
  if (!single)
    fprintf(f, " (root %s)", root);
  fprintf(f, "\n%llu samples, %llu %s in all, sampled every %llu %s",
          (unsigned long long)r->samples, (unsigned long long)r->total, r->unit,
          (unsigned long long)r->period, r->unit);
  if (r->dropped)
    fprintf(f,
            " (%llu samples had no room in the table: their share is "
            "in no row)",
            (unsigned long long)r->dropped);
  fprintf(f,
          "\nformat: usage_fraction %s [#raw_samples]\n"
          "-----------------------------------------------------\n",
          single ? "function_name" : "(call_path)");
  size_t hidden = 0;
  for (size_t i = 0; i < rows->n; i++) {
    const struct cpr_row *row = &rows->rows[i];
    double frac = r->total ? (double)row->weight / (double)r->total : 0.0;
    if (frac < threshold) {
      hidden++;
      continue;
    }
    fprintf(f, "%.5f %s", frac, single ? "" : "(");
    for (size_t k = 0; k < row->n; k++)
      fprintf(f, "%s%s", k ? " " : "", cpr_name(d, row->path[k]));
    fprintf(f, "%s [%llu]\n", single ? "" : ")",
            (unsigned long long)row->samples);
  }
  fputs("-----------------------------------------------------\n", f);
  if (hidden)
    fprintf(f, "(%zu rows below the threshold %.4g hidden)\n", hidden,
            threshold);
}
