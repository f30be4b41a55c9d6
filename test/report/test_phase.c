/* Phase correction (paper eq. 8): dP = dp_A * t_A / T with t_A ~ s / r;
 * s = the line's total samples (`samples` records), T = total runtime (sum
 * of `runtime time=` deltas), r = the line's sampling rate while it runs,
 * from its baseline experiments: sum S(S-1) / sum S*d for a line whose
 * experiments with samples average at least 8 (then an experiment with no
 * sample of it ran outside its phase and is left out everywhere, and so is
 * one whose count is implausibly low for its duration), sum S / sum d for a
 * rarely sampled line (its zeros are kept). */
#include "check.h"

/* Line c.c:5, point p, delta 100 in every experiment, durations chosen so
 * the uncorrected speedups are 0, .1, .2, .3, .4:
 *   duration_s = 1e9 * (1 - y_raw)  (p_s/p_0 = duration_s / 1e9)
 * Baseline: d = 1e9 ns, S = 101 selected samples, so r = 101 * 100 /
 * (101 * 1e9) = 1e-7 per ns. Experiments with a speedup carry
 * selected-samples=1000, which must not enter r (their effective duration
 * excludes inserted delays). */
#define EXPERIMENTS                                                            \
  "experiment\tselected=c.c:5\tspeedup=0\tduration=1000000000\t"               \
  "selected-samples=101\tpid=1\n"                                              \
  "throughput-point\tname=p\tdelta=100\n"                                      \
  "experiment\tselected=c.c:5\tspeedup=0.25\tduration=900000000\t"             \
  "selected-samples=1000\tpid=1\n"                                             \
  "throughput-point\tname=p\tdelta=100\n"                                      \
  "experiment\tselected=c.c:5\tspeedup=0.5\tduration=800000000\t"              \
  "selected-samples=1000\tpid=1\n"                                             \
  "throughput-point\tname=p\tdelta=100\n"                                      \
  "experiment\tselected=c.c:5\tspeedup=0.75\tduration=700000000\t"             \
  "selected-samples=1000\tpid=1\n"                                             \
  "throughput-point\tname=p\tdelta=100\n"                                      \
  "experiment\tselected=c.c:5\tspeedup=1\tduration=600000000\t"                \
  "selected-samples=1000\tpid=1\n"                                             \
  "throughput-point\tname=p\tdelta=100\n"

/* EXPERIMENTS plus `extra`, with the first test's samples (250) and
 * runtime (1e10 ns): the row must keep n_obs experiments, and the extra ones
 * left out must change neither the measures nor r (factor 0.25, y .025 at
 * 25% and .05 at 50%). */
static void check_left_out(const char *name, const char *extra, size_t n_obs) {
  char text[4096];
  snprintf(text, sizeof text, "%s%s%s", EXPERIMENTS, extra,
           "samples\tlocation=c.c:5\tcount=250\n"
           "runtime\ttime=10000000000\tpid=1\n");
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, name, text);
  fixture_analyse(&f);
  const struct cr_row *row = find_row(&f, "c.c:5", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK(row->n_obs == n_obs);
    CHECK_NEAR(row->phase_factor, 0.25, 1e-12);
    CHECK_NEAR(y_at(row, 250), 0.025, 1e-9);
    CHECK_NEAR(y_at(row, 500), 0.05, 1e-9);
  }
  fixture_free(&f);
}

