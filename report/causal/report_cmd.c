/* report_cmd.c: `coz-report [options] [FILES...]`: read, analyse, print.
 *
 * Exit status: 0 when at least one line is plotted, 1 when nothing can be
 * plotted (the reason is printed), 2 on a usage error, when no file could
 * be read, or when the HTML page cannot be written.
 */
#include "report_cmd.h"
#include "analysis.h"
#include "answer.h"
#include "out_html.h"
#include "out_json.h"
#include "out_text.h"
#include "profile_parse.h"
#include "profile_store.h"
#include "rank.h"
#include "source.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The defaults shown are the ones used: cr_options_default's. */
static void usage(FILE *f) {
  struct cr_options d;
  cr_options_default(&d);
  fprintf(f,
          "usage: coz-report [options] [FILES...]   "
          "(default: " CR_DEFAULT_PROFILE ")\n"
          "Merges every run of every profile and ranks lines by their causal "
          "effect.\n"
          "  --json             print JSON (schema in docs/report.md)\n"
          "  --html FILE        also write a self-contained HTML page of "
          "plots\n"
          "  --sort KEY         ");
  for (int s = 0; s < CR_SORT_N; s++) {
    const char *sep = s == 0 ? "" : s + 1 < CR_SORT_N ? ", " : " or ";
    fprintf(f, "%s%s%s", sep, cr_sort_name((enum cr_sort)s),
            s == (int)d.sort ? " (default)" : "");
  }
  fprintf(f,
          "\n"
          "                     lower: the conservative slope, slope - 1.96 "
          "standard errors\n"
          "  --top N            the answer's top N lines (default %u; 0: "
          "none)\n"
          "  --min-points N     distinct speedups a line needs, baseline "
          "included (default %u)\n"
          "  --point NAME       only this progress point\n"
          "  --source-dir DIR   where to find sources for the HTML page "
          "(repeatable)\n"
          "  --bootstrap N      bootstrap replicates for the 95%% CIs "
          "(default %u)\n"
          "  --seed N           bootstrap seed (default fixed)\n"
          "  --max-errors N     malformed-record messages shown per file "
          "(default %d)\n"
          "  -h, --help\n",
          d.top, d.min_points, d.replicates, CR_MAX_ERRORS_DEFAULT);
}

const char *const *cr_input_files(int argc, char **argv, int first, size_t *n) {
  static const char *const default_input[] = {CR_DEFAULT_PROFILE};
  *n = argc > first ? (size_t)(argc - first) : 1;
  return argc > first ? (const char *const *)argv + first : default_input;
}

int cr_parse_uint(const char *opt, const char *s, unsigned long max,
                  unsigned long *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (!*s || *end || errno || v > max || s[0] == '-') {
    fprintf(stderr,
            "coz-report: %s wants a whole number from 0 to %lu, not '%s'\n",
            opt, max, s);
    return -1;
  }
  *out = v;
  return 0;
}

struct args {
  struct cr_options o;
  int json;
  const char *html;
  unsigned max_errors;
  const char **dirs;
  size_t n_dirs;
};

