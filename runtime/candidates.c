/* candidates.c: see candidates.h. */
#include "candidates.h"
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sums over experiments of one candidate's visits per sample of the
 * program's work (the steadiness measure; coz-report suggest uses the same
 * rule, report/causal/suggest.c), and of its visits and time (the rate
 * shown). */
struct rate_sums {
  double n, sum, sumsq;
  double visits, ns;
};

struct stats {
  struct rate_sums baseline, all;
};

static struct stats *stats;
static size_t n_stats;

static void add(struct rate_sums *s, double rate, uint64_t delta, uint64_t ns) {
  s->n += 1;
  s->sum += rate;
  s->sumsq += rate * rate;
  s->visits += (double)delta;
  s->ns += (double)ns;
}

void coz_candidates_observe(size_t point, uint64_t delta, uint64_t duration_ns,
                            uint64_t samples, bool baseline) {
  /* Per sample, not per second: a point that counts work keeps its ratio
   * to the work when a server's load comes and goes, while a timer's tick
   * (steady per second, deaf to any speedup) does not. An experiment
   * without work says nothing. */
  if (duration_ns == 0 || samples == 0)
    return;
  if (point >= n_stats) {
    size_t n = point + 16;
    struct stats *v = realloc(stats, n * sizeof *v);
    if (!v)
      return;
    memset(v + n_stats, 0, (n - n_stats) * sizeof *v);
    stats = v;
    n_stats = n;
  }
  double rate = (double)delta / (double)samples;
  add(&stats[point].all, rate, delta, duration_ns);
  if (baseline)
    add(&stats[point].baseline, rate, delta, duration_ns);
}

/* noise^2 = cv^2 + 1 / (visits per experiment); INFINITY when the
 * candidate never advanced. */
static double noise2(const struct stats *s, double *cv) {
  const struct rate_sums *r = s->baseline.n >= 3 ? &s->baseline : &s->all;
  if (s->all.visits <= 0)
    return INFINITY;
  double mean = r->sum / r->n;
  double var = r->n > 1 ? (r->sumsq - r->n * mean * mean) / (r->n - 1) : 0;
  double cv2 = var > 0 && mean > 0 ? var / (mean * mean) : 0;
  *cv = sqrt(cv2);
  return cv2 + s->all.n / s->all.visits;
}

/* Whether path ends with the whole trailing components `suffix`. */
static bool ends_with(const char *path, const char *suffix) {
  size_t lp = strlen(path), ls = strlen(suffix);
  return lp >= ls && strcmp(path + lp - ls, suffix) == 0 &&
         (lp == ls || path[lp - ls - 1] == '/');
}

/* The shortest trailing part of `path` that names no other instrumented
 * file: what --coz-progress=FILE matches (by whole trailing components). */
static const char *short_file(const char *path) {
  size_t n = 0;
  const char **files = coz_progress_files(0, &n);
  const char *best = path;
  for (const char *s = path + strlen(path); s > path; s--) {
    if (s[-1] != '/')
      continue;
    bool unique = true;
    for (size_t i = 0; i < n && unique; i++)
      unique = strcmp(files[i], path) == 0 || !ends_with(files[i], s);
    if (unique) {
      best = s;
      break;
    }
  }
  free(files);
  return best;
}

bool coz_candidates_best(struct coz_candidate_best *out) {
  memset(out, 0, sizeof *out);
  size_t best = n_stats;
  double best_noise = INFINITY, best_cv = 0;
  for (size_t i = 0; i < n_stats; i++) {
    double cv = 0, n2 = noise2(&stats[i], &cv);
    if (!isfinite(n2))
      continue;
    out->candidates++;
    if (n2 < best_noise) {
      best = i;
      best_noise = n2;
      best_cv = cv;
    }
  }
  if (best == n_stats)
    return false;
  /* The name is the site, "/abs/file:line" (llvm-pass/Candidates.cpp). */
  const char *name = coz_progress_name(best);
  const char *colon = strrchr(name, ':');
  if (!colon)
    return false;
  char path[400];
  snprintf(path, sizeof path, "%.*s", (int)(colon - name), name);
  snprintf(out->option, sizeof out->option, "--coz-progress=%s%s",
           short_file(path), colon);
  const struct rate_sums *all = &stats[best].all;
  out->per_s = all->ns > 0 ? all->visits * 1e9 / all->ns : 0;
  out->spread = best_cv;
  return true;
}
