/* profile.h: the records of one or more causal profiles, merged.
 *
 * Reads our profiles (docs/design.md, contract 5) and Coz's, in both of
 * Coz's formats: tab-separated `type<TAB>key=value...` lines and JSON lines
 * (a line starting with '{', same keys plus "type"). Every run in every file
 * is merged: experiments are kept one by one (the bootstrap resamples them),
 * `samples` and `runtime time=` deltas are summed.
 */
#ifndef COZ_REPORT_PROFILE_H
#define COZ_REPORT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The profile a program built with coz-cc writes by default, read when no
 * file is named. */
#define CR_DEFAULT_PROFILE "profile.coz"

enum cr_point_kind { CR_THROUGHPUT = 0, CR_LATENCY = 1 };

/* One progress point's numbers in one experiment. */
struct cr_obs {
  uint32_t point;    /* index into profile.points */
  uint64_t delta;    /* throughput: visits during the experiment */
  uint64_t arrivals; /* latency: begins during the experiment */
  uint64_t departures;
  double difference; /* latency: transactions in flight at the end */
};

struct cr_experiment {
  uint32_t line;             /* index into profile.lines (the selected line) */
  int speedup;               /* virtual speedup in permille, 0..1000 */
  double duration;           /* effective duration, ns */
  uint64_t selected_samples; /* samples in the selected line (0 if absent) */
  int has_selected_samples;
  /* The `samples` counts written after it in its run, up to the next
   * experiment: every line's samples of its time (the work done in it). */
  uint64_t samples_after;
  size_t first_obs, n_obs; /* slice of profile.obs */
};

/* A source line: selected by experiments and/or named by `samples`. */
struct cr_line {
  char *name;       /* "file:line" as written in the profile */
  uint64_t samples; /* sum of `samples count=` for this location */
  int has_samples;
};

struct cr_point {
  char *name;
  enum cr_point_kind kind;
  uint64_t visits; /* `runtime point=` totals (ours only), summed */
  int has_visits;
  /* A candidate progress point (candidate=1: marked by the pass, recorded
   * by a program without points of its own); the analysis leaves it out
   * unless --point names it (coz-report suggest). */
  int candidate;
};

/* A string -> index table (open addressing) for lines and points. */
struct cr_intern {
  uint32_t *slots; /* index + 1, 0 = empty */
  size_t n_slots;
};

struct cr_profile {
  struct cr_line *lines;
  size_t n_lines, cap_lines;
  struct cr_intern line_index;
  struct cr_point *points;
  size_t n_points, cap_points;
  struct cr_intern point_index;
  struct cr_experiment *experiments;
  size_t n_experiments, cap_experiments;
  struct cr_obs *obs;
  size_t n_obs, cap_obs;
  double runtime_ns; /* sum of `runtime time=` */
  int has_runtime;
  unsigned runs; /* `startup` records seen */
  unsigned files_with_experiments;
  size_t records;   /* well-formed records */
  size_t malformed; /* malformed records (reported and skipped) */
  unsigned files_read;
};

/* Where parse errors go; `max_messages` per input, then one summary line. */
struct cr_diag {
  FILE *out; /* NULL: count only */
  unsigned max_messages;
};

#endif /* COZ_REPORT_PROFILE_H */
