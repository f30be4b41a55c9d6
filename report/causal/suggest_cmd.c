/* suggest_cmd.c: `coz-report suggest [options] [FILES...]`: the candidate
 * progress points of a program without one, best first, as options to
 * rebuild with, and for the best a preview of the lines that would rank
 * (the analysis of `coz-report --point CANDIDATE` on the same experiments).
 *
 * Exit status: 0 when a candidate is suggested, 1 when none advanced in an
 * experiment (the reason is printed), 2 on a usage error or when no file
 * could be read.
 */
#include "suggest_cmd.h"
#include "analysis.h"
#include "answer.h"
#include "out_json.h"
#include "out_text.h"
#include "profile_parse.h"
#include "profile_store.h"
#include "report_cmd.h"
#include "source.h"
#include "suggest.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct args {
  int json;
  unsigned long top, preview, min_points;
};

/* The defaults, stated here only: parsing starts from them and the usage
 * text prints them. --min-points is the report's, as the preview is the
 * report's analysis. */
static struct args defaults(void) {
  struct cr_options o;
  cr_options_default(&o);
  return (struct args){.top = 10, .preview = 10, .min_points = o.min_points};
}

static void usage(FILE *f) {
  struct args d = defaults();
  fprintf(f,
          "usage: coz-report suggest [options] [FILES...]   "
          "(default: " CR_DEFAULT_PROFILE ")\n"
          "Ranks the candidate progress points a program without one "
          "recorded (steadiest\nvisit rate first) and previews the lines "
          "the best one would rank.\n"
          "  --json             print JSON (schema in docs/report.md)\n"
          "  --top N            candidates listed (default %lu)\n"
          "  --preview N        lines shown in the preview (default %lu, 0: "
          "none)\n"
          "  --min-points N     distinct speedups a previewed line needs "
          "(default %lu)\n"
          "  -h, --help\n",
          d.top, d.preview, d.min_points);
}

/* Index of the first file argument; -1: usage error; -2: help printed. */
static int parse_args(int argc, char **argv, struct args *a) {
  enum { O_JSON = 256, O_TOP, O_PREVIEW, O_MIN };
  static const struct option longopts[] = {
      {"json", no_argument, 0, O_JSON},
      {"top", required_argument, 0, O_TOP},
      {"preview", required_argument, 0, O_PREVIEW},
      {"min-points", required_argument, 0, O_MIN},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case O_JSON:
      a->json = 1;
      break;
    case O_TOP:
      if (cr_parse_uint("--top", optarg, 100000, &a->top))
        return -1;
      break;
    case O_PREVIEW:
      if (cr_parse_uint("--preview", optarg, 100000, &a->preview))
        return -1;
      break;
    case O_MIN:
      if (cr_parse_uint("--min-points", optarg, 1001, &a->min_points))
        return -1;
      break;
    case 'h':
      usage(stdout);
      return -2;
    default:
      fprintf(stderr,
              "coz-report suggest: unknown or incomplete option '%s'; see "
              "coz-report suggest --help\n",
              argv[optind - 1]);
      return -1;
    }
  }
  return optind;
}

static json_t *candidate_json(const struct cr_profile *p,
                              const struct cr_candidate *c, size_t rank) {
  const char *name = p->points[c->point].name;
  size_t file_len;
  unsigned long line = cr_location_split(name, &file_len);
  json_t *o = json_object();
  json_object_set_new(o, "rank", json_integer((json_int_t)rank));
  json_object_set_new(o, "point", json_string(name));
  json_object_set_new(o, "option", json_string(c->option));
  json_object_set_new(o, "file", json_stringn(name, file_len));
  json_object_set_new(o, "line",
                      line ? json_integer((json_int_t)line) : json_null());
  json_object_set_new(o, "visits", json_integer((json_int_t)c->visits));
  json_object_set_new(o, "visits_per_s",
                      isfinite(c->per_s) ? json_real(c->per_s) : json_null());
  json_object_set_new(o, "experiments",
                      json_integer((json_int_t)c->experiments));
  json_object_set_new(o, "advanced", json_integer((json_int_t)c->advanced));
  json_object_set_new(o, "visits_per_experiment", json_real(c->visits_per_exp));
  json_object_set_new(o, "spread", json_real(c->spread));
  json_object_set_new(o, "noise",
                      isfinite(c->noise) ? json_real(c->noise) : json_null());
  return o;
}

static const char *why_none(const struct cr_suggestions *s) {
  if (s->n == 0)
    return "no candidate progress point in the profile: build the program "
           "with coz-cc (without --coz-no-candidates) and run it; a program "
           "with a progress point of its own records none";
  return "no candidate advanced during an experiment: run the program "
         "longer, or on a bigger input";
}

