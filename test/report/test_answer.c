/* The answer: how long the top k has been stable, which ranks are settled
 * by their intervals, and how many more runs an unsettled one needs. */
#include "check.h"

#include <stdint.h>

static uint64_t lcg_state;
static double noise(void) { /* uniform in [-1, 1) */
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(lcg_state >> 11) * 0x1p-52 - 1;
}

/* `per` experiments of exp_ns per speedup 0, .25, .5, .75, 1 per line,
 * lines interleaved; line i's true program speedup is slopes[i] * s; +-10%
 * noise per experiment. */
static double exp_ns = 1e8;
static void add_lines(FILE *f, const double *slopes, int n_lines, int per) {
  static const char *names[] = {"a.c:1", "b.c:2", "c.c:3", "d.c:4"};
  for (int r = 0; r < per; r++)
    for (int k = 0; k <= 4; k++)
      for (int l = 0; l < n_lines; l++) {
        double rate = 1e-5 / (1 - slopes[l] * 0.25 * k);
        fprintf(f,
                "experiment\tselected=%s\tspeedup=%.2f\tduration=%.0f\n"
                "throughput-point\tname=p\tdelta=%.0f\n",
                names[l], 0.25 * k, exp_ns,
                rate * exp_ns * (1 + 0.1 * noise()));
      }
}

static void analyse(struct fixture *fx, const char *text) {
  fixture_init(fx);
  fixture_parse(fx, "answer.coz", text);
  fixture_analyse(fx);
}

int main(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f;

  /* Apart: 0.6, 0.3, 0.1, 0.0 with 12 experiments per speedup. */
  lcg_state = 1;
  f = open_memstream(&buf, &len);
  add_lines(f, (const double[]){0.6, 0.3, 0.1, 0.0}, 4, 12);
  fclose(f);
  struct fixture apart;
  analyse(&apart, buf);
  free(buf);
  const struct cr_answer *a = &apart.r.answer;
  CHECK(a->k == 3);
  CHECK(a->settled[0] && a->settled[1] && a->settled[2]);
  CHECK(a->top_set_settled);
  CHECK(a->stable >= apart.p.n_experiments / 2);
  char *text = render(&apart, cr_write_text);
  CHECK_CONTAINS(text, "answer: the top 3 have been the same over the last");
  CHECK_CONTAINS(text, "all are settled");
  free(text);
  char *json = render(&apart, cr_write_json);
  CHECK_CONTAINS(json, "\"top_set_settled\": true");
  free(json);
  fixture_free(&apart);

  /* Close: ranks 2 and 3 at 0.30 and 0.28, 3 experiments per speedup. */
  lcg_state = 2;
  buf = NULL;
  f = open_memstream(&buf, &len);
  add_lines(f, (const double[]){0.6, 0.30, 0.28, 0.0}, 4, 3);
  fclose(f);
  struct fixture close;
  analyse(&close, buf);
  free(buf);
  a = &close.r.answer;
  CHECK(a->k == 3 && !a->settled[1] && !a->settled[2]);
  CHECK(a->rival[1] == 3 || a->rival[1] == 4);
  text = render(&close, cr_write_text);
  CHECK_CONTAINS(text, "rank 2 overlaps");
  printf("%s", text);
  free(text);
  fixture_free(&close);

  /* A late change: 90% of the experiments show b first, the last tenth
   * (heavier: each 4x as long) show a far ahead: the whole profile ranks a
   * first, and no stretch of the end has been stable. (As long as the
   * others, they left a's slope above b's but its conservative slope
   * below: a mixed 0.2 and 0.95 in every speedup, 0.75 +- 0.69.) */
  lcg_state = 3;
  buf = NULL;
  f = open_memstream(&buf, &len);
  add_lines(f, (const double[]){0.2, 0.5}, 2, 9);
  exp_ns = 4e8;
  add_lines(f, (const double[]){0.95, 0.0}, 2, 1);
  exp_ns = 1e8;
  fclose(f);
  struct fixture late;
  fixture_init(&late);
  late.o.top = 1;
  fixture_parse(&late, "late.coz", buf);
  fixture_analyse(&late);
  free(buf);
  CHECK(late.r.n_rows == 2);
  if (late.r.n_rows == 2)
    printf("late change: rank 1 is %s, stable over %zu\n",
           late.p.lines[late.r.rows[0].line].name, late.r.answer.stable);
  CHECK(late.r.n_rows == 2 &&
        strcmp(late.p.lines[late.r.rows[0].line].name, "a.c:1") == 0);
  CHECK(late.r.answer.k == 1 && late.r.answer.stable == 0);
  fixture_free(&late);
  return check_done("test_answer");
}
