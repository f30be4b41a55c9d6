/* Latency through Little's law: W = L / lambda with lambda = arrivals /
 * duration and L the duration-weighted mean of the in-flight count; the
 * program speedup is 1 - W_s / W_0 (lower latency is a speedup). */
#include "check.h"

/* Line b.c:20, latency point "req" (COZ_BEGIN/COZ_END).
 *   speedup 0:   A (dur 1e9, arrivals 100, difference 4)
 *              + B (dur 3e9, arrivals 300, difference 6)
 *     lambda = 400 / 4e9 = 1e-7 per ns
 *     L = (4*1e9 + 6*3e9) / 4e9 = 5.5  (the plain mean 5 would be wrong)
 *     W0 = 5.5 / 1e-7 = 5.5e7 ns
 *   speedup .25: (1e9, 100, 5)    -> W = 5e7   -> y = 1 - 5/5.5 = 0.0909090909
 *   speedup .5:  (1e9, 100, 4.4)  -> W = 4.4e7 -> y = 1 - 4.4/5.5 = 0.2
 *   speedup .75: (2e9, 200, 3.3)  -> lambda 1e-7, W = 3.3e7 -> y = 0.4
 *   speedup 1:   (1e9, 100, 2.75) -> W = 2.75e7 -> y = 0.5
 * Departures do not enter Little's law; they are parsed and checked. */
static const char profile[] =
    "experiment\tselected=b.c:20\tspeedup=0\tduration=1000000000\n"
    "latency-point\tname=req\tarrivals=100\tdepartures=98\tdifference=4\n"
    "experiment\tselected=b.c:20\tspeedup=0\tduration=3000000000\n"
    "latency-point\tname=req\tarrivals=300\tdepartures=301\tdifference=6\n"
    "experiment\tselected=b.c:20\tspeedup=0.25\tduration=1000000000\n"
    "latency-point\tname=req\tarrivals=100\tdepartures=100\tdifference=5\n"
    "experiment\tselected=b.c:20\tspeedup=0.5\tduration=1000000000\n"
    "latency-point\tname=req\tarrivals=100\tdepartures=100\tdifference=4.4\n"
    "experiment\tselected=b.c:20\tspeedup=0.75\tduration=2000000000\n"
    "latency-point\tname=req\tarrivals=200\tdepartures=200\tdifference=3.3\n"
    "experiment\tselected=b.c:20\tspeedup=1\tduration=1000000000\n"
    "latency-point\tname=req\tarrivals=100\tdepartures=100\tdifference=2.75\n";

int main(void) {
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, "lat.coz", profile);
  CHECK(f.p.malformed == 0);
  fixture_analyse(&f);
  const struct cr_row *row = find_row(&f, "b.c:20", "req");
  CHECK(row != NULL);
  if (!row)
    return check_done("test_latency");
  CHECK(row->kind == CR_LATENCY);
  CHECK_NEAR(at(row, 0)->difference, 5.5, 1e-12);
  CHECK_NEAR(at(row, 0)->value, 5.5e7, 1e-3);
  CHECK_NEAR(y_at(row, 250), 0.0909090909, 1e-9);
  CHECK_NEAR(y_at(row, 500), 0.2, 1e-9);
  CHECK_NEAR(y_at(row, 750), 0.4, 1e-9);
  CHECK_NEAR(y_at(row, 1000), 0.5, 1e-9);
  CHECK_NEAR(row->pred[1], 0.2, 1e-9);

  char *json = render(&f, cr_write_json);
  CHECK_CONTAINS(json, "\"kind\": \"latency\"");
  CHECK_CONTAINS(json, "\"latency_ns\": 55000000");
  free(json);
  fixture_free(&f);

  /* A latency point with no arrivals at speedup 0 has no baseline:
   * lambda = 0 makes W undefined. */
  fixture_init(&f);
  fixture_parse(&f, "lat0.coz",
                "experiment\tselected=b.c:20\tspeedup=0\tduration=1000\n"
                "latency-point\tname=req\tarrivals=0\tdepartures=0\t"
                "difference=0\n"
                "experiment\tselected=b.c:20\tspeedup=0.5\tduration=1000\n"
                "latency-point\tname=req\tarrivals=3\tdepartures=3\t"
                "difference=1\n");
  fixture_analyse(&f);
  CHECK(f.r.n_rows == 0);
  CHECK(f.r.n_dropped == 1 && f.r.dropped[0].drop == CR_NO_BASELINE);
  fixture_free(&f);
  return check_done("test_latency");
}
