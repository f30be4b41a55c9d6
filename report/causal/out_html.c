/* out_html.c: one self-contained, offline HTML page of causal plots.
 *
 * No external resource: the style and a few lines of script are inline and
 * every plot is inline SVG. Every string that came from a profile (line and
 * point names, source text) goes through cr_html_escape. The sort buttons
 * reorder the plots by the data-* keys written for each plot.
 */
#include "out_html.h"
#include "rank.h"
#include "source.h"
#include "svg.h"

#include "callpath/cpr_html.h"

#include <math.h>

void cr_html_escape(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&':
      fputs("&amp;", f);
      break;
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    case '\'':
      fputs("&#39;", f);
      break;
    default:
      fputc(*s, f);
    }
  }
}

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;"
    "color:#222}header{padding:12px 20px;background:#fff;border-bottom:1px "
    "solid #ddd}h1{font-size:20px;margin:0 0 4px}"
    "button{margin-right:6px;padding:4px 10px;border:1px solid #999;"
    "background:#fff;border-radius:4px;cursor:pointer}"
    "button.on{background:#335;color:#fff}"
    "#plots{display:flex;flex-wrap:wrap;gap:12px;padding:12px 20px}"
    "section.row{background:#fff;border:1px solid #ddd;border-radius:6px;"
    "padding:8px 10px;width:420px}"
    "h2{font-size:14px;margin:0;word-break:break-all}"
    "h2 .pt{color:#666;font-weight:normal}"
    "pre.src{margin:4px 0;padding:3px 6px;background:#f3f3f3;"
    "overflow:hidden;text-overflow:ellipsis;font-size:12px}"
    ".stats{margin:2px 0;font-size:12px;color:#444}"
    ".contention{color:#b00;font-weight:bold}"
    "svg .grid line{stroke:#e4e4e4}svg .grid line.zero{stroke:#888}"
    "svg text{font-size:11px;fill:#555}svg .yl{text-anchor:end}"
    "svg .xl,svg .axis{text-anchor:middle}"
    "svg .ci{fill:#8ab4f8;fill-opacity:.35;stroke:none}"
    "svg .est{fill:none;stroke:#1a56c4;stroke-width:2}"
    "svg circle{fill:#1a56c4}"
    "svg .fit{fill:none;stroke:#e07b00;stroke-width:1.5;stroke-dasharray:5 3}"
    ".guidance{margin:20px;padding:12px;background:#fff3cd;"
    "border:1px solid #e0c060}"
    ".legend{font-size:12px;color:#555}";

/* Sorts on the data-* keys; ties (and missing keys) fall back to names. */
static const char script[] =
    "(function(){\n"
    "var box=document.getElementById('plots');\n"
    "var "
    "rows=Array.prototype.slice.call(box.querySelectorAll('section.row'));\n"
    "function key(r,k){var v=parseFloat(r.getAttribute('data-'+k));\n"
    "  return isNaN(v)?null:(k==='min'?-v:v);}\n"
    "function sortBy(k){\n"
    "  rows.sort(function(a,b){var x=key(a,k),y=key(b,k);\n"
    "    if(x!==y){if(x===null)return 1;if(y===null)return -1;return y-x;}\n"
    "    var n=a.getAttribute('data-name'),m=b.getAttribute('data-name');\n"
    "    return n<m?-1:n>m?1:0;});\n"
    "  rows.forEach(function(r){box.appendChild(r);});\n"
    "  var bs=document.querySelectorAll('button[data-sort]');\n"
    "  for(var i=0;i<bs.length;i++)\n"
    "    bs[i].className=bs[i].getAttribute('data-sort')===k?'on':'';\n"
    "  document.body.setAttribute('data-sorted',k);}\n"
    "var bs=document.querySelectorAll('button[data-sort]');\n"
    "for(var i=0;i<bs.length;i++)bs[i].addEventListener('click',function(){\n"
    "  sortBy(this.getAttribute('data-sort'));});\n"
    "})();\n";

static void attr_num(FILE *f, const char *name, double v) {
  if (isfinite(v))
    fprintf(f, " data-%s=\"%.17g\"", name, v);
  else
    fprintf(f, " data-%s=\"\"", name);
}

static void pct(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, "%+.1f%%", 100 * v);
  else
    fputs("n/a", f);
}

