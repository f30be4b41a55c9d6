/* cpr_cmd.c: `coz-report callpath [options] [FILES...]`.
 *
 * Without --root: the function profile. With --root F: the downward and the
 * upward call-path profiles of F (or one of them with --down / --up).
 * Exit status: 0 on success, 2 on a usage error or when no file is read. */
#include "cpr_cmd.h"
#include "cpr_json.h"
#include "cpr_profile.h"
#include "cpr_read.h"
#include "cpr_svg.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD_DEFAULT 0.01

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: coz-report callpath [options] [FILES...]   "
      "(default: " CPR_DEFAULT_FILE ")\n"
      "Call-path profiles of a monotonic resource (docs/callpath.md).\n"
      "  --resource R     cpu, minflt, majflt, csw, read, write, heap "
      "(default: the first in the file)\n"
      "  --root F         downward and upward profiles rooted at function F "
      "(C++: mangled,\n"
      "                   demangled, or demangled without its parameters)\n"
      "  --down, --up     only the downward / only the upward profile\n"
      "  --body           also the body profile: the function each sample "
      "was taken in\n"
      "  --threshold X    hide rows whose usage fraction is below X "
      "(default %g)\n"
      "  --html FILE      also write an HTML page with an icicle view\n"
      "  --json           print JSON (schema coz-callpath/1) instead of "
      "text\n"
      "  -h, --help\n",
      THRESHOLD_DEFAULT);
}

/* --threshold's value: a fraction from 0 to 1. Returns 0, or -1 after
 * saying what is wrong. */
static int parse_threshold(const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (!*text || *end || errno || !(v >= 0 && v <= 1)) {
    fprintf(stderr,
            "coz-report callpath: --threshold wants a fraction "
            "from 0 to 1 (e.g. 0.01), not '%s'\n",
            text);
    return -1;
  }
  *out = v;
  return 0;
}

static int write_html(const char *path, const struct cpr_data *d, size_t r,
                      double threshold) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr,
            "coz-report: cannot write '%s' (%s); give a writable "
            "--html path\n",
            path, strerror(errno));
    return -1;
  }
  fprintf(f,
          "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
          "<title>coz call paths: %s</title></head><body>\n",
          d->res[r].name);
  cpr_write_icicle_svg(f, d, r, threshold);
  fputs("</body></html>\n", f);
  return fclose(f) == 0 ? 0 : -1;
}

struct cp_args {
  const char *resource, *root, *html;
  bool down, up, body, json;
  double threshold;
};

/* Reads the options into *a. Returns -1 to go on, else the exit status
 * (after --help, or after saying what is wrong). */
static int parse_args(int argc, char **argv, struct cp_args *a) {
  static const struct option longopts[] = {
      {"resource", required_argument, NULL, 'r'},
      {"root", required_argument, NULL, 'o'},
      {"down", no_argument, NULL, 'd'},
      {"up", no_argument, NULL, 'u'},
      {"body", no_argument, NULL, 'b'},
      {"threshold", required_argument, NULL, 't'},
      {"html", required_argument, NULL, 'H'},
      {"json", no_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'r':
      a->resource = optarg;
      break;
    case 'o':
      a->root = optarg;
      break;
    case 'd':
      a->down = true;
      break;
    case 'u':
      a->up = true;
      break;
    case 'b':
      a->body = true;
      break;
    case 't':
      if (parse_threshold(optarg, &a->threshold) != 0)
        return 2;
      break;
    case 'H':
      a->html = optarg;
      break;
    case 'j':
      a->json = true;
      break;
    case 'h':
      usage(stdout);
      return 0;
    default:
      usage(stderr);
      return 2;
    }
  }
  if ((a->down || a->up) && !a->root) {
    fputs("coz-report callpath: --down/--up need --root FUNCTION (run "
          "without them first for the function profile)\n",
          stderr);
    return 2;
  }
  if (!a->down && !a->up)
    a->down = a->up = true;
  return -1;
}

/* The resource's index (the first without a name), or -1 after saying
 * which the input holds. */
