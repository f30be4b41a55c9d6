/* guidance.c: when nothing can be plotted, say exactly why and what to do.
 *
 * Empty profiles are the most common complaint about Coz, so each reason
 * gets its own message, and the two that more runs can fix (no baseline,
 * too few speedups) come with an estimate of how many more runs it takes.
 */
#include "guidance.h"
#include "profile_store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Coz's runtime draws speedup 0 with probability 1/2, otherwise one of the
 * 20 steps 5%..100% uniformly. coz-cc's draws 0 less often once it has
 * baselines and favours a line's untried speedups (runtime/allocation.h),
 * so for its profiles the estimate below is an upper bound. */
#define GRID 20

/* Expected experiments on one line until `need` new nonzero speedups appear
 * when `have` are already known (coupon collector, halved by the 1/2 chance
 * of a nonzero draw). Negative when the grid cannot provide them. */
static double experiments_for(size_t have, size_t need) {
  if (have + need > GRID)
    return -1;
  double e = 0;
  for (size_t j = have; j < have + need; j++)
    e += (double)GRID / (double)(GRID - j);
  return 2 * e;
}

/* The dropped row with `drop` closest to plottable, or NULL. */
static const struct cr_row *best_row(const struct cr_result *r,
                                     enum cr_drop drop) {
  const struct cr_row *best = NULL;
  for (size_t i = 0; i < r->n_dropped; i++) {
    const struct cr_row *x = &r->dropped[i];
    if (x->drop != drop)
      continue;
    if (!best || x->n_valid > best->n_valid ||
        (x->n_valid == best->n_valid && x->n_obs > best->n_obs))
      best = x;
  }
  return best;
}

static long runs_for(double experiments, const struct cr_row *row,
                     unsigned runs) {
  if (experiments < 0 || row->n_obs == 0)
    return -1;
  double per_run = (double)row->n_obs / (double)(runs ? runs : 1);
  double n = ceil(experiments / per_run);
  return n < 1 ? 1 : n > 1e6 ? 1000000 : (long)n;
}

static void explain_more_runs(const struct cr_profile *p,
                              const struct cr_options *o, struct cr_result *r,
                              const struct cr_row *row, int has_baseline) {
  struct cr_guidance *g = &r->guidance;
  size_t nonzero = row->n_valid - (has_baseline ? 1 : 0);
  size_t want = o->min_points > 1 ? o->min_points - 1 : 0;
  size_t need = want > nonzero ? want - nonzero : 0;
  double e = experiments_for(nonzero, need);
  if (!has_baseline && e >= 0 && e < 2)
    e = 2; /* a baseline takes two experiments on average */
  g->more_runs = runs_for(e, row, r->runs);
  char tail[256];
  if (g->more_runs < 0)
    snprintf(tail, sizeof tail,
             "--min-points %u cannot be reached with the runtime's 20 "
             "speedup steps; lower it",
             o->min_points);
  else
    snprintf(tail, sizeof tail,
             "about %ld more run%s of the same length (each run appends to "
             "the profile) should be enough; or lower --min-points",
             g->more_runs, g->more_runs == 1 ? "" : "s");
  const char *line = p->lines[row->line].name;
  if (!has_baseline)
    snprintf(g->message, sizeof g->message,
             "nothing to plot: no line has a baseline (an experiment with "
             "speedup 0) to compare with; the closest, %s, has %zu "
             "experiment%s in %u run%s; %s",
             line, row->n_obs, row->n_obs == 1 ? "" : "s", r->runs,
             r->runs == 1 ? "" : "s", tail);
  else
    snprintf(g->message, sizeof g->message,
             "nothing to plot: too few speedups were tried; the closest "
             "line, %s, has %zu distinct speedup%s (the baseline included) "
             "where %u are needed, from %zu experiment%s in %u run%s; %s",
             line, row->n_valid, row->n_valid == 1 ? "" : "s", o->min_points,
             row->n_obs, row->n_obs == 1 ? "" : "s", r->runs,
             r->runs == 1 ? "" : "s", tail);
}

