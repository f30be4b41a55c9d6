/* records.c: builds the profile's records (see records.h). All writers run
 * on the profiler thread, or at exit once the profiler thread has stopped. */
#include "records.h"
#include "candidates.h"
#include "linemap/linemap.h"
#include "output.h"
#include "progress.h"
#include "util.h"

#include <stdbool.h>
#include <unistd.h>

static uint64_t last_runtime_ns;
static bool any_progress;
/* The startup record waits here until the process has something to say:
 * a process that ran no experiment with a progress point to measure it
 * and reached no point (a build's helper programs) writes no profile. */
static struct coz_out startup;
static bool started;

int coz_records_any_progress(void) { return any_progress; }
int coz_records_started(void) { return started; }

/* Candidate points (abi.h) stand in for progress points while the program
 * has none of its own (coz_progress_recorded): the records then carry the
 * candidates, each line marked candidate=1, so that coz-report can say what
 * each would have given; once it has one, they carry only real points. */
static bool any_candidate_reached(const struct coz_experiment_result *r) {
  for (size_t i = 0; i < r->n_points; i++)
    if (coz_progress_is_candidate(i) && r->end[i].visits)
      return true;
  return false;
}

/* A candidate's line; its reading feeds the exit summary's suggestion. */
static void candidate_point(struct coz_out *o,
                            const struct coz_experiment_result *r, size_t i,
                            uint64_t delta) {
  coz_out_begin(o, "throughput-point");
  coz_out_str(o, "name", coz_progress_name(i));
  coz_out_u64(o, "delta", delta);
  coz_out_u64(o, "candidate", 1);
  coz_out_end(o);
  coz_candidates_observe(i, delta, r->duration_ns, r->samples,
                         r->speedup_pct == 0);
}

void coz_record_startup(void) {
  last_runtime_ns = coz_now_ns();
  coz_out_begin(&startup, "startup");
  coz_out_u64(&startup, "time", coz_unix_ns());
  coz_out_u64(&startup, "pid", (uint64_t)getpid());
  coz_out_end(&startup);
}

/* Starts the profile's block o with the startup record, the first time. */
static void begin_profile(struct coz_out *o) {
  if (started)
    return;
  started = true;
  if (startup.failed)
    o->failed = true;
  else if (startup.len)
    coz_out_raw(o, startup.buf, startup.len);
  coz_out_free(&startup);
}

uint64_t coz_record_experiment(const struct coz_experiment_result *r) {
  struct coz_out o = {0};
  uint64_t min_visits = UINT64_MAX, most_visits = 0;
  bool candidates = !coz_progress_has_real();
  /* Nothing to measure its effect with: no point, or only candidates and
   * none of them reached yet. */
  if (r->n_points == 0 || (candidates && !any_candidate_reached(r)))
    return min_visits;
  begin_profile(&o);
  coz_out_begin(&o, "experiment");
  coz_out_str(&o, "selected", r->selected);
  coz_out_double(&o, "speedup", r->speedup_pct / 100.0);
  coz_out_u64(&o, "duration", r->duration_ns);
  coz_out_u64(&o, "selected-samples", r->selected_samples);
  coz_out_u64(&o, "pid", (uint64_t)getpid());
  coz_out_u64(&o, "start", r->start_unix_ns);
  coz_out_u64(&o, "end", r->end_unix_ns);
  coz_out_end(&o);
  for (size_t i = 0; i < r->n_points; i++) {
    const struct coz_point_reading *a = &r->start[i], *b = &r->end[i];
    if (!coz_progress_recorded(i) || (b->visits == 0 && b->departures == 0))
      continue; /* never reached: no information, and a 0 rate misleads */
    uint64_t arrivals = b->visits - a->visits;
    if (candidates) {
      candidate_point(&o, r, i, arrivals);
      most_visits = arrivals > most_visits ? arrivals : most_visits;
      continue;
    }
    any_progress = true;
    if (coz_progress_is_latency(i)) {
      uint64_t departures = b->departures - a->departures;
      /* L for Little's law: the average of the readings taken during the
       * experiment; without them, the count in flight at its end (ends may
       * race ahead of begins in a reading, hence the clamp). */
      uint64_t at_end =
          b->visits > b->departures ? b->visits - b->departures : 0;
      coz_out_begin(&o, "latency-point");
      coz_out_str(&o, "name", coz_progress_name(i));
      coz_out_u64(&o, "arrivals", arrivals);
      coz_out_u64(&o, "departures", departures);
      if (r->in_flight_sum)
        coz_out_double(&o, "difference",
                       r->in_flight_sum[i] / (double)r->snapshots);
      else
        coz_out_u64(&o, "difference", at_end);
      coz_out_end(&o);
      if (departures < min_visits)
        min_visits = departures;
    } else {
      coz_out_begin(&o, "throughput-point");
      coz_out_str(&o, "name", coz_progress_name(i));
      coz_out_u64(&o, "delta", arrivals);
      coz_out_end(&o);
    }
    if (arrivals < min_visits)
      min_visits = arrivals;
  }
  coz_out_flush(&o);
  coz_out_free(&o);
  /* Candidates: long enough for the most visited one (the others may be a
   * loop that runs once). */
  return candidates ? most_visits : min_visits;
}

