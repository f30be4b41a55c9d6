/* Both of Coz's formats, and ours: the same experiments written as Coz's
 * legacy tab-separated records (with the old record names progress-point
 * and throughput_point), as Coz's JSON lines (same keys plus "type"), and
 * in our format (extra keys pid, selected-samples, `runtime point=` lines)
 * give the same analysis. */
#include "check.h"
#include "causal/source.h"

/* Throughput point p on line f.c:9: baseline (1e9, 100), then speedups .25
 * .5 .75 1 with deltas 110 125 140 150: y = .0909.., .2, .2857.., .3333..
 * (see test_throughput.c for the arithmetic). Latency point q on the same
 * experiments: baseline L = 2, arrivals 100 -> W0 = 2e7; at .5, L = 1.6 ->
 * y = 1 - 1.6/2 = 0.2. */
static const char coz_legacy[] =
    "startup\ttime=1427223983237973526\n"
    "experiment\tselected=f.c:9\tspeedup=0.00\tduration=1000000000\t"
    "selected-samples=0\n"
    "progress-point\tname=p\ttype=source\tdelta=100\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=2\n"
    "experiment\tselected=f.c:9\tspeedup=0.25\tduration=1000000000\t"
    "selected-samples=3\n"
    "progress-point\tname=p\ttype=source\tdelta=110\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.8\n"
    "experiment\tselected=f.c:9\tspeedup=0.50\tduration=1000000000\t"
    "selected-samples=3\n"
    "throughput_point\tname=p\tdelta=125\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.6\n"
    "experiment\tselected=f.c:9\tspeedup=0.75\tduration=1000000000\t"
    "selected-samples=3\n"
    "throughput-point\tname=p\tdelta=140\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.4\n"
    "experiment\tselected=f.c:9\tspeedup=1.00\tduration=1000000000\t"
    "selected-samples=3\n"
    "throughput-point\tname=p\tdelta=150\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.2\n"
    "runtime\ttime=500173637\n"
    "samples\tlocation=f.c:9\tcount=1\n"
    "shutdown\ttime=1427223983737973526\n";

/* The same as JSON lines; numbers may be JSON numbers or strings, and
 * legacy/JSON lines may be mixed in one file. */
static const char coz_json[] =
    "{\"type\":\"startup\",\"time\":1427223983237973526}\n"
    "{\"type\":\"experiment\",\"selected\":\"f.c:9\",\"speedup\":0,"
    "\"duration\":1000000000,\"selected-samples\":0}\n"
    "{\"type\":\"progress-point\",\"name\":\"p\",\"delta\":100}\n"
    "{\"type\":\"latency-point\",\"name\":\"q\",\"arrivals\":100,"
    "\"departures\":100,\"difference\":2}\n"
    "{\"type\":\"experiment\",\"selected\":\"f.c:9\",\"speedup\":0.25,"
    "\"duration\":1000000000,\"selected-samples\":3}\n"
    "{\"type\":\"throughput-point\",\"name\":\"p\",\"delta\":\"110\"}\n"
    "{\"type\":\"latency-point\",\"name\":\"q\",\"arrivals\":100,"
    "\"departures\":100,\"difference\":1.8}\n"
    "{\"type\":\"experiment\",\"selected\":\"f.c:9\",\"speedup\":\"0.5\","
    "\"duration\":1.0e9,\"selected-samples\":3}\n"
    "{\"type\":\"throughput_point\",\"name\":\"p\",\"delta\":125}\n"
    "{\"type\":\"latency-point\",\"name\":\"q\",\"arrivals\":100,"
    "\"departures\":100,\"difference\":1.6}\n"
    "experiment\tselected=f.c:9\tspeedup=0.75\tduration=1000000000\n"
    "{\"type\":\"throughput-point\",\"name\":\"p\",\"delta\":140}\n"
    "{\"type\":\"latency-point\",\"name\":\"q\",\"arrivals\":100,"
    "\"departures\":100,\"difference\":1.4}\r\n"
    "{\"type\":\"experiment\",\"selected\":\"f.c:9\",\"speedup\":1,"
    "\"duration\":1000000000,\"selected-samples\":3}\n"
    "{\"type\":\"throughput-point\",\"name\":\"p\",\"delta\":150}\n"
    "{\"type\":\"latency-point\",\"name\":\"q\",\"arrivals\":100,"
    "\"departures\":100,\"difference\":1.2}\n"
    "{\"type\":\"runtime\",\"time\":500173637}\n"
    "{\"type\":\"samples\",\"location\":\"f.c:9\",\"count\":1}\n"
    "{\"type\":\"shutdown\",\"time\":1427223983737973526}\n";

