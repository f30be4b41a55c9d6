/* answer.c: what a user wants from the report: which lines to work on,
 * and how sure that is. Two views of certainty:
 *
 * - Stability: the ranking of every prefix of the profile's experiments (in
 *   the order they were run, file by file) at steps of a tenth, without a
 *   bootstrap (every ranking's key is analytic, rank.c); the top k has been
 *   stable over the last N experiments when every prefix from E - N on
 *   ranks the same top k in the same order.
 * - Separation: a rank is settled when its slope's 95% interval overlaps no
 *   other row's. Otherwise, intervals shrink as 1/sqrt(experiments), and
 *   experiments grow with runs: separating rows i and j, whose half-widths
 *   toward each other are h_i and h_j and whose slopes differ by g, takes
 *   R ((h_i + h_j) / g)^2 runs in all, R the runs so far.
 */
#include "answer.h"
#include "analysis.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether the first k rows of a and b name the same (line, point)s. */
static bool same_top(const struct cr_result *a, const struct cr_result *b,
                     unsigned k) {
  if (a->n_rows < k || b->n_rows < k)
    return false;
  for (unsigned i = 0; i < k; i++)
    if (a->rows[i].line != b->rows[i].line ||
        a->rows[i].point != b->rows[i].point)
      return false;
  return true;
}

/* Experiments over which the top k stayed as in the whole profile. */
static int stability(const struct cr_profile *p, const struct cr_options *o,
                     const struct cr_result *whole, unsigned k,
                     size_t *stable) {
  struct cr_options quick = *o;
  quick.replicates = 0; /* the keys need no bootstrap */
  struct cr_profile prefix = *p;
  size_t e = p->n_experiments;
  *stable = 0;
  for (int tenth = 9; tenth >= 1; tenth--) {
    size_t n = e * (size_t)tenth / 10;
    if (n == 0)
      break;
    prefix.n_experiments = n;
    struct cr_result r;
    if (cr_analyse_rows(&prefix, &quick, &r))
      return -1;
    bool same = same_top(&r, whole, k);
    cr_result_free(&r);
    if (!same)
      break;
    *stable = e - n;
  }
  return 0;
}

/* Runs needed in all to separate rows a (above) and b; -1 when their
 * slopes are too close for intervals to part. */
static long runs_to_separate(const struct cr_row *a, const struct cr_row *b,
                             unsigned runs) {
  double g = a->slope - b->slope;
  double h = (a->slope - a->slope_lo) + (b->slope_hi - b->slope);
  if (!(g > 1e-3) || !isfinite(h))
    return -1;
  double total = (double)(runs ? runs : 1) * (h / g) * (h / g);
  return total > 1e6 ? -1 : (long)ceil(total);
}

static bool overlap(const struct cr_row *a, const struct cr_row *b) {
  return !(a->slope_lo > b->slope_hi || b->slope_lo > a->slope_hi);
}

int cr_answer_explain(const struct cr_profile *p, const struct cr_options *o,
                      struct cr_result *r) {
  struct cr_answer *ans = &r->answer;
  memset(ans, 0, sizeof *ans);
  unsigned k = o->top < CR_TOP_MAX ? o->top : CR_TOP_MAX;
  ans->k = r->n_rows < k ? (unsigned)r->n_rows : k;
  if (ans->k == 0)
    return 0;
  if (stability(p, o, r, ans->k, &ans->stable))
    return -1;
  ans->top_set_settled = 1;
  for (unsigned i = 0; i < ans->k; i++) {
    const struct cr_row *a = &r->rows[i];
    bool known = !isnan(a->slope) && !isnan(a->slope_lo);
    ans->settled[i] = known;
    ans->more_runs[i] = 0;
    long worst = 0;
    for (size_t j = 0; j < r->n_rows; j++) {
      const struct cr_row *b = &r->rows[j];
      if (j == i || isnan(b->slope))
        continue;
      bool apart = known && !isnan(b->slope_lo) && !overlap(a, b);
      if (j >= ans->k && !apart)
        ans->top_set_settled = 0;
      if (apart)
        continue;
      ans->settled[i] = 0;
      long need = known
                      ? (a->slope >= b->slope ? runs_to_separate(a, b, r->runs)
                                              : runs_to_separate(b, a, r->runs))
                      : -1;
      long more = need < 0 ? -1 : need - (long)(r->runs ? r->runs : 1);
      if (more < 0 && need >= 0)
        more = 0;
      /* The hardest rival: unseparable beats any number. */
      if (ans->rival[i] == 0 || more < 0 || (worst >= 0 && more > worst)) {
        ans->rival[i] = j + 1;
        worst = more;
      }
    }
    ans->more_runs[i] = ans->settled[i] ? 0 : worst;
  }
  return 0;
}

int cr_analyse(const struct cr_profile *p, const struct cr_options *o,
               struct cr_result *out) {
  if (cr_analyse_rows(p, o, out))
    return -1;
  if (out->n_rows > 0 && o->top > 0 && cr_answer_explain(p, o, out))
    return -1;
  return 0;
}