static void explain_no_progress(const struct cr_profile *p,
                                struct cr_guidance *g) {
  g->reason = CR_G_NO_PROGRESS;
  const struct cr_point *seen = NULL;
  for (size_t i = 0; i < p->n_points; i++)
    if (p->points[i].visits && (!seen || p->points[i].visits > seen->visits))
      seen = &p->points[i];
  if (seen)
    snprintf(g->message, sizeof g->message,
             "nothing to plot: no progress point advanced during any "
             "experiment, although '%.200s' was visited %llu times in "
             "total; run the program longer (experiments need visits while "
             "they run) or move the point into the loop doing the work",
             seen->name, (unsigned long long)seen->visits);
  else
    snprintf(g->message, sizeof g->message,
             "nothing to plot: no progress point was reached during any "
             "experiment; put COZ_PROGRESS (or COZ_BEGIN/COZ_END) on a line "
             "that runs repeatedly while the program works, or pass "
             "--coz-progress=FILE:LINE to coz-cc, then run it again");
}

/* True when the profile's points are all candidates (a program without a
 * progress point of its own), and says so with what to do. */
static int explain_only_candidates(const struct cr_profile *p,
                                   struct cr_guidance *g) {
  size_t candidates = 0;
  for (size_t i = 0; i < p->n_points; i++) {
    if (!p->points[i].candidate)
      return 0;
    candidates++;
  }
  if (candidates == 0)
    return 0;
  g->reason = CR_G_ONLY_CANDIDATES;
  snprintf(g->message, sizeof g->message,
           "nothing to plot: no progress point; the program has none, and "
           "the runtime recorded %zu candidate point%s in its place: run "
           "`coz-report suggest` to pick one, then rebuild with its "
           "--coz-progress=FILE:LINE",
           candidates, candidates == 1 ? "" : "s");
  return 1;
}

void cr_guidance_explain(const struct cr_profile *p, const struct cr_options *o,
                         struct cr_result *r) {
  struct cr_guidance *g = &r->guidance;
  g->more_runs = -1;
  if (p->files_read == 0) {
    g->reason = CR_G_NO_INPUT;
    snprintf(g->message, sizeof g->message,
             "nothing to plot: no profile could be read; run the program "
             "built with coz-cc (it writes " CR_DEFAULT_PROFILE
             ") or name the file");
    return;
  }
  if (p->n_experiments == 0) {
    g->reason = CR_G_NO_EXPERIMENTS;
    snprintf(g->message, sizeof g->message,
             "nothing to plot: the profile holds no experiment; the program "
             "ended before an experiment finished: run it longer, on a "
             "bigger input, or several times (each run appends)");
    return;
  }
  if (o->point && cr_profile_find_point(p, o->point) < 0) {
    g->reason = CR_G_NO_SUCH_POINT;
    int n = snprintf(g->message, sizeof g->message,
                     "nothing to plot: no progress point is named '%.200s'; "
                     "the profile has:",
                     o->point);
    for (size_t i = 0;
         i < p->n_points && n > 0 && (size_t)n < sizeof g->message - 210; i++)
      n += snprintf(g->message + n, sizeof g->message - (size_t)n, " '%.200s'",
                    p->points[i].name);
    if (p->n_points == 0 && n > 0 && (size_t)n < sizeof g->message - 8)
      snprintf(g->message + n, sizeof g->message - (size_t)n, " none");
    return;
  }
  if (!o->point && explain_only_candidates(p, g))
    return;
  const struct cr_row *few = best_row(r, CR_TOO_FEW);
  const struct cr_row *nobase = best_row(r, CR_NO_BASELINE);
  if (few) {
    g->reason = CR_G_TOO_FEW;
    explain_more_runs(p, o, r, few, 1);
  } else if (nobase) {
    g->reason = CR_G_NO_BASELINE;
    explain_more_runs(p, o, r, nobase, 0);
  } else {
    explain_no_progress(p, g);
  }
}