static void print_candidates(const struct cr_profile *p,
                             const struct cr_suggestions *s,
                             const struct args *a) {
  unsigned runs = p->runs ? p->runs : p->files_with_experiments;
  printf("coz-report suggest: %u file%s, %u run%s, %zu experiments; %zu "
         "candidate progress point%s, steadiest first\n",
         p->files_read, p->files_read == 1 ? "" : "s", runs,
         runs == 1 ? "" : "s", p->n_experiments, s->n, s->n == 1 ? "" : "s");
  if (s->real_points)
    printf("note: the profile also has %zu progress point%s of the "
           "program's own; coz-report ranks lines by those\n",
           s->real_points, s->real_points == 1 ? "" : "s");
  printf("%3s  %-34s %10s %7s %12s  %s\n", "#", "option", "visits/s", "spread",
         "exps (moved)", "candidate");
  for (size_t i = 0; i < s->n && i < a->top; i++) {
    const struct cr_candidate *c = &s->c[i];
    char rate[32] = "n/a", spread[32] = "n/a", exps[32];
    if (!isnan(c->per_s))
      snprintf(rate, sizeof rate, "%.1f", c->per_s);
    if (c->advanced)
      snprintf(spread, sizeof spread, "%.0f%%", 100 * c->spread);
    snprintf(exps, sizeof exps, "%zu (%zu)", c->experiments, c->advanced);
    printf("%3zu  %-34s %10s %7s %12s  %s\n", i + 1, c->option, rate, spread,
           exps, p->points[c->point].name);
  }
}

/* The main report's analysis with the candidate as the progress point;
 * text: its table cut to `a->preview` lines; JSON: its whole document. */
static json_t *preview(const struct cr_profile *p, const char *point,
                       const struct args *a, const char *const *inputs,
                       size_t n_inputs) {
  struct cr_options o;
  cr_options_default(&o);
  o.point = point;
  o.min_points = (unsigned)a->min_points;
  struct cr_result r;
  if (cr_analyse(p, &o, &r) != 0)
    return NULL;
  static const char *here[] = {"."};
  struct cr_report rep = {p, &o, &r, inputs, n_inputs, here, 1, 0};
  json_t *doc = NULL;
  if (a->json) {
    doc = cr_report_json(&rep);
  } else {
    size_t all = r.n_rows;
    r.n_rows = all < a->preview ? all : a->preview;
    cr_write_text(stdout, &rep);
    if (all > r.n_rows)
      printf("... %zu more: coz-report --point '%s'\n", all - r.n_rows, point);
    r.n_rows = all;
  }
  cr_result_free(&r);
  return doc;
}

static int suggest(const struct cr_profile *p, const struct args *a,
                   const char *const *inputs, size_t n_inputs) {
  struct cr_suggestions s;
  if (cr_suggest(p, &s) != 0) {
    fprintf(stderr, "coz-report: out of memory\n");
    return 2;
  }
  int found = s.n > 0 && isfinite(s.c[0].noise);
  const char *best = found ? p->points[s.c[0].point].name : NULL;
  if (a->json) {
    json_t *doc = json_object(), *list = json_array();
    json_object_set_new(doc, "schema", json_string("coz-report-suggest/1"));
    json_object_set_new(doc, "experiments",
                        json_integer((json_int_t)p->n_experiments));
    json_object_set_new(doc, "real_points",
                        json_integer((json_int_t)s.real_points));
    for (size_t i = 0; i < s.n && i < a->top; i++)
      json_array_append_new(list, candidate_json(p, &s.c[i], i + 1));
    json_object_set_new(doc, "candidates", list);
    json_object_set_new(doc, "message",
                        found ? json_null() : json_string(why_none(&s)));
    json_t *pre = found ? preview(p, best, a, inputs, n_inputs) : NULL;
    json_object_set_new(doc, "preview", pre ? pre : json_null());
    json_dumpf(doc, stdout,
               JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_ENSURE_ASCII);
    fputc('\n', stdout);
    json_decref(doc);
  } else {
    print_candidates(p, &s, a);
    if (!found) {
      printf("coz-report: %s\n", why_none(&s));
    } else {
      printf("\nRebuild with %s to profile with it (no source change). "
             "The lines it would rank,\nfrom these experiments:\n\n",
             s.c[0].option);
      if (a->preview)
        preview(p, best, a, inputs, n_inputs);
    }
  }
  cr_suggestions_free(&s);
  return found ? 0 : 1;
}

int cr_suggest_main(int argc, char **argv) {
  struct args a = defaults();
  int first = parse_args(argc, argv, &a);
  if (first < 0)
    return first == -2 ? 0 : 2;
  size_t n_inputs;
  const char *const *inputs = cr_input_files(argc, argv, first, &n_inputs);
  struct cr_profile p;
  cr_profile_init(&p);
  struct cr_diag diag = {stderr, CR_MAX_ERRORS_DEFAULT};
  size_t readable = 0;
  for (size_t i = 0; i < n_inputs; i++)
    readable += cr_profile_read_file(&p, inputs[i], &diag) == 0;
  int rc = readable ? suggest(&p, &a, inputs, n_inputs) : 2;
  cr_source_cache_free();
  cr_profile_free(&p);
  return rc;
}
