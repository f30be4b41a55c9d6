/* experiment.c: the profiler (§2, §3.2), which profiler_host.c runs in a
 * thread of its own or in the program's only thread.
 *
 * It first builds the line map (the scope), then runs experiments one after
 * another: wait for the first in-scope line any thread samples, ask the
 * allocation (allocation.h) whether to run on it and at which speedup,
 * publish them, let the experiment run, then write its record with the
 * effective duration (elapsed minus the delay inserted meanwhile), and cool
 * off so that the samples taken during the experiment are processed before
 * the next one. An experiment in which the program neither progressed nor
 * took a sample (an idle server, a shutdown) measured nothing and is not
 * written. The length doubles while some progress point gets fewer than
 * COZ_MIN_VISITS visits per experiment, and halves, down to MIN_LENGTH,
 * while every point gets more than PLENTY_VISITS. */
#include "experiment.h"
#include "allocation.h"
#include "config.h"
#include "delays.h"
#include "exit_message.h"
#include "linemap/linemap.h"
#include "profiler_host.h"
#include "progress.h"
#include "records.h"
#include "runtime.h"
#include "thread_state.h"
#include "unwind/unwind.h"
#include "util.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Atomic(struct coz_line *) coz_exp_selected;
const struct coz_line_range *_Atomic coz_exp_range;
_Atomic uint64_t coz_exp_delay_ns;
_Atomic uint64_t coz_exp_selected_samples;
_Atomic uint64_t coz_exp_samples;
_Atomic bool coz_exp_selecting;
_Atomic(struct coz_line *) coz_exp_candidate;

/* Futex word: bumped to wake the profiler thread early. */
static _Atomic uint32_t wake_word;
static _Atomic bool stop_requested;
static _Atomic bool shut_down;

/* What the profiler thread is doing, for the exit (coz_profiler_shutdown).
 * A build of the line map is cancelled at exit and ends within one
 * compilation unit; the exit waits for that (a thread left running keeps
 * its memory in use, which leak checkers such as valgrind's blame on the
 * program), but not for long: a build stuck on the loader's lock, or not
 * scheduled, is left behind with the phase closed, and the profiler thread
 * then touches neither the map nor the profile. Experiments stop when
 * asked; the exit waits for the one in flight to be written. Between
 * experiments the profiler thread reads objects loaded since (read_objects),
 * under the same lock: the phase is BUILDING again meanwhile. */
enum { PHASE_NONE, PHASE_BUILDING, PHASE_RUNNING, PHASE_DONE, PHASE_CLOSED };
static _Atomic int phase = PHASE_NONE;

static bool phase_move(int from, int to) {
  return atomic_compare_exchange_strong(&phase, &from, to);
}

/* Runs `work` (line-map or CFI work on the loaded objects, which takes the
 * loader's lock) as a build, so that an exit meanwhile waits for it only
 * as long as for the first build. False when the exit closed the phase:
 * the profiler thread must then stop and touch nothing. Without it, a
 * program thread holding the loader's lock between two experiments made
 * the exit wait 5 s and write nothing (runtime.exit_holding_loader). */
static bool read_objects(void (*work)(void)) {
  if (!phase_move(PHASE_RUNNING, PHASE_BUILDING))
    return false;
  work();
  return phase_move(PHASE_BUILDING, PHASE_RUNNING);
}