/* Ours (contract 5): pid everywhere, runtime point= totals, deltas. */
static const char ours[] =
    "startup\ttime=1\tpid=42\n"
    "experiment\tselected=f.c:9\tspeedup=0\tduration=1000000000\t"
    "selected-samples=0\tpid=42\n"
    "throughput-point\tname=p\tdelta=100\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=2\n"
    "experiment\tselected=f.c:9\tspeedup=0.25\tduration=1000000000\t"
    "selected-samples=3\tpid=42\n"
    "throughput-point\tname=p\tdelta=110\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.8\n"
    "samples\tlocation=f.c:9\tcount=1\n"
    "runtime\ttime=300000000\tpid=42\n"
    "experiment\tselected=f.c:9\tspeedup=0.5\tduration=1000000000\t"
    "selected-samples=3\tpid=42\n"
    "throughput-point\tname=p\tdelta=125\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.6\n"
    "experiment\tselected=f.c:9\tspeedup=0.75\tduration=1000000000\t"
    "selected-samples=3\tpid=42\n"
    "throughput-point\tname=p\tdelta=140\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.4\n"
    "experiment\tselected=f.c:9\tspeedup=1\tduration=1000000000\t"
    "selected-samples=3\tpid=42\n"
    "throughput-point\tname=p\tdelta=150\n"
    "latency-point\tname=q\tarrivals=100\tdepartures=100\tdifference=1.2\n"
    "runtime\ttime=200173637\tpid=42\n"
    "runtime\tpoint=p\tkind=throughput\tvisits=900\tarrivals=0\t"
    "departures=0\tpid=42\n"
    "runtime\tpoint=q\tkind=latency\tvisits=0\tarrivals=700\t"
    "departures=700\tpid=42\n"
    "shutdown\ttime=2\tpid=42\n";

static void check_profile(const char *name, const char *text) {
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, name, text);
  if (f.p.malformed)
    fprintf(stderr, "%s: %s", name, f.messages);
  CHECK(f.p.malformed == 0);
  CHECK(f.p.n_experiments == 5);
  CHECK(f.p.runs == 1);
  fixture_analyse(&f);
  CHECK(f.r.n_rows == 2);
  const struct cr_row *p = find_row(&f, "f.c:9", "p");
  const struct cr_row *q = find_row(&f, "f.c:9", "q");
  CHECK(p && q);
  if (p && q) {
    CHECK(p->kind == CR_THROUGHPUT && q->kind == CR_LATENCY);
    CHECK_NEAR(y_at(p, 250), 0.0909090909, 1e-9);
    CHECK_NEAR(y_at(p, 500), 0.2, 1e-9);
    CHECK_NEAR(y_at(p, 750), 0.2857142857, 1e-9);
    CHECK_NEAR(y_at(p, 1000), 0.3333333333, 1e-9);
    CHECK_NEAR(y_at(q, 500), 0.2, 1e-9);
    CHECK_NEAR(y_at(q, 1000), 0.4, 1e-9);
    /* The baseline's selected-samples is 0: no phase correction. */
    CHECK(!p->phase_applied);
  }
  fixture_free(&f);
}

int main(void) {
  check_profile("coz-legacy.coz", coz_legacy);
  check_profile("coz-json.coz", coz_json);
  check_profile("ours.coz", ours);

  /* Our runtime totals are kept per point and kind. */
  struct fixture f;
  fixture_init(&f);
  fixture_parse(&f, "ours.coz", ours);
  long p = cr_profile_find_point(&f.p, "p");
  CHECK(p >= 0 && f.p.points[p].visits == 900);
  CHECK_NEAR(f.p.runtime_ns, 500173637, 1e-3);
  fixture_free(&f);

  /* Line names: "file:line", and "file:first-last" (a COZ_FIXED_LINE
   * range) stands at its first line. */
  size_t len = 0;
  CHECK(cr_location_split("src/a.c:12", &len) == 12 && len == 7);
  CHECK(cr_location_split("src/a.c:12-40", &len) == 12 && len == 7);
  CHECK(cr_location_split("src/a.c:12-", &len) == 0);
  CHECK(cr_location_split("src/a.c:-4", &len) == 0);
  CHECK(cr_location_split("src/a.c:12-4x", &len) == 0);
  CHECK(cr_location_split("src/a.c:1x", &len) == 0);
  return check_done("test_formats");
}
