/* out_text.c: the ranked table printed by default. */
#include "out_text.h"
#include "rank.h"

#include <math.h>
#include <string.h>

static const char *const spark[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                     "\u2585", "\u2586", "\u2587", "\u2588"};

static void pct(char *buf, size_t n, double v) {
  if (isnan(v))
    snprintf(buf, n, "n/a");
  else
    snprintf(buf, n, "%+.1f%%", 100 * v);
}

/* Display width of a UTF-8 string (one column per code point). */
static size_t columns(const char *s) {
  size_t c = 0;
  for (; *s; s++)
    c += ((unsigned char)*s & 0xc0) != 0x80;
  return c;
}

/* Prints `s` padded to `w` columns; a longer one keeps its tail (the file
 * name and line matter more than the leading directories). */
static void cell(FILE *f, const char *s, size_t w) {
  size_t c = columns(s);
  if (c > w) {
    size_t skip = c - (w - 1);
    while (skip > 0) {
      s++;
      if (((unsigned char)*s & 0xc0) != 0x80)
        skip--;
    }
    fprintf(f, "\u2026%s", s);
  } else {
    fprintf(f, "%s%*s", s, (int)(w - c), "");
  }
}

static void sparkline(FILE *f, const struct cr_row *row) {
  double lo = 0, hi = 0;
  for (size_t i = 0; i < row->n_m; i++)
    if (row->m[i].valid) {
      lo = fmin(lo, row->m[i].y);
      hi = fmax(hi, row->m[i].y);
    }
  for (size_t i = 0; i < row->n_m; i++) {
    if (!row->m[i].valid)
      continue;
    int level = hi > lo ? (int)((row->m[i].y - lo) / (hi - lo) * 7.999) : 0;
    fputs(spark[level < 0 ? 0 : level > 7 ? 7 : level], f);
  }
}

static void print_guidance(FILE *f, const struct cr_result *r) {
  fprintf(f, "coz-report: %s\n", r->guidance.message);
}

static void print_dropped(FILE *f, const struct cr_report *rep) {
  size_t n[4] = {0};
  for (size_t i = 0; i < rep->r->n_dropped; i++)
    n[rep->r->dropped[i].drop]++;
  if (!n[CR_NO_PROGRESS] && !n[CR_NO_BASELINE] && !n[CR_TOO_FEW])
    return;
  fprintf(f,
          "not plotted: %zu with no baseline, %zu with fewer than %u "
          "speedups, %zu where the point never advanced\n",
          n[CR_NO_BASELINE], n[CR_TOO_FEW], rep->o->min_points,
          n[CR_NO_PROGRESS]);
}

/* Ranks first..last, as "1", "1-2" or "1, 3". */
static void print_ranks(FILE *f, const struct cr_answer *a, int settled) {
  const char *sep = "";
  for (unsigned i = 0; i < a->k; i++)
    if (a->settled[i] == settled) {
      fprintf(f, "%s%u", sep, i + 1);
      sep = ", ";
    }
}

static void print_answer(FILE *f, const struct cr_report *rep) {
  const struct cr_answer *a = &rep->r->answer;
  const struct cr_profile *p = rep->p;
  if (a->k == 0)
    return;
  unsigned n_settled = 0;
  for (unsigned i = 0; i < a->k; i++)
    n_settled += a->settled[i] != 0;
  if (a->k == 1)
    fputs("answer: the top line ", f);
  else
    fprintf(f, "answer: the top %u ", a->k);
  if (a->stable > 0)
    fprintf(f, "%s been the same over the last %zu of %zu experiments",
            a->k == 1 ? "has" : "have", a->stable, p->n_experiments);
  else
    fprintf(f, "changed within the last tenth of the %zu experiments",
            p->n_experiments);
  if (n_settled == a->k) {
    fprintf(f,
            "; %s settled: 95%% intervals apart from every other "
            "line\n",
            a->k == 1 ? "it is" : "all are");
    return;
  }
  if (n_settled) {
    fputs("; settled: rank ", f);
    print_ranks(f, a, 1);
  }
  fprintf(f, "%s\n", a->top_set_settled ? "; the top set is settled" : "");
  for (unsigned i = 0; i < a->k; i++) {
    if (a->settled[i] || !a->rival[i])
      continue;
    const struct cr_row *rival = &rep->r->rows[a->rival[i] - 1];
    fprintf(f, "  rank %u overlaps %s (rank %zu): ", i + 1,
            p->lines[rival->line].name, a->rival[i]);
    if (a->more_runs[i] < 0)
      fputs("too close to tell apart\n", f);
    else
      fprintf(f, "about %ld more run%s of the same length\n", a->more_runs[i],
              a->more_runs[i] == 1 ? "" : "s");
  }
}