static long pick_resource(const struct cpr_data *d, const char *name) {
  long r = name ? cpr_find_resource(d, name) : 0;
  if (r >= 0)
    return r;
  fprintf(stderr,
          "coz-report callpath: no resource '%s' in the input; it "
          "holds:",
          name);
  for (size_t i = 0; i < d->n_res; i++)
    fprintf(stderr, " %s", d->res[i].name);
  fputs("\n", stderr);
  return -1;
}

/* --root's function id into *fn (-1 without --root). Returns 0, or -1
 * after saying why the name picks no single function. */
static int pick_root(const struct cpr_data *d, const char *root, long *fn) {
  *fn = root ? cpr_lookup_function(d, root) : -1;
  if (root && *fn == -2) {
    fprintf(stderr,
            "coz-report callpath: '%s' names several functions (overloads); "
            "give the full name with its parameters, as the function "
            "profile shows it\n",
            root);
    return -1;
  }
  if (root && *fn < 0) {
    fprintf(stderr,
            "coz-report callpath: function '%s' is on no sampled "
            "stack; pick one from the function profile (run without "
            "--root)\n",
            root);
    return -1;
  }
  return 0;
}

/* The profiles to show, in order: the body profile first when asked, then
 * the function profile, or the downward and upward ones of the root. */
static size_t pick_kinds(const struct cp_args *a, enum cpr_kind kinds[3]) {
  size_t n = 0;
  if (a->body)
    kinds[n++] = CPR_BODY;
  if (!a->root)
    kinds[n++] = CPR_FUNCTIONS;
  else {
    if (a->down)
      kinds[n++] = CPR_DOWN;
    if (a->up)
      kinds[n++] = CPR_UP;
  }
  return n;
}

/* Prints the profiles as text, a blank line between two. Returns 0 or 2. */
static int print_text(const struct cpr_data *d, size_t r,
                      const enum cpr_kind *kinds, size_t nk, long fn,
                      const struct cp_args *a) {
  for (size_t k = 0; k < nk; k++) {
    struct cpr_rows rows;
    if (cpr_profile(d, r, kinds[k], fn < 0 ? 0 : (unsigned)fn, &rows) != 0) {
      fputs("coz-report callpath: out of memory\n", stderr);
      return 2;
    }
    if (k)
      fputc('\n', stdout);
    cpr_print(stdout, d, r, kinds[k], a->root, &rows, a->threshold);
    cpr_rows_free(&rows);
  }
  return 0;
}

/* Reads the inputs (CPR_DEFAULT_FILE without any). Returns 0, or 2 after
 * saying why there is nothing to show. */
static int read_inputs(int n, char **paths, struct cpr_data *d) {
  size_t read_ok = 0;
  if (n == 0)
    read_ok += cpr_read_file(d, CPR_DEFAULT_FILE) == 0;
  for (int i = 0; i < n; i++)
    read_ok += cpr_read_file(d, paths[i]) == 0;
  if (!read_ok)
    return 2;
  if (d->n_res == 0) {
    fputs("coz-report callpath: no call-path records in the input; run the "
          "program with COZ_CALLPATH=cpu (or another resource)\n",
          stderr);
    return 2;
  }
  return 0;
}

/* What the options ask of the data read: 0, or 2 after saying why not. */
static int show(const struct cpr_data *d, const struct cp_args *a) {
  long r = pick_resource(d, a->resource), fn;
  if (r < 0 || pick_root(d, a->root, &fn) != 0)
    return 2;
  enum cpr_kind kinds[3];
  size_t nk = pick_kinds(a, kinds);
  int rc = 0;
  if (a->json) {
    if (cpr_print_json(stdout, d, (size_t)r, kinds, nk, fn, a->threshold)) {
      fputs("coz-report callpath: out of memory or cannot write the JSON\n",
            stderr);
      rc = 2;
    }
  } else if (print_text(d, (size_t)r, kinds, nk, fn, a) != 0) {
    return 2;
  }
  if (a->html && write_html(a->html, d, (size_t)r, a->threshold) != 0)
    rc = 2;
  return rc;
}

int cr_callpath_main(int argc, char **argv) {
  struct cp_args a = {.threshold = THRESHOLD_DEFAULT};
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0)
    return rc;
  struct cpr_data d = {0};
  rc = read_inputs(argc - optind, argv + optind, &d);
  if (rc == 0)
    rc = show(&d, &a);
  cpr_free(&d);
  return rc;
}
