/* suggest.c: ranks candidate progress points (suggest.h). The runtime's
 * exit summary names its run's best by the same rule
 * (runtime/candidates.c). */
#include "suggest.h"
#include "source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct sums {
  double n, sum, sumsq;
};

static void add(struct sums *s, double v) {
  s->n += 1;
  s->sum += v;
  s->sumsq += v * v;
}

static double spread_of(const struct sums *s) {
  if (s->n < 2 || s->sum <= 0)
    return 0;
  double mean = s->sum / s->n;
  double var = (s->sumsq - s->n * mean * mean) / (s->n - 1);
  return var > 0 ? sqrt(var) / mean : 0;
}

struct acc {
  struct sums all, baseline;
  double visits, ns; /* over the experiments that carried it */
};

/* A file path as a slice of a "file:line" name. */
struct path {
  const char *s;
  size_t len;
};

static struct path path_of(const char *name) {
  size_t len;
  cr_location_split(name, &len);
  return (struct path){name, len};
}

/* Whether f ends with the whole trailing components s[0..n). */
static int ends_with(struct path f, const char *s, size_t n) {
  return f.len >= n && memcmp(f.s + f.len - n, s, n) == 0 &&
         (f.len == n || f.s[f.len - n - 1] == '/');
}

/* The shortest trailing part of the candidate's file that names no other
 * file of the profile: what --coz-progress=FILE matches. */
static char *option_for(const struct cr_profile *p, const char *name) {
  struct path me = path_of(name);
  size_t from = 0;
  for (size_t cut = me.len; cut > 0; cut--) {
    if (me.s[cut - 1] != '/')
      continue;
    const char *s = me.s + cut;
    size_t n = me.len - cut;
    int unique = 1;
    for (size_t i = 0; i < p->n_lines + p->n_points && unique; i++) {
      struct path f = path_of(i < p->n_lines ? p->lines[i].name
                                             : p->points[i - p->n_lines].name);
      int same = f.len == me.len && memcmp(f.s, me.s, me.len) == 0;
      unique = same || !ends_with(f, s, n);
    }
    if (unique) {
      from = cut;
      break;
    }
  }
  const char *rest = name + from;
  size_t len = strlen("--coz-progress=") + strlen(rest) + 1;
  char *opt = malloc(len);
  if (opt)
    snprintf(opt, len, "--coz-progress=%s", rest);
  return opt;
}

static void finish(const struct cr_profile *p, const struct acc *a,
                   struct cr_candidate *c) {
  const struct cr_point *pt = &p->points[c->point];
  c->visits = pt->visits;
  if (pt->has_visits && p->has_runtime && p->runtime_ns > 0)
    c->per_s = (double)pt->visits * 1e9 / p->runtime_ns;
  else
    c->per_s = a->ns > 0 ? a->visits * 1e9 / a->ns : NAN;
  c->visits_per_exp = c->experiments ? a->visits / (double)c->experiments : 0;
  c->spread = spread_of(a->baseline.n >= 3 ? &a->baseline : &a->all);
  c->noise = c->advanced && c->visits_per_exp > 0
                 ? sqrt(c->spread * c->spread + 1 / c->visits_per_exp)
                 : INFINITY;
}

static int cmp_candidate(const void *x, const void *y) {
  const struct cr_candidate *a = x, *b = y;
  if (a->noise != b->noise)
    return a->noise < b->noise ? -1 : 1;
  double ra = isnan(a->per_s) ? -1 : a->per_s,
         rb = isnan(b->per_s) ? -1 : b->per_s;
  if (ra != rb)
    return ra > rb ? -1 : 1;
  return a->point < b->point ? -1 : a->point > b->point;
}

int cr_suggest(const struct cr_profile *p, struct cr_suggestions *out) {
  memset(out, 0, sizeof *out);
  size_t np = p->n_points ? p->n_points : 1;
  long *slot = malloc(np * sizeof *slot);
  struct acc *acc = calloc(np, sizeof *acc);
  out->c = calloc(np, sizeof *out->c);
  if (!slot || !acc || !out->c)
    goto fail;
  for (size_t i = 0; i < p->n_points; i++) {
    slot[i] = -1;
    if (!p->points[i].candidate) {
      out->real_points++;
      continue;
    }
    slot[i] = (long)out->n;
    out->c[out->n++].point = (uint32_t)i;
  }
  /* Steadiness is judged per sample of the program's work when the
   * profile has samples (runtime/candidates.c states why): experiments
   * without any say nothing then. */
  int per_sample = 0;
  for (size_t e = 0; e < p->n_experiments && !per_sample; e++)
    per_sample = p->experiments[e].samples_after > 0;
  for (size_t e = 0; e < p->n_experiments; e++) {
    const struct cr_experiment *x = &p->experiments[e];
    if (x->duration <= 0 || (per_sample && x->samples_after == 0))
      continue;
    for (size_t k = x->first_obs; k < x->first_obs + x->n_obs; k++) {
      const struct cr_obs *ob = &p->obs[k];
      if (slot[ob->point] < 0)
        continue;
      struct cr_candidate *c = &out->c[slot[ob->point]];
      struct acc *a = &acc[slot[ob->point]];
      double rate = per_sample ? (double)ob->delta / (double)x->samples_after
                               : (double)ob->delta * 1e9 / x->duration;
      c->experiments++;
      c->advanced += ob->delta > 0;
      a->visits += (double)ob->delta;
      a->ns += x->duration;
      add(&a->all, rate);
      if (x->speedup == 0)
        add(&a->baseline, rate);
    }
  }
  for (size_t i = 0; i < out->n; i++) {
    finish(p, &acc[i], &out->c[i]);
    out->c[i].option = option_for(p, p->points[out->c[i].point].name);
    if (!out->c[i].option)
      goto fail;
  }
  qsort(out->c, out->n, sizeof *out->c, cmp_candidate);
  free(slot);
  free(acc);
  return 0;
fail:
  free(slot);
  free(acc);
  cr_suggestions_free(out);
  return -1;
}

void cr_suggestions_free(struct cr_suggestions *s) {
  for (size_t i = 0; s->c && i < s->n; i++)
    free(s->c[i].option);
  free(s->c);
  memset(s, 0, sizeof *s);
}