int main(void) {
  /* s = 150 + 100 = 250 samples (two deltas), T = 4e9 + 6e9 = 1e10 ns.
   * t_A = 250 / 1e-7 = 2.5e9; t_A / T = 0.25.
   * Corrected: .025, .05, .075, .1; slope 0.4 * 0.25 = 0.1. */
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, "phase.coz",
                EXPERIMENTS "samples\tlocation=c.c:5\tcount=150\n"
                            "samples\tlocation=other.c:1\tcount=9999\n"
                            "runtime\ttime=4000000000\tpid=1\n"
                            "samples\tlocation=c.c:5\tcount=100\n"
                            "runtime\ttime=6000000000\tpid=1\n");
  CHECK(f.p.malformed == 0);
  fixture_analyse(&f);
  const struct cr_row *row = find_row(&f, "c.c:5", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK(row->phase_applied);
    CHECK_NEAR(row->phase_factor, 0.25, 1e-12);
    CHECK_NEAR(y_at(row, 250), 0.025, 1e-9);
    CHECK_NEAR(y_at(row, 500), 0.05, 1e-9);
    CHECK_NEAR(y_at(row, 1000), 0.1, 1e-9);
    CHECK_NEAR(row->slope, 0.1, 1e-9);
    char *json = render(&f, cr_write_json);
    CHECK_CONTAINS(json, "\"phase_factor\": 0.25");
    free(json);
  }
  fixture_free(&f);

  /* Cap: s = 10000 gives t_A = 1e11 > T = 1e10; t_A/T is capped at 1 and
   * the speedups stay uncorrected: .1 at 25%, .4 at 100%. */
  fixture_init(&f);
  fixture_parse(&f, "cap.coz",
                EXPERIMENTS "samples\tlocation=c.c:5\tcount=10000\n"
                            "runtime\ttime=10000000000\n");
  fixture_analyse(&f);
  row = find_row(&f, "c.c:5", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK(row->phase_applied);
    CHECK_NEAR(row->phase_factor, 1, 1e-12);
    CHECK_NEAR(y_at(row, 250), 0.1, 1e-9);
    CHECK_NEAR(y_at(row, 1000), 0.4, 1e-9);
  }
  fixture_free(&f);

  /* No runtime record (or no samples record): no correction. */
  fixture_init(&f);
  fixture_parse(&f, "nort.coz",
                EXPERIMENTS "samples\tlocation=c.c:5\tcount=250\n");
  fixture_analyse(&f);
  row = find_row(&f, "c.c:5", "p");
  CHECK(row && !row->phase_applied && row->phase_factor == 1);
  CHECK(row && fabs(y_at(row, 1000) - 0.4) < 1e-9);
  fixture_free(&f);
  fixture_init(&f);
  fixture_parse(&f, "nosamples.coz", EXPERIMENTS "runtime\ttime=1000\n");
  fixture_analyse(&f);
  row = find_row(&f, "c.c:5", "p");
  CHECK(row && !row->phase_applied);
  fixture_free(&f);
  /* Out of phase: the same experiments plus, at speedup 0 and 50%, two
   * with no sample of the line (it did not run; the program ran at another
   * rate then). Left out, they change neither the measures nor r. */
  check_left_out(
      "inactive.coz",
      "experiment\tselected=c.c:5\tspeedup=0\tduration=3000000000\t"
      "selected-samples=0\tpid=1\n"
      "throughput-point\tname=p\tdelta=100\n"
      "experiment\tselected=c.c:5\tspeedup=0.5\tduration=3000000000\t"
      "selected-samples=0\tpid=1\n"
      "throughput-point\tname=p\tdelta=100\n",
      5);

  /* A straddler: an experiment at 50% with 30 samples where the line's rate
   * (1e-7 per ns) expects 100 in its 1e9 ns ran mostly outside the phase
   * and is left out (kept, it would make the 50% period (0.8e9 + 1e9) / 200
   * = 9e6 and y_raw 0.1 instead of 0.2). One at 25% with 75 samples where
   * 90 are expected is ordinary Poisson noise and stays: it has the 25%
   * experiment's period, so y at 25% is unchanged. */
  check_left_out(
      "straddle.coz",
      "experiment\tselected=c.c:5\tspeedup=0.5\tduration=1000000000\t"
      "selected-samples=30\tpid=1\n"
      "throughput-point\tname=p\tdelta=100\n"
      "experiment\tselected=c.c:5\tspeedup=0.25\tduration=900000000\t"
      "selected-samples=75\tpid=1\n"
      "throughput-point\tname=p\tdelta=100\n",
      6);

  /* A rarely sampled line (experiments with samples average 2, below 8):
   * its zeros are chance, not a phase. They stay in the measures and r =
   * sum S / sum d over every baseline: (3 + 0 + 1) / 4e9 = 1e-9 per ns;
   * s = 5, T = 1e10: t_A = 5e9, factor 0.5. Baseline period 4e9 / 400 =
   * 1e7; at 50% (0.8e9 + 1e9) / 200 = 9e6: raw 0.1, 0.05 corrected (a
   * third point, at 25%, with min_points 3 keeps the row). */
  fixture_init(&f);
  fixture_parse(&f, "rare.coz",
                "experiment\tselected=r.c:1\tspeedup=0\tduration=1000000000\t"
                "selected-samples=3\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0\tduration=1000000000\t"
                "selected-samples=0\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0\tduration=1000000000\t"
                "selected-samples=1\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0\tduration=1000000000\t"
                "selected-samples=0\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0.25\tduration=900000000\t"
                "selected-samples=2\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0.5\tduration=800000000\t"
                "selected-samples=2\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=r.c:1\tspeedup=0.5\tduration=1000000000\t"
                "selected-samples=0\tpid=1\n"
                "throughput-point\tname=p\tdelta=100\n"
                "samples\tlocation=r.c:1\tcount=5\n"
                "runtime\ttime=10000000000\tpid=1\n");
  f.o.min_points = 3;
  fixture_analyse(&f);
  row = find_row(&f, "r.c:1", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK(row->n_obs == 7);
    CHECK_NEAR(row->phase_factor, 0.5, 1e-12);
    CHECK_NEAR(y_at(row, 500), 0.05, 1e-9);
  }
  fixture_free(&f);
  return check_done("test_phase");
}
