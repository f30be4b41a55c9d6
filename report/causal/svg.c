/* svg.c: one causal-profile plot as inline SVG.
 *
 * x is the line's virtual speedup (0-100%), y the program speedup. The
 * shaded band joins the 95% CIs of the measured points; the line joins the
 * point estimates. Plots are drawn server-side so the page needs no script
 * library and works offline.
 */
#include "svg.h"
#include "fit.h"

#include <math.h>
#include <stdlib.h>

enum { W = 420, H = 240, ML = 62, MR = 22, MT = 14, MB = 36 };
#define PW (W - ML - MR)
#define PH (H - MT - MB)

struct scale {
  double lo, hi;
};

static double sx(double s) { return ML + s * PW; }
static double sy(const struct scale *y, double v) {
  return MT + (y->hi - v) / (y->hi - y->lo) * PH;
}

static double clip(const struct scale *y, double v) {
  return fmin(fmax(v, y->lo), y->hi);
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 4 ticks. */
static double nice_step(double span) {
  double raw = span / 4, p = pow(10, floor(log10(raw))), m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The axis spans every point estimate and 0; a CI widens it only up to
 * +-100%, so one wide interval (a stalled experiment among few) cannot
 * flatten the curve. The band is clipped to the axis instead. */
#define CI_VIEW 1.0

static struct scale y_range(const struct cr_row *row) {
  struct scale y = {0, 0};
  for (size_t i = 0; i < row->n_m; i++) {
    const struct cr_measure *m = &row->m[i];
    if (!m->valid)
      continue;
    double v[3] = {m->y, fmax(m->lo, -CI_VIEW), fmin(m->hi, CI_VIEW)};
    for (int k = 0; k < 3; k++)
      if (isfinite(v[k])) {
        y.lo = fmin(y.lo, v[k]);
        y.hi = fmax(y.hi, v[k]);
      }
  }
  /* Causal profiles are read against 0; never zoom into noise. */
  y.lo = fmin(y.lo, -0.02);
  y.hi = fmax(y.hi, 0.02);
  double pad = (y.hi - y.lo) * 0.08;
  y.lo -= pad;
  y.hi += pad;
  return y;
}

static void axes(FILE *f, const struct scale *y) {
  fprintf(f, "<g class=\"grid\">");
  double step = nice_step(y->hi - y->lo);
  int guard = 0; /* at most a dozen ticks, whatever the numbers */
  for (double t = ceil(y->lo / step) * step; t <= y->hi + 1e-12 && guard < 12;
       t += step, guard++) {
    double v = fabs(t) < step * 1e-6 ? 0 : t;
    fprintf(f,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"%s/>"
            "<text x=\"%d\" y=\"%.1f\" class=\"yl\">%+.*f%%</text>",
            ML, ML + PW, sy(y, v), sy(y, v), v == 0 ? " class=\"zero\"" : "",
            ML - 6, sy(y, v) + 4, step < 0.01 ? 1 : 0, 100 * v);
  }
  for (int k = 0; k <= 4; k++)
    fprintf(f,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
            "<text x=\"%.1f\" y=\"%d\" class=\"xl\">%d%%</text>",
            sx(k / 4.0), sx(k / 4.0), MT, MT + PH, sx(k / 4.0), MT + PH + 16,
            25 * k);
  fprintf(f,
          "</g><text x=\"%d\" y=\"%d\" class=\"axis\">line speedup</text>"
          "<text transform=\"translate(11 %d) rotate(-90)\" "
          "class=\"axis\">program speedup</text>",
          ML + PW / 2, H - 4, MT + PH / 2);
}

/* The prediction curve (cr_fit_at every 5%), dashed: what the 25/50/100%
 * predictions are read from, smoother than the raw points. */
static void fit_line(FILE *f, const struct scale *y, const struct cr_row *row) {
  double *ys = malloc(2 * row->n_m * sizeof *ys);
  if (!ys)
    return;
  double *ws = ys + row->n_m;
  for (size_t i = 0; i < row->n_m; i++) {
    ys[i] = row->m[i].valid ? row->m[i].y : NAN;
    ws[i] = row->m[i].weight;
  }
  fprintf(f, "<polyline class=\"fit\" points=\"");
  for (int pm = 0; pm <= 1000; pm += 50) {
    double v = cr_fit_at(row->m, row->n_m, ys, ws, pm);
    if (isfinite(v))
      fprintf(f, "%.1f,%.1f ", sx(pm / 1000.0), sy(y, clip(y, v)));
  }
  fprintf(f, "\"/>");
  free(ys);
}

void cr_write_svg(FILE *f, const struct cr_report *rep,
                  const struct cr_row *row) {
  (void)rep;
  struct scale y = y_range(row);
  fprintf(f,
          "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" "
          "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">",
          W, H, W, H);
  axes(f, &y);
  /* CI band: upper bounds left to right, then lower bounds back. */
  fprintf(f, "<polygon class=\"ci\" points=\"");
  for (size_t i = 0; i < row->n_m; i++) {
    const struct cr_measure *m = &row->m[i];
    if (m->valid)
      fprintf(f, "%.1f,%.1f ", sx(m->speedup / 1000.0),
              sy(&y, clip(&y, isfinite(m->hi) ? m->hi : m->y)));
  }
  for (size_t i = row->n_m; i-- > 0;) {
    const struct cr_measure *m = &row->m[i];
    if (m->valid)
      fprintf(f, "%.1f,%.1f ", sx(m->speedup / 1000.0),
              sy(&y, clip(&y, isfinite(m->lo) ? m->lo : m->y)));
  }
  fprintf(f, "\"/><polyline class=\"est\" points=\"");
  for (size_t i = 0; i < row->n_m; i++)
    if (row->m[i].valid)
      fprintf(f, "%.1f,%.1f ", sx(row->m[i].speedup / 1000.0),
              sy(&y, row->m[i].y));
  fprintf(f, "\"/>");
  fit_line(f, &y, row);
  for (size_t i = 0; i < row->n_m; i++) {
    const struct cr_measure *m = &row->m[i];
    if (!m->valid)
      continue;
    fprintf(f,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>line +%d%%: "
            "program %+.1f%%",
            sx(m->speedup / 1000.0), sy(&y, m->y), m->speedup / 10, 100 * m->y);
    if (isfinite(m->lo) && isfinite(m->hi))
      fprintf(f, " [%+.1f%%, %+.1f%%]", 100 * m->lo, 100 * m->hi);
    fprintf(f, ", %zu experiment%s</title></circle>", m->experiments,
            m->experiments == 1 ? "" : "s");
  }
  fprintf(f, "</svg>");
}
