/* callpath_cmd.c: `coz-report callpath [options] [FILES...]`.
 *
 * Without --root: the function profile. With --root F: the downward and the
 * upward call-path profiles of F (or one of them with --down / --up).
 * Exit status: 0 on success, 2 on a usage error or when no file is read. */
#include "callpath.h"
#include "subcommands.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: coz-report callpath [options] [FILES...]   (default: "
        "profile.callpath)\n"
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
        "(default 0.01)\n"
        "  --html FILE      also write an HTML page with an icicle view\n"
        "  --json           print JSON (schema coz-callpath/1) instead of "
        "text\n"
        "  -h, --help\n",
        f);
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

int cr_callpath_main(int argc, char **argv) {
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
  const char *resource = NULL, *root = NULL, *html = NULL;
  bool want_down = false, want_up = false, want_body = false, json = false;
  double threshold = 0.01;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'r':
      resource = optarg;
      break;
    case 'o':
      root = optarg;
      break;
    case 'd':
      want_down = true;
      break;
    case 'u':
      want_up = true;
      break;
    case 'b':
      want_body = true;
      break;
    case 't': {
      char *end;
      errno = 0;
      threshold = strtod(optarg, &end);
      if (!*optarg || *end || errno || !(threshold >= 0 && threshold <= 1)) {
        fprintf(stderr,
                "coz-report callpath: --threshold wants a fraction "
                "from 0 to 1 (e.g. 0.01), not '%s'\n",
                optarg);
        return 2;
      }
      break;
    }
    case 'H':
      html = optarg;
      break;
    case 'j':
      json = true;
      break;
    case 'h':
      usage(stdout);
      return 0;
    default:
      usage(stderr);
      return 2;
    }
  }
  if ((want_down || want_up) && !root) {
    fputs("coz-report callpath: --down/--up need --root FUNCTION (run "
          "without them first for the function profile)\n",
          stderr);
    return 2;
  }
  if (!want_down && !want_up)
    want_down = want_up = true;
  struct cpr_data d = {0};
  size_t read_ok = 0;
  if (optind == argc)
    read_ok += cpr_read_file(&d, "profile.callpath") == 0;
  for (int i = optind; i < argc; i++)
    read_ok += cpr_read_file(&d, argv[i]) == 0;
  int rc = 0;
  if (!read_ok) {
    rc = 2;
    goto done;
  }
  if (d.n_res == 0) {
    fputs("coz-report callpath: no call-path records in the input; run the "
          "program with COZ_CALLPATH=cpu (or another resource)\n",
          stderr);
    rc = 2;
    goto done;
  }
  long r = resource ? cpr_find_resource(&d, resource) : 0;
  if (r < 0) {
    fprintf(stderr,
            "coz-report callpath: no resource '%s' in the input; it "
            "holds:",
            resource);
    for (size_t i = 0; i < d.n_res; i++)
      fprintf(stderr, " %s", d.res[i].name);
    fputs("\n", stderr);
    rc = 2;
    goto done;
  }
  long fn = root ? cpr_lookup_function(&d, root) : -1;
  if (root && fn == -2) {
    fprintf(stderr,
            "coz-report callpath: '%s' names several functions (overloads); "
            "give the full name with its parameters, as the function "
            "profile shows it\n",
            root);
    rc = 2;
    goto done;
  }
  if (root && fn < 0) {
    fprintf(stderr,
            "coz-report callpath: function '%s' is on no sampled "
            "stack; pick one from the function profile (run without "
            "--root)\n",
            root);
    rc = 2;
    goto done;
  }
  enum cpr_kind kinds[3];
  size_t nk = 0;
  if (want_body)
    kinds[nk++] = CPR_BODY;
  if (!root)
    kinds[nk++] = CPR_FUNCTIONS;
  else {
    if (want_down)
      kinds[nk++] = CPR_DOWN;
    if (want_up)
      kinds[nk++] = CPR_UP;
  }
  if (json) {
    if (cpr_print_json(stdout, &d, (size_t)r, kinds, nk, fn, threshold) != 0) {
      fputs("coz-report callpath: out of memory or cannot write the JSON\n",
            stderr);
      rc = 2;
    }
    nk = 0; /* no text */
  }
  for (size_t k = 0; k < nk; k++) {
    struct cpr_rows rows;
    if (cpr_profile(&d, (size_t)r, kinds[k], fn < 0 ? 0 : (unsigned)fn,
                    &rows) != 0) {
      fputs("coz-report callpath: out of memory\n", stderr);
      rc = 2;
      goto done;
    }
    if (k)
      fputc('\n', stdout);
    cpr_print(stdout, &d, (size_t)r, kinds[k], root, &rows, threshold);
    cpr_rows_free(&rows);
  }
  if (html && write_html(html, &d, (size_t)r, threshold) != 0)
    rc = 2;
done:
  cpr_free(&d);
  return rc;
}
