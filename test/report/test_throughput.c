/* Throughput: program speedup = 1 - p_s/p_0, p = duration/delta, with
 * experiments of the same speedup combined by summing deltas and durations.
 * Every expected number below is worked out by hand in the comments. */
#include "check.h"

/* Line a.c:10, progress point "p". All durations in ns.
 *   speedup 0:    (1e9, 100) + (1e9, 100)  -> p0 = 2e9/200 = 1e7
 *   speedup 0.25: (1e9, 110)               -> p = 1e9/110; y = 1 - 100/110
 *                                             = 0.0909090909
 *   speedup 0.5:  (5e8, 60) + (5e8, 65)    -> sums (1e9, 125): p = 8e6;
 *                                             y = 1 - 8e6/1e7 = 0.2
 *                 (averaging the two periods instead would give
 *                  1 - (8.3333e6+7.6923e6)/2/1e7 = 0.19872: wrong)
 *   speedup 0.75: (1e9, 140)               -> y = 1 - 100/140 = 0.2857142857
 *   speedup 1:    (1e9, 150)               -> y = 1 - 100/150 = 0.3333333333
 */
static const char profile[] =
    "startup\ttime=1\tpid=7\n"
    "experiment\tselected=a.c:10\tspeedup=0\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=100\n"
    "experiment\tselected=a.c:10\tspeedup=0.25\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=110\n"
    "experiment\tselected=a.c:10\tspeedup=0.50\tduration=500000000\n"
    "throughput-point\tname=p\tdelta=60\n"
    "experiment\tselected=a.c:10\tspeedup=0.00\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=100\n"
    "experiment\tselected=a.c:10\tspeedup=0.5\tduration=500000000\n"
    "throughput-point\tname=p\tdelta=65\n"
    "experiment\tselected=a.c:10\tspeedup=0.75\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=140\n"
    "experiment\tselected=a.c:10\tspeedup=1.0\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=150\n"
    "shutdown\ttime=2\tpid=7\n";

int main(void) {
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, "tp.coz", profile);
  CHECK(f.p.malformed == 0);
  CHECK(f.p.n_experiments == 7);
  fixture_analyse(&f);
  CHECK(f.r.n_rows == 1);
  const struct cr_row *row = find_row(&f, "a.c:10", "p");
  CHECK(row != NULL);
  if (!row)
    return check_done("test_throughput");
  CHECK(row->n_valid == 5);
  CHECK(row->n_obs == 7);
  CHECK_NEAR(at(row, 0)->value, 1e7, 1e-3);
  CHECK(at(row, 0)->experiments == 2);
  CHECK_NEAR(y_at(row, 0), 0, 1e-12);
  CHECK_NEAR(y_at(row, 250), 0.0909090909, 1e-9);
  CHECK_NEAR(y_at(row, 500), 0.2, 1e-9);
  CHECK(at(row, 500)->delta == 125);
  CHECK_NEAR(y_at(row, 750), 0.2857142857, 1e-9);
  CHECK_NEAR(y_at(row, 1000), 0.3333333333, 1e-9);

  /* Least squares over (0,0) (.25,.090909) (.5,.2) (.75,.285714) (1,.333333):
   *   mean x = 0.5, mean y = 0.9099567/5 = 0.18199134
   *   Sxx = .25+.0625+0+.0625+.25 = 0.625
   *   Sxy = (-.5)(-.18199134) + (-.25)(-.09108225) + 0
   *       + (.25)(.10372294) + (.5)(.15134199)
   *       = .09099567 + .02277056 + .02593074 + .07567100 = .21536797
   *   slope = .21536797 / .625 = 0.34458875 */
  CHECK_NEAR(row->slope, 0.34458875, 1e-6);
  /* Predictions at measured speedups are the measured points. */
  CHECK_NEAR(row->pred[0], 0.0909090909, 1e-9);
  CHECK_NEAR(row->pred[1], 0.2, 1e-9);
  CHECK_NEAR(row->pred[2], 0.3333333333, 1e-9);
  CHECK_NEAR(row->max, 0.3333333333, 1e-9);
  CHECK_NEAR(row->min, 0, 1e-12);
  CHECK(!row->contention);
  CHECK(!row->phase_applied); /* no samples/runtime records */

  /* The JSON carries the same numbers under "predicted". */
  char *json = render(&f, cr_write_json);
  CHECK_CONTAINS(json, "\"0.25\": 0.09090909091");
  CHECK_CONTAINS(json, "\"0.5\": 0.2");
  free(json);
  char *text = render(&f, cr_write_text);
  CHECK_CONTAINS(text, "a.c:10");
  CHECK_CONTAINS(text, "+9.1%");  /* @25% */
  CHECK_CONTAINS(text, "+20.0%"); /* @50% */
  CHECK_CONTAINS(text, "+33.3%"); /* @100% */
  free(text);
  fixture_free(&f);

  /* Interpolation between neighbours: without the 0.5 experiments,
   *   at 0.5 = (y(.25) + y(.75)) / 2 = (.0909090909 + .2857142857)/2
   *          = 0.1883116883. */
  fixture_init(&f);
  f.o.min_points = 4;
  fixture_parse(&f, "tp2.coz",
                "experiment\tselected=a.c:10\tspeedup=0\tduration=1000000000\n"
                "throughput-point\tname=p\tdelta=100\n"
                "experiment\tselected=a.c:10\tspeedup=0.25\tduration="
                "1000000000\n"
                "throughput-point\tname=p\tdelta=110\n"
                "experiment\tselected=a.c:10\tspeedup=0.75\tduration="
                "1000000000\n"
                "throughput-point\tname=p\tdelta=140\n"
                "experiment\tselected=a.c:10\tspeedup=0.9\tduration="
                "1000000000\n"
                "throughput-point\tname=p\tdelta=140\n");
  fixture_analyse(&f);
  row = find_row(&f, "a.c:10", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK_NEAR(row->pred[1], 0.1883116883, 1e-9);
    /* Past the largest measured speedup (0.9) the value is held. */
    CHECK_NEAR(row->pred[2], 0.2857142857, 1e-9);
  }
  fixture_free(&f);
  return check_done("test_throughput");
}