static void write_row(FILE *f, const struct cr_report *rep,
                      const struct cr_row *row, size_t rank) {
  const char *loc = rep->p->lines[row->line].name;
  const char *point = rep->p->points[row->point].name;
  fprintf(f, "<section class=\"row\" id=\"row-%zu\"", rank);
  for (int s = 0; s < CR_SORT_N; s++)
    attr_num(f, cr_sort_name((enum cr_sort)s),
             cr_sort_key(row, (enum cr_sort)s));
  fputs(" data-name=\"", f);
  cr_html_escape(f, loc);
  fputs(" ", f);
  cr_html_escape(f, point);
  fputs("\"><h2>", f);
  cr_html_escape(f, loc);
  fputs(" <span class=\"pt\">&rarr; ", f);
  cr_html_escape(f, point);
  fputs(row->kind == CR_LATENCY ? " (latency)" : "", f);
  fputs("</span></h2>", f);
  const char *src = rep->read_sources ? cr_source_line(rep, loc) : NULL;
  if (src) {
    fputs("<pre class=\"src\">", f);
    cr_html_escape(f, src);
    fputs("</pre>", f);
  }
  cr_write_svg(f, rep, row);
  fputs("<p class=\"stats\">slope ", f);
  if (isfinite(row->slope)) {
    fprintf(f, "%+.3f", row->slope);
    if (isfinite(row->slope_lo))
      fprintf(f, " [%+.3f, %+.3f]", row->slope_lo, row->slope_hi);
  } else {
    fputs("n/a", f);
  }
  static const char *at[CR_PRED_N] = {"25%", "50%", "100%"};
  for (int k = 0; k < CR_PRED_N; k++) {
    fprintf(f, "; at %s: ", at[k]);
    pct(f, row->pred[k]);
  }
  fprintf(f, "; %zu experiments", row->n_obs);
  if (row->phase_applied && row->phase_factor < 0.995)
    fprintf(f, "; phase-corrected &times;%.2f", row->phase_factor);
  if (row->contention)
    fputs(" <span class=\"contention\">contention</span>", f);
  fputs("</p></section>\n", f);
}

int cr_write_html(FILE *f, const struct cr_report *rep) {
  const struct cr_result *r = rep->r;
  fprintf(f,
          "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
          "charset=\"utf-8\"><title>coz-report: causal profile</title>"
          "<style>%s</style></head>\n<body data-sorted=\"%s\"><header>"
          "<h1>Causal profile</h1><p>",
          style, cr_sort_name(r->sort));
  for (size_t i = 0; i < rep->n_inputs; i++) {
    cr_html_escape(f, rep->inputs[i]);
    fputs(i + 1 < rep->n_inputs ? ", " : "", f);
  }
  fprintf(f, ": %u run%s, %zu experiments, %zu plot%s.</p>", r->runs,
          r->runs == 1 ? "" : "s", rep->p->n_experiments, r->n_rows,
          r->n_rows == 1 ? "" : "s");
  fputs("<div>Sort by ", f);
  for (int s = 0; s < CR_SORT_N; s++)
    fprintf(f, "<button type=\"button\" data-sort=\"%s\"%s>%s</button>",
            cr_sort_name((enum cr_sort)s),
            (enum cr_sort)s == r->sort ? " class=\"on\"" : "",
            cr_sort_label((enum cr_sort)s));
  fputs("</div><p class=\"legend\">Blue: measured program speedup per "
        "line speedup, with its 95% confidence band. Dashed orange: the "
        "prediction curve (neighbouring speedups pooled).</p></header>\n"
        "<main id=\"plots\">\n",
        f);
  for (size_t i = 0; i < r->n_rows; i++)
    write_row(f, rep, &r->rows[i], i + 1);
  fputs("</main>\n", f);
  if (r->n_rows == 0) {
    fputs("<p class=\"guidance\">", f);
    cr_html_escape(f, r->guidance.message);
    fputs("</p>\n", f);
  }
  /* Call paths beside the causal plots (docs/callpath.md). */
  cpr_write_html_sections(f, rep->inputs, rep->n_inputs);
  fprintf(f, "<script>%s</script>\n</body></html>\n", script);
  return ferror(f) ? -1 : 0;
}