enum {
  O_JSON = 256,
  O_HTML,
  O_SORT,
  O_MIN,
  O_POINT,
  O_DIR,
  O_BOOT,
  O_SEED,
  O_ERR,
  O_TOP
};
static const struct option longopts[] = {
    {"json", no_argument, 0, O_JSON},
    {"html", required_argument, 0, O_HTML},
    {"sort", required_argument, 0, O_SORT},
    {"min-points", required_argument, 0, O_MIN},
    {"point", required_argument, 0, O_POINT},
    {"source-dir", required_argument, 0, O_DIR},
    {"bootstrap", required_argument, 0, O_BOOT},
    {"seed", required_argument, 0, O_SEED},
    {"max-errors", required_argument, 0, O_ERR},
    {"top", required_argument, 0, O_TOP},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

/* A whole-number option's value (optarg, at most max) into *field. */
static int set_uint(const char *opt, unsigned long max, unsigned *field) {
  unsigned long v;
  if (cr_parse_uint(opt, optarg, max, &v))
    return -1;
  *field = (unsigned)v;
  return 0;
}

/* Applies option c (getopt_long's code, its value in optarg) to *a.
 * Returns 0, -1 after saying what is wrong, or -2 after --help. */
static int take_option(int c, char **argv, struct args *a) {
  unsigned long v;
  switch (c) {
  case O_JSON:
    a->json = 1;
    return 0;
  case O_HTML:
    a->html = optarg;
    return 0;
  case O_SORT:
    if (cr_sort_parse(optarg, &a->o.sort) == 0)
      return 0;
    fprintf(stderr, "coz-report: --sort takes %s, %s, %s or %s, not '%s'\n",
            cr_sort_name(CR_SORT_LOWER), cr_sort_name(CR_SORT_SLOPE),
            cr_sort_name(CR_SORT_MAX), cr_sort_name(CR_SORT_MIN), optarg);
    return -1;
  case O_MIN:
    return set_uint("--min-points", 1001, &a->o.min_points);
  case O_POINT:
    a->o.point = optarg;
    return 0;
  case O_DIR:
    a->dirs[a->n_dirs++] = optarg;
    return 0;
  case O_BOOT:
    return set_uint("--bootstrap", 100000, &a->o.replicates);
  case O_SEED:
    if (cr_parse_uint("--seed", optarg, ULONG_MAX, &v))
      return -1;
    a->o.seed = v;
    return 0;
  case O_TOP:
    return set_uint("--top", CR_TOP_MAX, &a->o.top);
  case O_ERR:
    return set_uint("--max-errors", 1000000, &a->max_errors);
  case 'h':
    usage(stdout);
    return -2;
  default:
    fprintf(stderr,
            "coz-report: unknown or incomplete option '%s'; see "
            "coz-report --help\n",
            argv[optind - 1]);
    return -1;
  }
}

/* Returns the index of the first file argument, or -1 (exit 2), or -2 (help
 * printed, exit 0). */
static int parse_args(int argc, char **argv, struct args *a) {
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    int rc = take_option(c, argv, a);
    if (rc < 0)
      return rc;
  }
  return optind;
}

int cr_report_main(int argc, char **argv) {
  struct args a;
  memset(&a, 0, sizeof a);
  cr_options_default(&a.o);
  a.max_errors = CR_MAX_ERRORS_DEFAULT;
  /* Source dirs: the options, then each profile's directory, then ".". */
  a.dirs = calloc((size_t)argc * 2 + 2, sizeof *a.dirs);
  if (!a.dirs)
    return 2;
  int first = parse_args(argc, argv, &a);
  if (first < 0) {
    free(a.dirs);
    return first == -2 ? 0 : 2;
  }
  size_t n_inputs;
  const char *const *inputs = cr_input_files(argc, argv, first, &n_inputs);
  struct cr_profile p;
  cr_profile_init(&p);
  struct cr_diag diag = {stderr, a.max_errors};
  size_t readable = 0;
  char **dir_copies = calloc(n_inputs, sizeof *dir_copies);
  for (size_t i = 0; i < n_inputs; i++) {
    if (cr_profile_read_file(&p, inputs[i], &diag) == 0)
      readable++;
    if (dir_copies && (dir_copies[i] = strdup(inputs[i])))
      a.dirs[a.n_dirs++] = dirname(dir_copies[i]);
  }
  a.dirs[a.n_dirs++] = ".";
  int rc = 2;
  struct cr_result r;
  if (readable > 0 && cr_analyse(&p, &a.o, &r) == 0) {
    struct cr_report rep = {&p,       &a.o,   &r,       inputs,
                            n_inputs, a.dirs, a.n_dirs, 1};
    rc = r.n_rows > 0 ? 0 : 1;
    if (a.json)
      cr_write_json(stdout, &rep);
    else
      cr_write_text(stdout, &rep);
    if (a.html) {
      FILE *f = fopen(a.html, "w");
      int bad = !f;
      if (f) {
        bad = cr_write_html(f, &rep) != 0;
        bad |= fclose(f) != 0;
      }
      if (bad) {
        fprintf(stderr, "coz-report: cannot write '%s': %s\n", a.html,
                strerror(errno));
        rc = 2;
      }
    }
    cr_result_free(&r);
  } else if (readable > 0) {
    fprintf(stderr, "coz-report: out of memory\n");
  }
  cr_source_cache_free();
  cr_profile_free(&p);
  for (size_t i = 0; dir_copies && i < n_inputs; i++)
    free(dir_copies[i]);
  free(dir_copies);
  free(a.dirs);
  return rc;
}