static void add_line_delta(struct coz_line *line, void *arg) {
  struct coz_out *o = arg;
  uint64_t now = atomic_load_explicit(&line->samples, memory_order_relaxed);
  uint64_t done =
      atomic_load_explicit(&line->samples_flushed, memory_order_relaxed);
  if (now <= done)
    return;
  char name[COZ_LINE_NAME_MAX];
  coz_line_name(line, name, sizeof name);
  coz_out_begin(o, "samples");
  coz_out_str(o, "location", name);
  coz_out_u64(o, "count", now - done);
  coz_out_end(o);
  atomic_store_explicit(&line->samples_flushed, now, memory_order_relaxed);
}

void coz_record_deltas(bool with_lines) {
  if (!started)
    return; /* the deltas accumulate until the first write */
  struct coz_out o = {0};
  if (with_lines)
    coz_linemap_foreach(add_line_delta, &o);
  uint64_t now = coz_now_ns();
  coz_out_begin(&o, "runtime");
  coz_out_u64(&o, "time", now - last_runtime_ns);
  coz_out_u64(&o, "pid", (uint64_t)getpid());
  coz_out_end(&o);
  last_runtime_ns = now;
  coz_out_flush(&o);
  coz_out_free(&o);
}

void coz_record_final(bool with_lines) {
  struct coz_out o = {0};
  size_t n = coz_progress_refresh();
  bool candidates = !coz_progress_has_real();
  for (size_t i = 0; i < n; i++) {
    struct coz_point_reading r = coz_progress_read(i);
    if (!coz_progress_is_candidate(i) && (r.visits || r.departures))
      any_progress = true;
  }
  /* Without an experiment, the totals of points that were reached are
   * still worth a profile (a short run's counts); else nothing is:
   * candidates alone never start one here. */
  if (!started && !any_progress)
    return;
  if (!started) {
    begin_profile(&o);
    coz_out_flush(&o);
  }
  coz_record_deltas(with_lines);
  for (size_t i = 0; i < n; i++) {
    if (!coz_progress_recorded(i))
      continue;
    struct coz_point_reading r = coz_progress_read(i);
    coz_out_begin(&o, "runtime");
    coz_out_str(&o, "point", coz_progress_name(i));
    bool latency = coz_progress_is_latency(i);
    coz_out_str(&o, "kind", latency ? "latency" : "throughput");
    coz_out_u64(&o, "visits", latency ? r.departures : r.visits);
    coz_out_u64(&o, "arrivals", r.visits);
    coz_out_u64(&o, "departures", latency ? r.departures : r.visits);
    if (candidates)
      coz_out_u64(&o, "candidate", 1);
    coz_out_u64(&o, "pid", (uint64_t)getpid());
    coz_out_end(&o);
  }
  coz_out_begin(&o, "shutdown");
  coz_out_u64(&o, "time", coz_unix_ns());
  coz_out_u64(&o, "pid", (uint64_t)getpid());
  coz_out_end(&o);
  coz_out_flush(&o);
  coz_out_free(&o);
}
