/* Pooled baselines: a speedup-0 experiment inserts no delay whichever
 * line it names, so every one of them is a baseline for every line that
 * runs throughout; a line that runs only in a phase keeps its own.
 *
 * Point p, durations 1e9 ns. Speedup-0 experiments (the pool):
 *   a.c:1  delta 100, 100;  c.c:3 (see below) delta 80 (selected-samples 0:
 *   outside c's phase, still a baseline of the program) and 90
 *   pool: 4e9 ns, 370 visits -> p0 = 4e9 / 370
 * b.c:2 has no speedup-0 experiment of its own: 4 speedups with deltas
 *   110, 120, 130, 140 -> y = 1 - (1e9/d) / (4e9/370) = 1 - 370/(4 d):
 *   .25: 1 - 370/440 = 0.1590909;  .5: 1 - 370/480 = 0.2291667
 *   .75: 1 - 370/520 = 0.2884615;  1:  1 - 370/560 = 0.3392857
 * c.c:3 runs in phases (its experiments with samples average >= 8, one
 *   has none): its baseline is its own, delta 90 (selected-samples 50),
 *   -> p0 = 1e9/90; speedups .25-1 at 99, 108, 117, 126 -> y = 1 - 90/d:
 *   .25: 0.0909091, .5: 0.1666667, .75: 0.2307692, 1: 0.2857143 */
#include "check.h"

#define EXP(line, s, d, extra)                                                 \
  "experiment\tselected=" line "\tspeedup=" s "\tduration=1000000000" extra    \
  "\n"                                                                         \
  "throughput-point\tname=p\tdelta=" d "\n"

static const char profile[] = "startup\ttime=1\tpid=7\n" EXP(
    "a.c:1", "0", "100", "") EXP("a.c:1", "0", "100", "")
    EXP("a.c:1", "0.25", "125", "") EXP("a.c:1", "0.5", "150", "")
        EXP("a.c:1", "0.75", "175", "") EXP("a.c:1", "1", "200", "") EXP(
            "b.c:2", "0.25", "110", "") EXP("b.c:2", "0.5", "120", "")
            EXP("b.c:2", "0.75", "130", "") EXP("b.c:2", "1", "140", "") EXP(
                "c.c:3", "0", "80", "\tselected-samples=0")
                EXP("c.c:3", "0", "90", "\tselected-samples=50") EXP(
                    "c.c:3", "0.25", "99",
                    "\tselected-samples=50") EXP("c.c:3", "0.5", "108",
                                                 "\tselected-samples=50")
                    EXP("c.c:3", "0.75", "117", "\tselected-samples=50") EXP(
                        "c.c:3", "1", "126",
                        "\tselected-samples=50") "shutdown\ttime=2\tpid=7\n";

int main(void) {
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, "pool.coz", profile);
  CHECK(f.p.malformed == 0);
  fixture_analyse(&f);
  CHECK(f.r.n_rows == 3 && f.r.n_dropped == 0);
  const struct cr_row *b = find_row(&f, "b.c:2", "p");
  const struct cr_row *c = find_row(&f, "c.c:3", "p");
  const struct cr_row *a = find_row(&f, "a.c:1", "p");
  CHECK(a && b && c);
  if (!a || !b || !c)
    return check_done("test_pool");
  CHECK(b->pooled_baseline && a->pooled_baseline && !c->pooled_baseline);
  CHECK(at(b, 0)->experiments == 4);
  CHECK(at(b, 0)->delta == 370);
  CHECK(b->n_obs == 4); /* its own experiments */
  CHECK_NEAR(y_at(b, 250), 0.1590909, 1e-6);
  CHECK_NEAR(y_at(b, 500), 0.2291667, 1e-6);
  CHECK_NEAR(y_at(b, 750), 0.2884615, 1e-6);
  CHECK_NEAR(y_at(b, 1000), 0.3392857, 1e-6);
  CHECK(!isnan(b->slope_lo) && b->slope_lo < b->slope &&
        b->slope < b->slope_hi);
  /* The phase line: its own baseline, the zero-sample one left out. */
  CHECK(at(c, 0)->experiments == 1 && at(c, 0)->delta == 90);
  CHECK_NEAR(y_at(c, 250), 0.0909091, 1e-6);
  CHECK_NEAR(y_at(c, 1000), 0.2857143, 1e-6);
  /* a.c:1's own two baselines are part of the pool, not counted twice. */
  CHECK(at(a, 0)->experiments == 4 && a->n_obs == 6);
  char *json = render(&f, cr_write_json);
  CHECK_CONTAINS(json, "\"baseline\": \"pooled\"");
  CHECK_CONTAINS(json, "\"baseline\": \"own\"");
  free(json);
  fixture_free(&f);
  return check_done("test_pool");
}
