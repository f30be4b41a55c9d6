/* Bad input: each malformed record is reported as `FILE:LINE: reason` and
 * skipped, the rest of the file is still analysed, messages are capped, and
 * hostile bytes in names are neutralised. */
#include "check.h"

#define GOOD_LINE(sp, delta)                                                   \
  "experiment\tselected=g.c:1\tspeedup=" sp "\tduration=1000000000\n"          \
  "throughput-point\tname=p\tdelta=" delta "\n"

int main(void) {
  struct fixture f;
  fixture_init(&f);
  fixture_parse(
      &f, "bad.coz",
      GOOD_LINE("0", "100")                                    /* lines 1-2 */
      "experiment\tselected=g.c:1\tspeedup=1.5\tduration=10\n" /* 3 */
      "throughput-point\tname=p\tdelta=5\n"                    /* 4 */
      "experiment\tspeedup=0.5\tduration=10\n"                 /* 5 */
      "experiment\tselected=g.c:1\tspeedup=0.5\tduration=-3\n" /* 6 */
      "experiment\tselected=g.c:1\tspeedup=x\tduration=10\n"   /* 7 */
      GOOD_LINE("0.25", "110")                                 /* 8-9 */
      "throughput-point\tname=p\tdelta=12abc\n"                /* 10 */
      "throughput-point\tname=p\n"                             /* 11 */
      "latency-point\tname=q\tarrivals=1\tdepartures=1\n"      /* 12 */
      "samples\tlocation=g.c:1\tcount=-1\n"                    /* 13 */
      "runtime\tpid=3\n"                                       /* 14 */
      "bogus\tkey=value\n"                                     /* 15 */
      "experiment\tselected\tspeedup=0\n"                      /* 16 */
      "{\"type\":\"experiment\",\"selected\":\"g.c:1\"\n"      /* 17 */
      "[1,2]\n"                                                /* 18 */
      "{\"type\":\"samples\",\"location\":[1],\"count\":1}\n"  /* 19 */
      "{\"selected\":\"g.c:1\"}\n"                             /* 20 */
      "\n"                                                     /* 21 */
      GOOD_LINE("0.5", "125")                                  /* 22-23 */
      "throughput-point\tname=p\tdelta=99999999999999999999999\n" /* 24 */
      GOOD_LINE("0.75", "140")                                    /* 25-26 */
      GOOD_LINE("1", "150"));                                     /* 27-28 */
  const char *m = f.messages;
  CHECK_CONTAINS(m, "bad.coz:3: speedup= must be a number between 0 and 1");
  /* Line 4 follows a rejected experiment: it must not attach to line 1's. */
  CHECK_CONTAINS(m, "bad.coz:4: throughput-point record is not preceded by "
                    "an experiment");
  CHECK_CONTAINS(m, "bad.coz:5: experiment record has no selected=");
  CHECK_CONTAINS(m, "bad.coz:6: duration= must be a non-negative number");
  CHECK_CONTAINS(m, "bad.coz:7: speedup= must be a number between 0 and 1");
  CHECK_CONTAINS(m, "bad.coz:10: delta=12abc is not a non-negative integer");
  CHECK_CONTAINS(m, "bad.coz:11: throughput-point record has no delta=");
  CHECK_CONTAINS(m, "bad.coz:12: difference= must be a number");
  CHECK_CONTAINS(m, "bad.coz:13: count=-1 is not a non-negative integer");
  CHECK_CONTAINS(m, "bad.coz:14: runtime record needs time= or point=");
  CHECK_CONTAINS(m, "bad.coz:15: unknown record type 'bogus'");
  CHECK_CONTAINS(m, "bad.coz:16: field 'selected' is not key=value");
  CHECK_CONTAINS(m, "bad.coz:17: invalid JSON");
  CHECK_CONTAINS(m, "bad.coz:18: unknown record type '[1,2]'");
  CHECK_CONTAINS(m, "bad.coz:19: key 'location' must be a string or a number");
  CHECK_CONTAINS(m, "bad.coz:20: JSON record has no \"type\"");
  CHECK_CONTAINS(m, "bad.coz:24: delta=99999999999999999999999 is not");
  CHECK(!strstr(m, "bad.coz:21:")); /* an empty line is not an error */
  CHECK(f.p.malformed == 17);
  /* Every good record survived: 5 experiments, a full plot. */
  CHECK(f.p.n_experiments == 5);
  fixture_analyse(&f);
  const struct cr_row *row = find_row(&f, "g.c:1", "p");
  CHECK(row && row->n_valid == 5);
  CHECK(row && fabs(y_at(row, 500) - 0.2) < 1e-9);
  fixture_free(&f);

  /* The message cap: 30 bad records, 5 shown, then one summary line. */
  fixture_init(&f);
  {
    char text[2048] = "";
    for (int i = 0; i < 30; i++)
      strcat(text, "nonsense\n");
    struct cr_diag d = {f.diag_out, 5};
    cr_profile_parse(&f.p, "many.coz", text, strlen(text), &d);
    fflush(f.diag_out);
    int lines = 0;
    for (const char *c = f.messages; *c; c++)
      lines += *c == '\n';
    CHECK(lines == 6);
    CHECK_CONTAINS(f.messages, "many.coz:5: unknown record type");
    CHECK_CONTAINS(f.messages, "many.coz: 25 more malformed records not shown");
  }
  fixture_free(&f);

  /* Control characters, NUL and invalid UTF-8 in a name become '?'; the
   * record is still used. */
  fixture_init(&f);
  {
    static const char text[] =
        "experiment\tselected=a\x1b[31m\xff.c:1\tspeedup=0\tduration=5\n"
        "throughput-point\tname=p\0q\tdelta=1\n";
    struct cr_diag d = {f.diag_out, 100};
    cr_profile_parse(&f.p, "bytes.coz", text, sizeof text - 1, &d);
    CHECK(f.p.malformed == 0);
    CHECK(f.p.n_lines == 1 && strcmp(f.p.lines[0].name, "a?[31m?.c:1") == 0);
    CHECK(f.p.n_points == 1 && strcmp(f.p.points[0].name, "p?q") == 0);
  }
  fixture_free(&f);
  return check_done("test_malformed");
}
