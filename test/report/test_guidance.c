/* Guidance: when nothing can be plotted, the report says exactly why and,
 * where more runs help, estimates how many. */
#include "check.h"

static void run(struct fixture *f, const char *text, unsigned min_points,
                const char *point) {
  fixture_init(f);
  f->o.min_points = min_points;
  f->o.point = point;
  if (text) {
    fixture_parse(f, "g.coz", text);
    f->p.files_read = 1; /* as cr_profile_read_file would count it */
  }
  fixture_analyse(f);
}

int main(void) {
  struct fixture f;

  /* No profile read at all. */
  run(&f, NULL, 5, NULL);
  CHECK(f.r.n_rows == 0 && f.r.guidance.reason == CR_G_NO_INPUT);
  CHECK_CONTAINS(f.r.guidance.message, "no profile could be read");
  fixture_free(&f);

  /* A run that ended before any experiment. */
  run(&f,
      "startup\ttime=1\n"
      "samples\tlocation=a.c:1\tcount=3\n"
      "runtime\ttime=100\n",
      5, NULL);
  CHECK(f.r.guidance.reason == CR_G_NO_EXPERIMENTS);
  CHECK_CONTAINS(f.r.guidance.message, "holds no experiment");
  CHECK_CONTAINS(f.r.guidance.message, "run it longer");
  fixture_free(&f);

  /* Experiments, but the progress point never advanced (delta 0), and an
   * experiment with no point record at all. */
  run(&f,
      "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
      "throughput-point\tname=p\tdelta=0\n"
      "experiment\tselected=a.c:2\tspeedup=0.5\tduration=1000\n",
      5, NULL);
  CHECK(f.r.guidance.reason == CR_G_NO_PROGRESS);
  CHECK_CONTAINS(f.r.guidance.message,
                 "no progress point was reached during any experiment");
  CHECK_CONTAINS(f.r.guidance.message, "COZ_PROGRESS");
  CHECK(f.r.guidance.more_runs == -1);
  char *json = render(&f, cr_write_json);
  CHECK_CONTAINS(json, "\"reason\": \"no-progress\"");
  free(json);
  fixture_free(&f);

  /* Same, but our runtime's totals show visits outside experiments. */
  run(&f,
      "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
      "throughput-point\tname=p\tdelta=0\n"
      "runtime\tpoint=p\tkind=throughput\tvisits=50\tpid=1\n",
      5, NULL);
  CHECK(f.r.guidance.reason == CR_G_NO_PROGRESS);
  CHECK_CONTAINS(f.r.guidance.message, "'p' was visited 50 times");
  fixture_free(&f);

  /* No baseline. Line a.c:1 has 4 experiments (speedups .25 .5 .75 1) in 2
   * runs; min 5 speedups = baseline + 4 nonzero, so only the baseline is
   * missing: expected experiments to draw speedup 0 (p = 1/2) = 2;
   * experiments per run = 4/2 = 2, so ceil(2/2) = 1 more run. */
  run(&f,
      "startup\ttime=1\n"
      "experiment\tselected=a.c:1\tspeedup=0.25\tduration=1000\n"
      "throughput-point\tname=p\tdelta=10\n"
      "experiment\tselected=a.c:1\tspeedup=0.5\tduration=1000\n"
      "throughput-point\tname=p\tdelta=10\n"
      "startup\ttime=2\n"
      "experiment\tselected=a.c:1\tspeedup=0.75\tduration=1000\n"
      "throughput-point\tname=p\tdelta=10\n"
      "experiment\tselected=a.c:1\tspeedup=1\tduration=1000\n"
      "throughput-point\tname=p\tdelta=10\n",
      5, NULL);
  CHECK(f.r.guidance.reason == CR_G_NO_BASELINE);
  CHECK_CONTAINS(f.r.guidance.message, "no line has a baseline");
  CHECK_CONTAINS(f.r.guidance.message, "a.c:1, has 4 experiments in 2 runs");
  CHECK(f.r.guidance.more_runs == 1);
  CHECK_CONTAINS(f.r.guidance.message, "about 1 more run ");
  fixture_free(&f);

  /* Too few speedups. Line a.c:1: 3 experiments at 0 and 1 at .5 in one
   * run: 2 distinct speedups, 3 more nonzero ones needed out of 19 unseen:
   *   E = 2 * (20/19 + 20/18 + 20/17) = 2 * 3.3402 = 6.68 experiments;
   *   4 experiments per run -> ceil(6.68 / 4) = 2 more runs. */
  const char *few = "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
                    "throughput-point\tname=p\tdelta=10\n"
                    "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
                    "throughput-point\tname=p\tdelta=10\n"
                    "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
                    "throughput-point\tname=p\tdelta=10\n"
                    "experiment\tselected=a.c:1\tspeedup=0.5\tduration=1000\n"
                    "throughput-point\tname=p\tdelta=12\n"
                    "experiment\tselected=b.c:1\tspeedup=0.5\tduration=1000\n"
                    "throughput-point\tname=p\tdelta=12\n";
  run(&f, few, 5, NULL);
  CHECK(f.r.guidance.reason == CR_G_TOO_FEW);
  CHECK_CONTAINS(f.r.guidance.message, "too few speedups were tried");
  CHECK_CONTAINS(f.r.guidance.message,
                 "a.c:1, has 2 distinct speedups (the baseline included) "
                 "where 5 are needed");
  CHECK(f.r.guidance.more_runs == 2);
  char *text = render(&f, cr_write_text);
  CHECK_CONTAINS(text, "about 2 more runs");
  /* b.c:1 has no speedup-0 experiment of its own: a.c:1's are its
   * baseline too (pooled). */
  CHECK_CONTAINS(text, "0 with no baseline, 2 with fewer than 5 speedups");
  free(text);
  fixture_free(&f);

  /* A --min-points the 20-step speedup grid can never satisfy. */
  run(&f, few, 30, NULL);
  CHECK(f.r.guidance.reason == CR_G_TOO_FEW && f.r.guidance.more_runs == -1);
  CHECK_CONTAINS(f.r.guidance.message, "cannot be reached");
  fixture_free(&f);

  /* --point names a point the profile does not have. */
  run(&f, few, 5, "zzz");
  CHECK(f.r.guidance.reason == CR_G_NO_SUCH_POINT);
  CHECK_CONTAINS(f.r.guidance.message, "no progress point is named 'zzz'");
  CHECK_CONTAINS(f.r.guidance.message, "the profile has: 'p'");
  fixture_free(&f);

  /* Lowering --min-points to 2 makes the same profile plottable: both
   * lines, b.c:1 on the pooled baseline. */
  run(&f, few, 2, NULL);
  CHECK(f.r.n_rows == 2 && f.r.guidance.reason == CR_G_NONE);
  fixture_free(&f);
  return check_done("test_guidance");
}
