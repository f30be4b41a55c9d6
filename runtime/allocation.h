/* allocation.h: where a run spends its experiments (issue 22).
 *
 * Coz's method picks an experiment's line where the next sample lands (in
 * proportion to the time spent there) and its speedup at random. That
 * stays: line and speedup must not correlate with the program's phases.
 * What this adds, from the profile so far (the records of earlier runs in
 * COZ_OUTPUT whose lines this program has, then each experiment of this
 * run):
 *   - a line whose slope cannot reach the top COZ_TOP (it and its
 *     interval lie below the others') is run only 1 time in 5 when it is
 *     drawn, so the undecided lines get the time;
 *   - speedup 0 is drawn with probability 1/5 once the run's baselines
 *     have a start (every speedup-0 experiment is a baseline of every line:
 *     coz-report pools them), 1/2 before;
 *   - a nonzero speedup is, half of the time, one of the line's least tried
 *     so far (a line needs several distinct speedups to be plotted), else
 *     uniform over 5..100%.
 * All of it runs on the profiler thread (it allocates). */
#ifndef COZ_ALLOCATION_H
#define COZ_ALLOCATION_H

#include <stdbool.h>
#include <stdint.h>

struct coz_line;

/* Reads the profile so far, once, for the progress point named `point`
 * (the throughput point whose visits measure the program; NULL: none, and
 * the allocation stays Coz's). `random` is the profiler's generator. */
void coz_alloc_init(const char *point, uint64_t (*random)(void));
/* Whether to run an experiment on `line`, just drawn by a sample. */
bool coz_alloc_accept(struct coz_line *line);
/* The speedup (percent) of an experiment on `line`. */
int coz_alloc_speedup(struct coz_line *line);
/* What an experiment measured: its effective duration (ns) and the visits
 * of the point given to coz_alloc_init. */
void coz_alloc_record(struct coz_line *line, int speedup_pct,
                      double duration_ns, uint64_t visits);

#endif /* COZ_ALLOCATION_H */
