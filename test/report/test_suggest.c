/* Candidate progress points: the main report leaves them out and says to
 * run `coz-report suggest`; cr_suggest ranks them steadiest first, with
 * ready-to-paste options; the analysis with a candidate as --point (the
 * suggest preview) ranks lines by it. Hand-made profiles. */
#include "causal/suggest.h"
#include "check.h"

#include <stdarg.h>

static void append(char **buf, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  *buf = realloc(*buf, *len + (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *len += (size_t)n;
}

/* Ten experiments on each of five speedups of line /src/app/main.c:11,
 * 1 s of effective duration each at speedup 0, 100 samples of work each.
 * Candidates:
 *  /src/app/main.c:10  1000 visits per experiment at speedup 0, its rate
 *                      rising by 40% of the speedup (the line's effect);
 *  /src/app/worker.c:20 alternately 500 and 1500;
 *  /src/lib/main.c:5    one visit per experiment (steady, but rare);
 *  /src/app/util.c:7    reached once before the experiments, never after.
 * With `real`, also a point of the program's own, p. */
static char *profile(int real) {
  char *b = NULL;
  size_t n = 0;
  append(&b, &n, "startup\ttime=1\tpid=7\n");
  for (int i = 0; i < 50; i++) {
    int s = (i % 5) * 25; /* percent */
    double dur = 1e9 * (1 - 0.4 * s / 100.0);
    append(&b, &n,
           "experiment\tselected=/src/app/main.c:11\tspeedup=%.2f\t"
           "duration=%.0f\tselected-samples=100\tpid=7\n",
           s / 100.0, dur);
    append(&b, &n,
           "throughput-point\tname=/src/app/main.c:10\tdelta=%d\t"
           "candidate=1\n",
           1000 + (i % 2));
    append(&b, &n,
           "throughput-point\tname=/src/app/worker.c:20\tdelta=%d\t"
           "candidate=1\n",
           i % 2 ? 1500 : 500);
    append(&b, &n,
           "throughput-point\tname=/src/lib/main.c:5\tdelta=1\t"
           "candidate=1\n");
    append(&b, &n,
           "throughput-point\tname=/src/app/util.c:7\tdelta=0\t"
           "candidate=1\n");
    if (real)
      append(&b, &n, "throughput-point\tname=p\tdelta=1000\n");
    /* The same work in every experiment: 100 samples after each. */
    append(&b, &n, "samples\tlocation=/src/app/main.c:11\tcount=100\n");
  }
  append(&b, &n, "runtime\ttime=50000000000\tpid=7\n");
  append(&b, &n,
         "runtime\tpoint=/src/app/main.c:10\tkind=throughput\t"
         "visits=60000\tcandidate=1\tpid=7\n");
  append(&b, &n, "shutdown\ttime=2\tpid=7\n");
  return b;
}

static void load(struct fixture *f, int real, const char *point) {
  fixture_init(f);
  char *text = profile(real);
  fixture_parse(f, "s.coz", text);
  free(text);
  f->p.files_read = 1;
  f->o.point = point;
  fixture_analyse(f);
}

/* A server whose load comes and goes: 40 experiments of 1 s at speedup 0,
 * alternately busy (100 samples) and quiet (10). /srv/req.c:5 counts
 * requests (10 per sample of work); /srv/clock.c:9 is a timer's tick, 50
 * per second whatever the program does: steady in time, deaf to work. */
static char *server_profile(void) {
  char *b = NULL;
  size_t n = 0;
  append(&b, &n, "startup\ttime=1\tpid=7\n");
  for (int i = 0; i < 40; i++) {
    int samples = i % 2 ? 10 : 100;
    append(&b, &n,
           "experiment\tselected=/srv/req.c:4\tspeedup=0\t"
           "duration=1000000000\tselected-samples=1\tpid=7\n");
    append(&b, &n,
           "throughput-point\tname=/srv/req.c:5\tdelta=%d\tcandidate=1\n",
           10 * samples);
    append(&b, &n,
           "throughput-point\tname=/srv/clock.c:9\tdelta=50\tcandidate=1\n");
    append(&b, &n, "samples\tlocation=/srv/req.c:4\tcount=%d\n", samples);
  }
  return b;
}

static const struct cr_candidate *named(const struct cr_suggestions *s,
                                        const struct cr_profile *p,
                                        const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(p->points[s->c[i].point].name, name) == 0)
      return &s->c[i];
  return NULL;
}

int main(void) {
  struct fixture f;
  struct cr_suggestions s;

  /* Only candidates: nothing plotted, and the reason says what to do. */
  load(&f, 0, NULL);
  CHECK(f.messages_len == 0);
  CHECK(f.p.n_points == 4);
  for (size_t i = 0; i < f.p.n_points; i++)
    CHECK(f.p.points[i].candidate);
  CHECK(f.r.n_rows == 0 && f.r.n_dropped == 0);
  CHECK(f.r.guidance.reason == CR_G_ONLY_CANDIDATES);
  CHECK_CONTAINS(f.r.guidance.message, "no progress point");
  CHECK_CONTAINS(f.r.guidance.message, "coz-report suggest");
  char *json = render(&f, cr_write_json);
  CHECK_CONTAINS(json, "\"reason\": \"only-candidates\"");
  free(json);
  char *text = render(&f, cr_write_text);
  CHECK_CONTAINS(text, "run `coz-report suggest`");
  free(text);

  /* The ranking: steady and frequent first, counting noise ranks a rare
   * steady one below an unsteady frequent one, never-advanced last. */
  CHECK(cr_suggest(&f.p, &s) == 0);
  CHECK(s.n == 4 && s.real_points == 0);
  const char *order[] = {"/src/app/main.c:10", "/src/app/worker.c:20",
                         "/src/lib/main.c:5", "/src/app/util.c:7"};
  for (size_t i = 0; i < 4 && i < s.n; i++)
    CHECK(strcmp(f.p.points[s.c[i].point].name, order[i]) == 0);
  /* FILE: the shortest trailing part no other file of the profile ends
   * with (two main.c). */
  const struct cr_candidate *c = named(&s, &f.p, "/src/app/main.c:10");
  CHECK(c && strcmp(c->option, "--coz-progress=app/main.c:10") == 0);
  CHECK(c && c->experiments == 50 && c->advanced == 50);
  /* Visits per second over the run: 60000 in 50 s. */
  CHECK(c && fabs(c->per_s - 1200) < 1e-6);
  /* Spread over the ten baselines only (their durations are equal). */
  CHECK(c && c->spread < 0.001);
  c = named(&s, &f.p, "/src/app/worker.c:20");
  CHECK(c && strcmp(c->option, "--coz-progress=worker.c:20") == 0);
  /* No run totals: its rate over the experiments; 1000 per experiment. */
  CHECK(c && fabs(c->visits_per_exp - 1000) < 1e-6);
  CHECK(c && c->spread > 0.4 && c->spread < 0.6);
  c = named(&s, &f.p, "/src/lib/main.c:5");
  CHECK(c && strcmp(c->option, "--coz-progress=lib/main.c:5") == 0);
  CHECK(c && c->noise >= 1);
  c = named(&s, &f.p, "/src/app/util.c:7");
  CHECK(c && c->advanced == 0 && isinf(c->noise));
  cr_suggestions_free(&s);
  fixture_free(&f);

  /* A timer's tick is not progress: judged per sample of work, the
   * request counter is the steady one. */
  fixture_init(&f);
  text = server_profile();
  fixture_parse(&f, "srv.coz", text);
  free(text);
  CHECK(cr_suggest(&f.p, &s) == 0);
  CHECK(s.n == 2 && strcmp(f.p.points[s.c[0].point].name, "/srv/req.c:5") == 0);
  c = named(&s, &f.p, "/srv/req.c:5");
  CHECK(c && c->spread < 0.001);
  c = named(&s, &f.p, "/srv/clock.c:9");
  CHECK(c && c->spread > 0.5);
  cr_suggestions_free(&s);
  fixture_free(&f);

  /* The preview: the analysis with the best candidate as the point ranks
   * the line by it (slope 0.4 by construction). */
  load(&f, 0, "/src/app/main.c:10");
  CHECK(f.r.n_rows == 1);
  const struct cr_row *row = find_row(&f, "/src/app/main.c:11", NULL);
  CHECK(row && fabs(row->slope - 0.4) < 0.01);
  fixture_free(&f);

  /* A point of the program's own: the report ranks by it alone, and
   * suggest counts it. */
  load(&f, 1, NULL);
  CHECK(f.r.n_rows == 1);
  for (size_t i = 0; i < f.r.n_rows; i++)
    CHECK(strcmp(f.p.points[f.r.rows[i].point].name, "p") == 0);
  CHECK(cr_suggest(&f.p, &s) == 0);
  CHECK(s.n == 4 && s.real_points == 1);
  cr_suggestions_free(&s);
  fixture_free(&f);

  /* A profile without candidates: nothing to suggest. */
  fixture_init(&f);
  fixture_parse(&f, "r.coz",
                "experiment\tselected=a.c:1\tspeedup=0\tduration=1000\n"
                "throughput-point\tname=p\tdelta=3\n");
  CHECK(cr_suggest(&f.p, &s) == 0);
  CHECK(s.n == 0 && s.real_points == 1);
  cr_suggestions_free(&s);
  fixture_free(&f);
  return check_done("test_suggest");
}
