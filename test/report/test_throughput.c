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

  /* Weighted least squares, weight = the visits counted:
   *   w = 200, 110, 125, 140, 150;  W = 725
   *   mean x = (.25*110 + .5*125 + .75*140 + 150) / W = 345 / 725
   *   sum w y = 110*(10/110) + 125*.2 + 140*(40/140) + 150*(50/150)
   *           = 10 + 25 + 40 + 50 = 125 (each term is visits - duration /
   *           p_0: the y of all experiments combined, times W)
   *   Sxx = sum w x^2 - W mean x^2 = 266.875 - 345^2/725 = 102.7025862
   *   Sxy = sum w x y - W mean x mean y = 95 - 345*125/725 = 35.5172414
   *   slope = 35.5172414 / 102.7025862 = 0.3458262
   * (unweighted least squares would give 0.344589). */
  CHECK_NEAR(row->slope, 0.3458262, 1e-6);
  /* Each prediction's window (+-15%) holds one measured point, which is
   * then the prediction. */
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

  /* Prediction pools neighbouring speedups: a local linear fit of the
   * points within 15% of 25%, weighted by their visits and a tricube kernel
   * (bandwidth 20%). Baseline (1e9 ns, 10000 visits): p0 = 1e5 ns.
   *   .15: 10000 visits in 9e8 ns   -> r = .9,  y = .10
   *   .25: 10000 visits in 8.5e8 ns -> r = .85, y = .15
   *   .35: 10000 visits in 7e8 ns   -> r = .7,  y = .30
   * so all three weights are 10000; kernel k(.1) = (1 - (.1/.2)^3)^3
   * = .875^3 = 0.669921875, k(0) = 1. The x's are symmetric about .25
   * with equal weights, so the fitted intercept is the weighted mean:
   *   (k*(.10 + .30) + .15) / (2k + 1) = 0.41796875 / 2.33984375
   *                                    = 0.1786310518
   * At 50% only .35 is in the window: interpolation between .35 and .75
   * (both .3) gives .3; at 100% the measured point .3. */
  fixture_init(&f);
  fixture_parse(
      &f, "local.coz",
      "experiment\tselected=a.c:10\tspeedup=0\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.15\tduration=900000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.25\tduration=850000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.35\tduration=700000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.75\tduration=700000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=1\tduration=700000000\n"
      "throughput-point\tname=p\tdelta=10000\n");
  fixture_analyse(&f);
  row = find_row(&f, "a.c:10", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK_NEAR(y_at(row, 250), 0.15, 1e-9); /* the point itself */
    CHECK_NEAR(row->pred[0], 0.1786310518, 1e-9);
    CHECK_NEAR(row->pred[1], 0.3, 1e-9);
    CHECK_NEAR(row->pred[2], 0.3, 1e-9);
  }
  fixture_free(&f);

  /* Weights: the visits, down to a stall. Baseline 1e4 visits in 1e9 ns;
   * at r = p_s/p_0 = 1 and 1.6 (noise, contention) the weight is the
   * visits; at r = 5 (2,000 visits where 10,000 were due: the load ended
   * mid-experiment) it is 2000 (2/5)^2 = 320, so the stall weighs what 320
   * visits would, not 2,000, and cannot swing the row. */
  fixture_init(&f);
  fixture_parse(
      &f, "stall.coz",
      "experiment\tselected=a.c:10\tspeedup=0\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.25\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=10000\n"
      "experiment\tselected=a.c:10\tspeedup=0.5\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=6250\n"
      "experiment\tselected=a.c:10\tspeedup=0.75\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=2000\n"
      "experiment\tselected=a.c:10\tspeedup=1\tduration=1000000000\n"
      "throughput-point\tname=p\tdelta=10000\n");
  fixture_analyse(&f);
  row = find_row(&f, "a.c:10", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK_NEAR(at(row, 250)->weight, 10000, 1e-6);
    CHECK_NEAR(at(row, 500)->weight, 6250, 1e-6);
    CHECK_NEAR(at(row, 750)->weight, 320, 1e-6);
  }
  fixture_free(&f);
  return check_done("test_throughput");
}
