/* cpr_html.c: the call-path view of coz-report's HTML page. For each
 * causal profile given (`dir/NAME.coz`, or any other name), the call-path
 * file beside it (`dir/NAME.callpath`, or `dir/profile.callpath`) is read
 * when it exists, and every resource it holds gets an icicle view below
 * the causal plots. */
#include "cpr_html.h"
#include "cpr_read.h"
#include "cpr_svg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* dir/NAME.callpath for dir/NAME.coz; dir/profile.callpath otherwise. */
static char *sibling(const char *input) {
  const char *slash = strrchr(input, '/');
  size_t dir = slash ? (size_t)(slash - input + 1) : 0;
  const char *base = input + dir;
  size_t blen = strlen(base);
  char *out = malloc(dir + blen + sizeof CPR_DEFAULT_FILE);
  if (!out)
    return NULL;
  memcpy(out, input, dir);
  if (blen > 4 && strcmp(base + blen - 4, ".coz") == 0) {
    memcpy(out + dir, base, blen - 4);
    strcpy(out + dir + blen - 4, ".callpath");
  } else {
    strcpy(out + dir, CPR_DEFAULT_FILE);
  }
  return out;
}

void cpr_write_html_sections(FILE *f, const char *const *inputs, size_t n) {
  struct cpr_data d = {0};
  size_t found = 0;
  char **seen = calloc(n ? n : 1, sizeof *seen);
  for (size_t i = 0; seen && i < n; i++) {
    char *path = sibling(inputs[i]);
    bool dup = false;
    for (size_t k = 0; path && k < i; k++)
      dup |= seen[k] && strcmp(seen[k], path) == 0;
    if (path && !dup && access(path, R_OK) == 0 && cpr_read_file(&d, path) == 0)
      found++;
    seen[i] = path;
  }
  for (size_t i = 0; seen && i < n; i++)
    free(seen[i]);
  free(seen);
  if (found)
    for (size_t r = 0; r < d.n_res; r++)
      cpr_write_icicle_svg(f, &d, r, 0.005);
  cpr_free(&d);
}