/* Blocks until a poke after `seen` was read, or for at most ns. */
static void wait_for_poke(uint32_t seen, uint64_t ns) {
  struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
  syscall(SYS_futex, &wake_word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

/* Waits at most ns for the phase to leave `from`; whether it did. */
static bool wait_phase_leaves(int from, uint64_t ns) {
  uint64_t deadline = coz_now_ns() + ns;
  while (atomic_load(&phase) == from && coz_now_ns() < deadline) {
    uint32_t seen = atomic_load(&wake_word);
    if (atomic_load(&phase) == from)
      wait_for_poke(seen, 10000000u);
  }
  return atomic_load(&phase) != from;
}
static uint64_t rng_state;

void coz_profiler_poke(void) {
  atomic_fetch_add(&wake_word, 1);
  syscall(SYS_futex, &wake_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static bool should_stop(void) {
  return atomic_load(&stop_requested) || coz_threads_live() <= 0;
}

/* Modules whose files are in the line map's default scope. */
static size_t modules_in_scope;

/* Modules registered since (dlopen'ed libraries built with the pass) widen
 * the default scope; then read objects loaded since. Both are cheap when
 * nothing changed. */
static void refresh_scope(void) {
  if (coz_progress_modules() > modules_in_scope) {
    size_t n_new = 0;
    const char **files = coz_progress_files(modules_in_scope, &n_new);
    modules_in_scope = coz_progress_modules();
    if (files && n_new)
      coz_linemap_add_default_files(files, n_new);
    free(files);
  }
  coz_linemap_refresh();
  coz_unwind_refresh(); /* the objects CFI unwinding reads */
}

/* Sleeps until deadline (monotonic ns) or an early wake-up request; in
 * the program's thread (profiler_host.h), until a sample after it. There
 * the profiler also runs when a library built with the pass registers,
 * whose lines it reads at once: until they are in scope, no sample in
 * them can run the profiler. */
static void sleep_until(uint64_t deadline) {
  while (!should_stop()) {
    uint64_t now = coz_now_ns();
    if (now >= deadline)
      return;
    if (!coz_host_yield(deadline))
      wait_for_poke(atomic_load(&wake_word), deadline - now);
    else if (coz_progress_modules() > modules_in_scope &&
             !read_objects(refresh_scope))
      return;
  }
}

static uint64_t next_random(void) { return coz_xorshift64s(&rng_state); }

/* With COZ_FIXED_SPEEDUP=s the experiments alternate between 0 and s: the
 * profile still holds the baseline, measured in the same run and
 * interleaved with the speedup, so slow drifts of the machine affect both
 * alike. Otherwise the allocation picks (§3.2, allocation.h). */
static int pick_speedup(struct coz_line *line) {
  static unsigned long picks;
  if (coz_config.FIXED_SPEEDUP >= 0)
    return picks++ % 2 ? coz_config.FIXED_SPEEDUP : 0;
  return coz_alloc_speedup(line);
}

/* Experiment lengths: never shorter than this (a delay is paid in chunks
 * of speedup x period when a sample lands: 100 ms holds ~100 samples of a
 * busy thread), and halved while every point gets more visits than this.
 * The answer needs each line tried at several speedups, so a run that
 * holds more experiments answers sooner; what a shorter experiment loses
 * in counting noise the report's intervals carry, and the noise of a rate
 * over a run is the same however it is cut (serial.c in 6 s runs: right
 * top 2 after one run at 125 ms, not at 500; docs/results.md, "Time to an
 * answer"). */
#define MIN_LENGTH_NS 100000000u
#define PLENTY_VISITS 50u

/* The first throughput point of the program's own: the one the allocation
 * measures with (candidates leave it Coz's). */
static const char *primary_point(size_t n, size_t *index) {
  for (size_t i = 0; i < n; i++)
    if (!coz_progress_is_latency(i) && !coz_progress_is_candidate(i)) {
      *index = i;
      return coz_progress_name(i);
    }
  return NULL;
}

/* Waits for the first in-scope line sampled from now on (§3.2). */
static struct coz_line *wait_for_line(void) {
  atomic_store(&coz_exp_candidate, NULL);
  atomic_store(&coz_exp_selecting, true);
  struct coz_line *line = NULL;
  while (!should_stop()) {
    line = atomic_load(&coz_exp_candidate);
    if (line)
      break;
    /* A sample in a library loaded since is attributed through its CFI
     * (a frame-pointer walk skips a frameless function's caller). */
    if (!read_objects(coz_unwind_refresh))
      break; /* line is NULL */
    sleep_until(coz_now_ns() + 2000000);
  }
  atomic_store(&coz_exp_selecting, false);
  return line;
}

static bool build_scope(void) {
  size_t n_files = 0;
  modules_in_scope = coz_progress_modules();
  const char **files = coz_progress_files(0, &n_files);
  struct coz_scope_config cfg = {coz_config.SOURCE_SCOPE,
                                 coz_config.BINARY_SCOPE, files, n_files};
  /* Nothing compiled with the pass registered (a program built with plain
   * clang and linked with the runtime): profile the main executable, as
   * Coz does by default. */
  if (n_files == 0 && !*cfg.source_patterns && !*cfg.binary_patterns) {
    cfg.source_patterns = "%";
    cfg.binary_patterns = "MAIN";
  }
  /* Only objects that registered a module can hold the default files:
   * skip reading the others (libc's separate debug info is slow). */
  if (n_files > 0)
    coz_linemap_set_pass_object_filter(coz_progress_object_has_module, NULL);
  coz_linemap_set_notice(coz_log_notice);
  coz_log_verbose(1, "scope: %zu instrumented files from %zu modules%s",
                  n_files, coz_progress_modules(),
                  n_files ? "" : " (default: the executable's files)");
  uint64_t t0 = coz_now_ns();
  long lines = coz_linemap_build(&cfg);
  free(files);
  coz_log_verbose(1, "line map: %ld lines in scope, built in %.1f ms", lines,
                  (double)(coz_now_ns() - t0) / 1e6);
  if (lines == 0 && !should_stop()) /* a build cancelled at exit: no news */
    (coz_config_given.SOURCE_SCOPE || coz_config_given.BINARY_SCOPE
         ? coz_log_error
         : coz_log_notice)("no source line is in the profiling scope: build "
                           "with -g, or set COZ_SOURCE_SCOPE / "
                           "COZ_BINARY_SCOPE; no experiments will run");
  return lines > 0;
}

/* Little's law needs L, the time-averaged number of transactions in flight,
 * not its value at one instant: a snapshot at the experiment's end can lock
 * onto the program's own rhythm. While an experiment with latency points
 * runs, the profiler thread reads begin - end every 2.5-7.5 ms (jittered so
 * it cannot alias with periodic work) and keeps the sum; otherwise it just
 * sleeps to the deadline. Each reading wakes the profiler thread, which on
 * a machine the program keeps busy takes a CPU from one of its threads
 * (two context switches): at 0.5-1.5 ms that was 2-3% of the latency
 * program's time, and the experiments' spread of W was no smaller than at
 * 5 ms (docs/results.md, "Overhead"). */
static void observe_until(uint64_t deadline, size_t n, double *in_flight_sum,
                          uint64_t *snapshots) {
  bool any_latency = false;
  for (size_t i = 0; i < n; i++)
    any_latency |= coz_progress_is_latency(i);
  if (!any_latency) {
    sleep_until(deadline);
    return;
  }
  for (;;) {
    for (size_t i = 0; i < n; i++) {
      if (!coz_progress_is_latency(i))
        continue;
      struct coz_point_reading r = coz_progress_read(i);
      in_flight_sum[i] +=
          r.visits > r.departures ? (double)(r.visits - r.departures) : 0.0;
    }
    (*snapshots)++;
    uint64_t now = coz_now_ns();
    if (now >= deadline || should_stop())
      return;
    uint64_t step = 2500000u + next_random() % 5000000u;
    sleep_until(deadline - now < step ? deadline : now + step);
  }
}

/* The points' readings around one experiment, grown with the points. */
struct readings {
  struct coz_point_reading *start, *end;
  double *in_flight_sum; /* latency points: sums of in-flight counts */
  uint64_t snapshots;
  size_t cap;
};

static bool readings_fit(struct readings *rd, size_t n) {
  if (n <= rd->cap)
    return true;
  size_t cap = n * 2;
  struct coz_point_reading *s = realloc(rd->start, cap * sizeof *s);
  if (s)
    rd->start = s;
  struct coz_point_reading *e = realloc(rd->end, cap * sizeof *e);
  if (e)
    rd->end = e;
  double *f = realloc(rd->in_flight_sum, cap * sizeof *f);
  if (f)
    rd->in_flight_sum = f;
  if (!s || !e || !f)
    return false;
  rd->cap = cap;
  return true;
}

/* Neither progress (of the points the records carry) nor a sample: an idle
 * server, a shutdown. */
static bool idle(const struct readings *rd, size_t n) {
  if (atomic_load(&coz_exp_samples) != 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (coz_progress_recorded(i) &&
        (rd->end[i].visits != rd->start[i].visits ||
         rd->end[i].departures != rd->start[i].departures))
      return false;
  return true;
}

/* Doubles while a point is visited too rarely to measure, halves while
 * every point is visited plenty. */
static uint64_t adapt_length(uint64_t length_ns, uint64_t min_visits) {
  if (min_visits < coz_config.MIN_VISITS && !should_stop())
    return length_ns * 2;
  if (min_visits != UINT64_MAX && min_visits > PLENTY_VISITS &&
      length_ns / 2 >= MIN_LENGTH_NS)
    return length_ns / 2;
  return length_ns;
}

/* One experiment on line at speedup (percent), with n points of which
 * `primary` measures for the allocation; writes its record. */
static void run_one(struct coz_line *line, int speedup, size_t n,
                    size_t primary, uint64_t *length_ns, struct readings *rd) {
  /* Every point registered by now is read at the start: one merged after
   * it (below) was registered after it, with no visit before. */
  size_t n_start = n, n_now = coz_progress_refresh();
  if (n_now > n && readings_fit(rd, n_now))
    n = n_now;
  for (size_t i = 0; i < n; i++) {
    rd->in_flight_sum[i] = 0;
    rd->start[i] = coz_progress_read(i);
  }
  rd->snapshots = 0;
  atomic_store(&coz_exp_selected_samples, 0);
  atomic_store(&coz_exp_samples, 0);
  uint64_t g0 = coz_delay_global();
  /* The wall-clock window is read outside the monotonic one: it holds it. */
  uint64_t start_unix = coz_unix_ns(), t0 = coz_now_ns();
  atomic_store(&coz_exp_delay_ns, coz_config.PERIOD * (uint64_t)speedup / 100u);
  atomic_store(&coz_exp_selected, line);

  observe_until(coz_config.END_TO_END ? UINT64_MAX : t0 + *length_ns, n,
                rd->in_flight_sum, &rd->snapshots);

  atomic_store(&coz_exp_selected, NULL);
  atomic_store(&coz_exp_delay_ns, 0);
  uint64_t elapsed = coz_now_ns() - t0, end_unix = coz_unix_ns();
  uint64_t inserted = coz_delay_global() - g0;
  for (size_t i = 0; i < n; i++)
    rd->end[i] = coz_progress_read(i);
  /* Points first reached meanwhile (a marker's slow path registers at its
   * first visit; the run's only experiment with COZ_END_TO_END may start
   * before it) had no visit at the start. */
  n_now = coz_progress_refresh();
  if (n_now > n && readings_fit(rd, n_now))
    for (; n < n_now; n++) {
      rd->start[n] = (struct coz_point_reading){0, 0};
      rd->in_flight_sum[n] = 0;
      rd->end[n] = coz_progress_read(n);
    }
  char name[COZ_LINE_NAME_MAX];
  coz_line_name(line, name, sizeof name);
  const struct coz_line_range *range = atomic_load(&coz_exp_range);
  char *colon = strrchr(name, ':');
  if (range && colon) /* the record names the range: file:lo-hi */
    snprintf(colon + 1, sizeof name - (size_t)(colon + 1 - name), "%u-%u",
             range->lo, range->hi);
  struct coz_experiment_result r = {name,
                                    speedup,
                                    elapsed > inserted ? elapsed - inserted : 0,
                                    start_unix,
                                    end_unix,
                                    atomic_load(&coz_exp_selected_samples),
                                    atomic_load(&coz_exp_samples),
                                    n,
                                    rd->start,
                                    rd->end,
                                    rd->snapshots ? rd->in_flight_sum : NULL,
                                    rd->snapshots};
  if (r.duration_ns == 0 || idle(rd, n))
    return;
  uint64_t min_visits = coz_record_experiment(&r);
  coz_exit_message_count(line);
  if (n_start > 0) /* primary was chosen among the points at the start */
    coz_alloc_record(line, speedup, (double)r.duration_ns,
                     rd->end[primary].visits - rd->start[primary].visits);
  if (!coz_config.END_TO_END)
    *length_ns = adapt_length(*length_ns, min_visits);
}

static void run_experiments(void) {
  struct coz_line *fixed = NULL;
  static struct coz_line_range fixed_range;
  if (*coz_config.FIXED_LINE) {
    fixed = coz_linemap_find_range(coz_config.FIXED_LINE, &fixed_range);
    if (!fixed) {
      coz_log_error("COZ_FIXED_LINE=%s matches no line in scope: give "
                    "file:line of a line with code, or file:first-last "
                    "(e.g. prog.c:42 or prog.c:40-60); no experiments "
                    "will run",
                    coz_config.FIXED_LINE);
      return;
    }
    if (fixed_range.hi > fixed_range.lo) /* a single line needs no range */
      atomic_store(&coz_exp_range, &fixed_range);
  }
  uint64_t length_ns = coz_config.EXPERIMENT * 1000000u;
  struct readings rd = {0};
  while (!should_stop()) {
    if (!read_objects(refresh_scope))
      break;
    size_t n = coz_progress_refresh(), primary = 0;
    coz_alloc_init(primary_point(n, &primary), next_random);
    struct coz_line *line = fixed ? fixed : wait_for_line();
    if (!line || !readings_fit(&rd, n))
      break;
    if (!fixed && !coz_alloc_accept(line))
      continue; /* out of the race this time: wait for another line */
    run_one(line, pick_speedup(line), n, primary, &length_ns, &rd);
    coz_record_deltas(true);
    if (coz_config.END_TO_END)
      break;
    sleep_until(coz_now_ns() + coz_config.COOLOFF * 1000000u);
  }
  free(rd.start);
  free(rd.end);
  free(rd.in_flight_sum);
}

void *coz_profiler_main(void *arg) {
  (void)arg;
  /* The profiler thread is not part of the program: never sampled. */
  rng_state = coz_config.SEED ? coz_config.SEED
                              : (coz_now_ns() ^ ((uint64_t)getpid() << 32));
  if (rng_state == 0)
    rng_state = 1;
  if (!phase_move(PHASE_NONE, PHASE_BUILDING))
    return NULL; /* the process is exiting without us */
  bool built = build_scope();
  if (!phase_move(PHASE_BUILDING, PHASE_RUNNING))
    return NULL; /* ditto */
  coz_profiler_poke();
  if (built && !should_stop())
    run_experiments();
  if (!phase_move(PHASE_RUNNING, PHASE_DONE))
    return NULL; /* the exit closed the phase during a read_objects */
  coz_profiler_poke();
  return NULL;
}

void coz_profiler_shutdown(void) {
  bool expected = false;
  if (!atomic_compare_exchange_strong(&shut_down, &expected, true))
    return;
  atomic_store(&stop_requested, true);
  coz_linemap_cancel();
  coz_profiler_poke();
  coz_host_finish(); /* in the program's thread: it ends here and now */
  /* The phases' comment says why these waits and these bounds. */
  bool with_lines = !phase_move(PHASE_NONE, PHASE_CLOSED);
  if (with_lines) {
    wait_phase_leaves(PHASE_BUILDING, 2000000000u);
    with_lines = !phase_move(PHASE_BUILDING, PHASE_CLOSED);
  }
  if (with_lines && !wait_phase_leaves(PHASE_RUNNING, 5000000000u))
    return; /* still busy: writing now could interleave with it */
  coz_record_final(with_lines);
  struct coz_thread *self = coz_thread_self();
  if (self)
    coz_thread_log_counts(self);
  coz_exit_message_print();
}
