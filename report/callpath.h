/* callpath.h: call-path profiles (docs/callpath.md) from the runtime's
 * profile.callpath: the function profile (body plus descendants), the
 * downward profile rooted at a function and the upward profile of the paths
 * ending at one, computed as the seed paper's appendix does (a call path is
 * credited at most once per sample; recursion is folded by canonicalising
 * the path back to the earlier occurrence of a repeated function). */
#ifndef COZ_REPORT_CALLPATH_H
#define COZ_REPORT_CALLPATH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cpr_resource {
  char *name, *unit;
  uint64_t period; /* of the first run that used it */
  uint64_t samples, total, dropped;
};

struct cpr_stack {
  size_t resource;
  uint64_t samples, weight;
  size_t n;
  unsigned *fn; /* function ids, root (outermost) first */
};

struct cpr_data {
  struct cpr_resource *res;
  size_t n_res;
  struct cpr_stack *stacks;
  size_t n_stacks, cap_stacks;
  char **names;   /* function names by id, as the file holds them */
  char **display; /* by id: the demangled name, NULL if not mangled */
  size_t n_names, cap_names;
  void *name_index;
  size_t bad_lines;
};

/* Reads one file into d (several files accumulate). Returns 0, or -1 with
 * one line on stderr when the file cannot be read. Malformed lines are
 * counted in bad_lines and reported once per file. */
int cpr_read_file(struct cpr_data *d, const char *path);
void cpr_free(struct cpr_data *d);
/* Index of a resource by name, or -1. */
long cpr_find_resource(const struct cpr_data *d, const char *name);
/* Function id by name, or -1. */
long cpr_find_function(const struct cpr_data *d, const char *name);

/* ---- names (callpath_names.c) ---- */
/* The demangled form of a C++ symbol name (malloc'ed), or NULL when the
 * name is not a mangled C++ name. */
char *cpr_demangle(const char *name);
/* The name to show for a function: demangled when it was mangled. */
const char *cpr_name(const struct cpr_data *d, unsigned id);
/* Function id for --root: the name as the file holds it (mangled), the
 * demangled name, or the demangled name without its parameter list
 * (ns::Queue::pop). -1 when none matches, -2 when the short form names
 * several functions. */
long cpr_lookup_function(const struct cpr_data *d, const char *name);

/* CPR_BODY: the function each sample was taken in (prof(1) generalised to
 * any resource, seed section 5.2). */
enum cpr_kind { CPR_FUNCTIONS, CPR_DOWN, CPR_UP, CPR_BODY };

struct cpr_row {
  unsigned *path; /* function ids in call order */
  size_t n;
  uint64_t samples, weight;
};

struct cpr_rows {
  struct cpr_row *rows;
  size_t n;
};

/* Rows sorted by weight (descending). For CPR_FUNCTIONS and CPR_BODY
 * `root` is unused and every row has one function. */
int cpr_profile(const struct cpr_data *d, size_t resource, enum cpr_kind kind,
                unsigned root, struct cpr_rows *out);
void cpr_rows_free(struct cpr_rows *r);

/* Prints one profile in the seed's layout; rows whose fraction is below
 * threshold are hidden (and counted in a footer line). */
void cpr_print(FILE *f, const struct cpr_data *d, size_t resource,
               enum cpr_kind kind, const char *root,
               const struct cpr_rows *rows, double threshold);

/* The profiles `kinds` of one resource as one JSON document (schema
 * coz-callpath/1, docs/callpath.md); `root` is the function id of the
 * downward and upward profiles. Returns 0, or -1 (out of memory, write
 * error). */
int cpr_print_json(FILE *f, const struct cpr_data *d, size_t resource,
                   const enum cpr_kind *kinds, size_t n_kinds, long root,
                   double threshold);

/* HTML: an icicle view (inline SVG) of the downward profile of every stack
 * of a resource, for the report's page. */
void cpr_write_icicle_svg(FILE *f, const struct cpr_data *d, size_t resource,
                          double threshold);

/* The HTML page's call-path sections: the call-path file beside each
 * causal profile (NAME.coz -> NAME.callpath, else profile.callpath in the
 * same directory), an icicle view per resource; nothing when none exists. */
void cpr_write_html_sections(FILE *f, const char *const *inputs, size_t n);

/* The `coz-report callpath` subcommand. */
int cr_callpath_main(int argc, char **argv);

#endif /* COZ_REPORT_CALLPATH_H */
