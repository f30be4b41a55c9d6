/* cpr_svg.c: the icicle view of a call-path profile, inline SVG. The
 * sample tree (seed section 5.3) drawn top-down: main on top, each callee
 * under its caller, widths proportional to the resource used below the
 * node. Nodes narrower than the threshold are left out. */
#include "cpr_svg.h"
#include "cpr_names.h"

#include <stdlib.h>
#include <string.h>

struct node {
  unsigned fn;
  uint64_t weight, samples;
  size_t first_child, next_sibling; /* 0 = none (node 0 is the root) */
};

struct tree {
  struct node *n;
  size_t len, cap;
};

static size_t child(struct tree *t, size_t parent, unsigned fn) {
  for (size_t c = t->n[parent].first_child; c; c = t->n[c].next_sibling)
    if (t->n[c].fn == fn)
      return c;
  if (t->len == t->cap) {
    size_t cap = t->cap * 2;
    struct node *p = realloc(t->n, cap * sizeof *p);
    if (!p)
      return 0;
    t->n = p;
    t->cap = cap;
  }
  size_t c = t->len++;
  t->n[c] = (struct node){fn, 0, 0, 0, t->n[parent].first_child};
  t->n[parent].first_child = c;
  return c;
}

static void escape(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '"')
      fputs("&quot;", f);
    else
      fputc(*s, f);
  }
}

enum { WIDTH = 1200, ROW = 18 };

static void draw(FILE *f, const struct cpr_data *d, const struct tree *t,
                 size_t node, double x, unsigned depth, double total,
                 double threshold) {
  for (size_t c = t->n[node].first_child; c; c = t->n[c].next_sibling) {
    const struct node *n = &t->n[c];
    double frac = total > 0 ? (double)n->weight / total : 0;
    if (frac < threshold || frac <= 0)
      continue;
    double w = frac * WIDTH;
    const char *name = cpr_name(d, n->fn);
    unsigned h = 2166136261u;
    for (const char *p = name; *p; p++)
      h = (h ^ (unsigned char)*p) * 16777619u;
    fprintf(f, "<g><title>%.4f ", frac);
    escape(f, name);
    fprintf(f,
            " [%llu samples]</title><rect x=\"%.2f\" y=\"%u\" "
            "width=\"%.2f\" height=\"%d\" fill=\"hsl(%u,70%%,%u%%)\" "
            "stroke=\"white\"/>",
            (unsigned long long)n->samples, x, depth * ROW, w, ROW - 1,
            20 + h % 40, 60 + (h >> 8) % 20);
    size_t fit = (size_t)(w / 7);
    if (fit >= 4) {
      char label[256];
      snprintf(label, sizeof label, "%.*s", (int)(fit < 255 ? fit : 255), name);
      fprintf(f,
              "<text x=\"%.2f\" y=\"%u\" font-size=\"12\" "
              "font-family=\"monospace\">",
              x + 3, depth * ROW + 13);
      escape(f, label);
      fputs("</text>", f);
    }
    fputs("</g>\n", f);
    draw(f, d, t, c, x, depth + 1, total, threshold);
    x += w;
  }
}

static unsigned depth_of(const struct tree *t, size_t node) {
  unsigned best = 0;
  for (size_t c = t->n[node].first_child; c; c = t->n[c].next_sibling) {
    unsigned k = 1 + depth_of(t, c);
    if (k > best)
      best = k;
  }
  return best;
}

void cpr_write_icicle_svg(FILE *f, const struct cpr_data *d, size_t resource,
                          double threshold) {
  struct tree t = {malloc(1024 * sizeof(struct node)), 1, 1024};
  if (!t.n)
    return;
  t.n[0] = (struct node){0, 0, 0, 0, 0};
  for (size_t i = 0; i < d->n_stacks; i++) {
    const struct cpr_stack *s = &d->stacks[i];
    if (s->resource != resource)
      continue;
    size_t at = 0;
    for (size_t k = 0; k < s->n && (at = child(&t, at, s->fn[k])) != 0;) {
      t.n[at].weight += s->weight;
      t.n[at].samples += s->samples;
      if (++k == s->n)
        break;
    }
  }
  const struct cpr_resource *r = &d->res[resource];
  unsigned rows = depth_of(&t, 0);
  fprintf(f, "<section class=\"callpath\"><h2>Call paths: ");
  escape(f, r->name);
  fprintf(f,
          " (%llu samples, %llu %s)</h2>\n<p>Icicle view: each box is a "
          "call path, its width the fraction of the resource used in it "
          "and below it; hover for numbers. Boxes under %.3g of the total "
          "are hidden.</p>\n",
          (unsigned long long)r->samples, (unsigned long long)r->total, r->unit,
          threshold);
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%u\" viewBox=\"0 0 %d %u\">\n",
          WIDTH, rows * ROW + 2, WIDTH, rows * ROW + 2);
  draw(f, d, &t, 0, 0, 0, (double)r->total, threshold);
  fputs("</svg></section>\n", f);
  free(t.n);
}
