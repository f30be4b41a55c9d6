/* suggest.h: candidate progress points ranked (`coz-report suggest`).
 *
 * A program built with coz-cc that has no progress point of its own
 * records the readings of candidate points instead (docs/design.md,
 * "Candidate progress points"): each is a FILE:LINE the pass picked from
 * the program's structure, counted as --coz-progress=FILE:LINE would count
 * it. The best progress point is the one whose rate relative to the work
 * done is steadiest from one experiment to the next, since a causal
 * profile measures changes of that rate; a rarely visited point is useless
 * however regular it is, and so is a timer's tick, steady in time whatever
 * the program does.
 */
#ifndef COZ_REPORT_SUGGEST_H
#define COZ_REPORT_SUGGEST_H

#include "profile.h"

struct cr_candidate {
  uint32_t point;        /* index into profile.points */
  char *option;          /* "--coz-progress=FILE:LINE", ready to paste */
  uint64_t visits;       /* whole-run totals, summed over runs */
  double per_s;          /* visits per second over the runs; NAN unknown */
  size_t experiments;    /* experiments that carried its reading */
  size_t advanced;       /* ... in which it advanced */
  double visits_per_exp; /* mean visits per such experiment */
  /* Coefficient of variation of its visits per sample of the program's
   * work (per second in a profile without samples) over the speedup-0
   * experiments, or over all when fewer than 3 have speedup 0. */
  double spread;
  /* sqrt(spread^2 + 1 / visits_per_exp): its rate's noise from one
   * experiment to the next, counting noise included; INFINITY when it
   * never advanced. The ranking key, lowest first. */
  double noise;
};

struct cr_suggestions {
  struct cr_candidate *c; /* best first */
  size_t n;
  size_t real_points; /* points of the program's own in the profile */
};

/* Ranks the profile's candidates. Returns 0, -1 on out of memory. */
int cr_suggest(const struct cr_profile *p, struct cr_suggestions *out);
void cr_suggestions_free(struct cr_suggestions *s);

#endif /* COZ_REPORT_SUGGEST_H */
