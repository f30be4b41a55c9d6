/* Ranking: by slope (default), by maximum and by minimum program speedup;
 * downward slopes are marked as contention.
 *
 * Four lines, delta 10000 per experiment, duration_s = 1e9 * (1 - y) so the
 * program speedups are exactly the y below (p_s/p_0 = duration_s/1e9):
 *   a.c:1  y = 0, 0, 0, 0, .6       mean .12; Sxy = .06+.03-.03+.24 = .30
 *                                    slope = .30/.625 = 0.48; max .6
 *   b.c:2  y = 0,-.05,-.1,-.15,-.2   slope -0.2; max 0; min -0.2
 *   c.c:3  y = 0,.125,.25,.375,.5    slope 0.5; max .5
 *   d.c:4  y = 0, .4, .4, .4, .4     mean .32; Sxy = .16-.02+0+.02+.04 = .2
 *                                    slope = .2/.625 = 0.32; max .4
 * (speedups 0, .25, .5, .75, 1; Sxx = .625)
 *   slope: c.c:3 (.5), a.c:1 (.48), d.c:4 (.32), b.c:2 (-.2)
 *   max:   a.c:1 (.6), c.c:3 (.5), d.c:4 (.4), b.c:2 (0)
 *   min:   b.c:2 (-.2), then the minimum-0 lines by name: a.c:1, c.c:3,
 *          d.c:4 */
#include "check.h"

static const double ys[4][5] = {{0, 0, 0, 0, .6},
                                {0, -.05, -.1, -.15, -.2},
                                {0, .125, .25, .375, .5},
                                {0, .4, .4, .4, .4}};
static const char *names[4] = {"a.c:1", "b.c:2", "c.c:3", "d.c:4"};

static char *build_profile(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  for (int l = 0; l < 4; l++)
    for (int k = 0; k < 5; k++)
      fprintf(f,
              "experiment\tselected=%s\tspeedup=%.2f\tduration=%.0f\n"
              "throughput-point\tname=p\tdelta=10000\n",
              names[l], k * 0.25, 1e9 * (1 - ys[l][k]));
  fclose(f);
  return buf;
}

static void check_order(enum cr_sort sort, const char *const *want) {
  struct fixture f;
  fixture_init(&f);
  f.o.sort = sort;
  char *text = build_profile();
  fixture_parse(&f, "rank.coz", text);
  free(text);
  fixture_analyse(&f);
  CHECK(f.r.n_rows == 4);
  for (size_t i = 0; i < 4 && i < f.r.n_rows; i++) {
    const char *got = f.p.lines[f.r.rows[i].line].name;
    if (strcmp(got, want[i]) != 0) {
      fprintf(stderr, "sort %s: rank %zu is %s, expected %s\n",
              cr_sort_name(sort), i + 1, got, want[i]);
      check_failures++;
    }
  }
  const struct cr_row *b = find_row(&f, "b.c:2", "p");
  const struct cr_row *a = find_row(&f, "a.c:1", "p");
  const struct cr_row *c = find_row(&f, "c.c:3", "p");
  const struct cr_row *d = find_row(&f, "d.c:4", "p");
  CHECK(a && b && c && d);
  if (a && b && c && d) {
    CHECK_NEAR(a->slope, 0.48, 1e-9);
    CHECK_NEAR(b->slope, -0.2, 1e-9);
    CHECK_NEAR(c->slope, 0.5, 1e-9);
    CHECK_NEAR(d->slope, 0.32, 1e-9);
    CHECK(b->contention);
    CHECK(!a->contention && !c->contention && !d->contention);
  }
  if (sort == CR_SORT_SLOPE) {
    char *out = render(&f, cr_write_text);
    CHECK_CONTAINS(out, "contention");
    CHECK_CONTAINS(out, "ranked by slope");
    free(out);
  }
  fixture_free(&f);
}

int main(void) {
  static const char *slope[] = {"c.c:3", "a.c:1", "d.c:4", "b.c:2"};
  static const char *max[] = {"a.c:1", "c.c:3", "d.c:4", "b.c:2"};
  static const char *min[] = {"b.c:2", "a.c:1", "c.c:3", "d.c:4"};
  check_order(CR_SORT_SLOPE, slope);
  check_order(CR_SORT_MAX, max);
  check_order(CR_SORT_MIN, min);
  enum cr_sort s;
  CHECK(cr_sort_parse("max", &s) == 0 && s == CR_SORT_MAX);
  CHECK(cr_sort_parse("area", &s) != 0);
  return check_done("test_rank");
}
