/* candidates.h: what the candidate progress points (abi.h) measured in this
 * run, for the exit summary's suggestion. records.c feeds the readings of
 * the experiments it writes; exit_message.c asks for the best. Profiler
 * thread only, or at exit once it has stopped. */
#ifndef COZ_CANDIDATES_H
#define COZ_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One experiment's reading of candidate point i (progress.h's index):
 * delta visits in duration_ns, while the program took `samples` in-scope
 * samples (its work). */
void coz_candidates_observe(size_t point, uint64_t delta, uint64_t duration_ns,
                            uint64_t samples, bool baseline);

struct coz_candidate_best {
  char option[512];  /* --coz-progress=FILE:LINE, ready to paste */
  double per_s;      /* visits per second of experiment */
  double spread;     /* coefficient of variation of its rate over experiments */
  size_t candidates; /* candidates that advanced in some experiment */
};

/* The steadiest candidate: the lowest noise sqrt(cv^2 + 1/visits per
 * experiment), where cv is the spread of its visit rate over the speedup-0
 * experiments (over all experiments when fewer than 3 have speedup 0) and
 * the second term the counting noise that makes a rarely visited point
 * useless however regular it is (coz-report suggest ranks by the same
 * rule). FILE is the shortest trailing part of the path that no other
 * instrumented file ends with. False when no candidate advanced. */
bool coz_candidates_best(struct coz_candidate_best *out);

#endif /* COZ_CANDIDATES_H */
