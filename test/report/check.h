/* check.h: tiny assertion helpers and profile fixtures for coz-report's
 * unit tests. Every failed check prints FILE:LINE and the numbers, and the
 * test exits non-zero at the end. */
#ifndef COZ_REPORT_TEST_CHECK_H
#define COZ_REPORT_TEST_CHECK_H

#include "causal/analysis.h"
#include "causal/answer.h"
#include "causal/out_html.h"
#include "causal/out_json.h"
#include "causal/out_text.h"
#include "causal/profile_parse.h"
#include "causal/profile_store.h"
#include "causal/rank.h"
#include "causal/source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                  \
  do {                                                                         \
    double a_ = (a), b_ = (b);                                                 \
    if (!(fabs(a_ - b_) <= (tol))) {                                           \
      fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g (+-%g)\n", __FILE__,    \
              __LINE__, #a, a_, b_, (double)(tol));                            \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_CONTAINS(hay, needle)                                            \
  do {                                                                         \
    const char *h_ = (hay), *n_ = (needle);                                    \
    if (!h_ || !strstr(h_, n_)) {                                              \
      fprintf(stderr, "%s:%d: '%s' not found in:\n%s\n", __FILE__, __LINE__,   \
              n_, h_ ? h_ : "(null)");                                         \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

static inline int check_done(const char *name) {
  if (check_failures)
    fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
  else
    printf("%s: all checks passed\n", name);
  return check_failures ? 1 : 0;
}

/* A profile parsed from a string, with the messages it produced. */
struct fixture {
  struct cr_profile p;
  struct cr_options o;
  struct cr_result r;
  char *messages;
  size_t messages_len;
  FILE *diag_out;
};

static inline void fixture_init(struct fixture *f) {
  memset(f, 0, sizeof *f);
  cr_profile_init(&f->p);
  cr_options_default(&f->o);
  f->diag_out = open_memstream(&f->messages, &f->messages_len);
}

static inline void fixture_parse(struct fixture *f, const char *name,
                                 const char *text) {
  struct cr_diag d = {f->diag_out, 100};
  cr_profile_parse(&f->p, name, text, strlen(text), &d);
  fflush(f->diag_out);
}

static inline void fixture_analyse(struct fixture *f) {
  if (cr_analyse(&f->p, &f->o, &f->r) != 0) {
    fprintf(stderr, "cr_analyse failed\n");
    exit(2);
  }
}

static inline void fixture_free(struct fixture *f) {
  cr_result_free(&f->r);
  cr_profile_free(&f->p);
  fclose(f->diag_out);
  free(f->messages);
}

/* The kept row of line `loc` (and point `point` if not NULL), or NULL. */
static inline const struct cr_row *
find_row(const struct fixture *f, const char *loc, const char *point) {
  for (size_t i = 0; i < f->r.n_rows; i++) {
    const struct cr_row *r = &f->r.rows[i];
    if (strcmp(f->p.lines[r->line].name, loc) == 0 &&
        (!point || strcmp(f->p.points[r->point].name, point) == 0))
      return r;
  }
  return NULL;
}

/* The measure of `row` at `permille`, or NULL. */
static inline const struct cr_measure *at(const struct cr_row *row,
                                          int permille) {
  for (size_t i = 0; row && i < row->n_m; i++)
    if (row->m[i].speedup == permille)
      return &row->m[i];
  return NULL;
}

/* y of the measure at `permille`, NAN when absent. */
static inline double y_at(const struct cr_row *row, int permille) {
  const struct cr_measure *m = at(row, permille);
  return m && m->valid ? m->y : NAN;
}

/* Renders the analysed fixture with one output into a string (free it). */
static inline char *render(struct fixture *f,
                           int (*out)(FILE *, const struct cr_report *)) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  const char *in[] = {"mem.coz"};
  const char *dirs[] = {"."};
  struct cr_report rep = {&f->p, &f->o, &f->r, in, 1, dirs, 1, 1};
  out(m, &rep);
  fclose(m);
  return buf;
}

#endif /* COZ_REPORT_TEST_CHECK_H */
