/* source.c: the source text of a profiled line, for the HTML page.
 *
 * Profiles name lines as the compiler saw them ("file:line", the file
 * absolute or relative to the build directory). The file is tried as
 * written, then under each --source-dir. Files are read once and cached.
 */
#include "source.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cached {
  char *path; /* as named in the profile */
  char *text; /* NULL: unreadable */
  size_t len;
};

static struct cached *cache;
static size_t n_cache, cap_cache;

unsigned long cr_location_split(const char *location, size_t *file_len) {
  const char *colon = strrchr(location, ':');
  *file_len = strlen(location);
  if (!colon || !colon[1])
    return 0;
  unsigned long n = 0;
  const char *d = colon + 1;
  for (; *d && *d != '-'; d++) {
    if (*d < '0' || *d > '9' || n > 100000000)
      return 0;
    n = n * 10 + (unsigned long)(*d - '0');
  }
  /* "file:first-last", a range COZ_FIXED_LINE sped up: its first line */
  if (*d == '-') {
    const char *last = d + 1;
    if (d == colon + 1 || !*last || strspn(last, "0123456789") != strlen(last))
      return 0;
  }
  *file_len = (size_t)(colon - location);
  return n;
}

/* Reads at most 64 MiB of the regular file `path`; NULL when it cannot.
 * A profile may name anything (/dev/stdin, a FIFO): only regular files are
 * opened for reading, and without blocking. */
static char *slurp(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0 || n >= (64u << 20))
      break;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
      } else {
        buf = nb;
      }
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static struct cached *load(const struct cr_report *rep, const char *file) {
  for (size_t i = 0; i < n_cache; i++)
    if (strcmp(cache[i].path, file) == 0)
      return &cache[i];
  if (n_cache == cap_cache) {
    size_t nc = cap_cache ? cap_cache * 2 : 16;
    struct cached *na = realloc(cache, nc * sizeof *na);
    if (!na)
      return NULL;
    cache = na;
    cap_cache = nc;
  }
  struct cached *c = &cache[n_cache];
  c->path = strdup(file);
  if (!c->path)
    return NULL;
  c->text = slurp(file, &c->len);
  for (size_t i = 0; !c->text && file[0] != '/' && i < rep->n_source_dirs;
       i++) {
    size_t n = strlen(rep->source_dirs[i]) + strlen(file) + 2;
    char *full = malloc(n);
    if (!full)
      break;
    snprintf(full, n, "%s/%s", rep->source_dirs[i], file);
    c->text = slurp(full, &c->len);
    free(full);
  }
  n_cache++;
  return c;
}

const char *cr_source_line(const struct cr_report *rep, const char *location) {
  static char line[512];
  size_t file_len;
  unsigned long want = cr_location_split(location, &file_len);
  if (want == 0 || file_len == 0 || file_len >= 4096)
    return NULL;
  char file[4096];
  memcpy(file, location, file_len);
  file[file_len] = '\0';
  struct cached *c = load(rep, file);
  if (!c || !c->text)
    return NULL;
  unsigned long no = 1;
  size_t i = 0;
  while (i < c->len && no < want) {
    const char *nl = memchr(c->text + i, '\n', c->len - i);
    if (!nl)
      return NULL;
    i = (size_t)(nl - c->text) + 1;
    no++;
  }
  if (no != want || i >= c->len)
    return NULL;
  size_t o = 0;
  while (i < c->len && c->text[i] != '\n' && o < sizeof line - 1) {
    char ch = c->text[i++];
    line[o++] = ch == '\t' ? ' ' : ch;
  }
  line[o] = '\0';
  return line;
}

void cr_source_cache_free(void) {
  for (size_t i = 0; i < n_cache; i++) {
    free(cache[i].path);
    free(cache[i].text);
  }
  free(cache);
  cache = NULL;
  n_cache = cap_cache = 0;
}
