/* records.h: the profile's records (contract 5), built with output.h. */
#ifndef COZ_RECORDS_H
#define COZ_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_line;
struct coz_point_reading;

/* What an experiment measured, for its record. */
struct coz_experiment_result {
  const char *selected; /* line name */
  int speedup_pct;
  uint64_t duration_ns; /* effective: elapsed minus inserted delay */
  /* Its wall-clock span, unix ns: when it began and ended, delays
   * included, so that its window can be matched with what the program
   * logs. */
  uint64_t start_unix_ns, end_unix_ns;
  uint64_t selected_samples;
  uint64_t samples; /* in-scope samples of every line: the work done */
  size_t n_points;
  const struct coz_point_reading *start, *end; /* per point */
  /* Per point: the sum of `snapshots` readings of begins - ends taken
   * during the experiment (latency points), or NULL. */
  const double *in_flight_sum;
  uint64_t snapshots;
};

/* Builds the startup record; it is written with the first experiment
 * record, and never if there is none. */
void coz_record_startup(void);
/* The experiment and its point lines, in one write(). Returns the smallest
 * visit count of the points that have ever been visited (UINT64_MAX if
 * none), which drives the doubling of the experiment length; with only
 * candidate points (abi.h), the largest count of a candidate, and nothing
 * is written until a candidate has been reached. */
uint64_t coz_record_experiment(const struct coz_experiment_result *r);
/* `samples` deltas of every line (when with_lines: the line map is built
 * and no other thread uses it) and the `runtime time=` delta. */
void coz_record_deltas(bool with_lines);
/* At exit: the last deltas, whole-run totals of every point and the
 * shutdown record; if no experiment was written, only when a point (not a
 * candidate) was reached. with_lines as for coz_record_deltas. */
void coz_record_final(bool with_lines);
/* Whether any progress point (not a candidate) was ever visited (exit
 * message). */
int coz_records_any_progress(void);
/* Whether the profile has been written to (exit message). */
int coz_records_started(void);

#endif /* COZ_RECORDS_H */