int cr_write_text(FILE *f, const struct cr_report *rep) {
  const struct cr_result *r = rep->r;
  const struct cr_profile *p = rep->p;
  fprintf(f, "coz-report: %u file%s, %u run%s, %zu experiments; ",
          p->files_read, p->files_read == 1 ? "" : "s", r->runs,
          r->runs == 1 ? "" : "s", p->n_experiments);
  if (r->n_rows == 0) {
    fprintf(f, "no line to plot\n");
    print_dropped(f, rep);
    print_guidance(f, r);
    return 0;
  }
  fprintf(f, "%zu line%s plotted, ranked by %s\n", r->n_rows,
          r->n_rows == 1 ? "" : "s", cr_sort_label(r->sort));
  size_t wl = 4, wp = 5;
  for (size_t i = 0; i < r->n_rows; i++) {
    size_t a = columns(p->lines[r->rows[i].line].name);
    size_t b = columns(p->points[r->rows[i].point].name) + 4;
    wl = a > wl ? a : wl;
    wp = b > wp ? b : wp;
  }
  wl = wl > 40 ? 40 : wl;
  wp = wp > 30 ? 30 : wp;
  fprintf(f, "%3s  ", "#");
  cell(f, "line", wl);
  fputs("  ", f);
  cell(f, "point", wp);
  fprintf(f, "  %-15s %7s %7s %7s %5s  %s\n", "slope \u00b1 95% CI", "@25%",
          "@50%", "@100%", "exps", "curve");
  for (size_t i = 0; i < r->n_rows; i++) {
    const struct cr_row *row = &r->rows[i];
    char name[600], slope[64], pr[CR_PRED_N][32];
    snprintf(name, sizeof name, "%s%s", p->points[row->point].name,
             row->kind == CR_LATENCY ? " (L)" : "");
    if (isnan(row->slope))
      snprintf(slope, sizeof slope, "n/a");
    else if (isnan(row->slope_lo))
      snprintf(slope, sizeof slope, "%+.3f", row->slope);
    else
      snprintf(slope, sizeof slope, "%+.3f \u00b1%.3f", row->slope,
               fmax(row->slope_hi - row->slope, row->slope - row->slope_lo));
    for (int k = 0; k < CR_PRED_N; k++)
      pct(pr[k], sizeof pr[k], row->pred[k]);
    fprintf(f, "%3zu  ", i + 1);
    cell(f, p->lines[row->line].name, wl);
    fputs("  ", f);
    cell(f, name, wp);
    fputs("  ", f);
    cell(f, slope, 15);
    fprintf(f, " %7s %7s %7s %5zu  ", pr[0], pr[1], pr[2], row->n_obs);
    sparkline(f, row);
    if (row->contention)
      fputs("  contention", f);
    if (row->phase_applied && row->phase_factor < 0.995)
      fprintf(f, "  (phase %.0f%%)", 100 * row->phase_factor);
    fputc('\n', f);
  }
  print_dropped(f, rep);
  print_answer(f, rep);
  return 0;
}
