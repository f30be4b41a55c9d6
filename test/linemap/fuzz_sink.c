/* fuzz_sink.c: see fuzz_sink.h. */
#include "fuzz_sink.h"

#include "path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The coverage build (NAME-cov) has no leak checker to pause. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define LEAKS_UNCHECKED_BEGIN() __lsan_disable()
#define LEAKS_UNCHECKED_END() __lsan_enable()
#endif
#endif
#ifndef LEAKS_UNCHECKED_BEGIN
#define LEAKS_UNCHECKED_BEGIN()
#define LEAKS_UNCHECKED_END()
#endif

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz_sink: contract broken: %s\n", #cond);              \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* Line objects: only their identity matters to the table builder. */
static struct coz_line g_lines[FUZZ_SINK_FILES * 8];

/* Checks what coz_path_normalize promises of out (len bytes). */
static void check_normalized(const char *out, size_t len, const char *dir,
                             const char *name) {
  CHECK(len == strlen(out));
  bool absolute = name[0] == '/' || (dir && dir[0] == '/');
  CHECK((out[0] == '/') == absolute);
  if (strcmp(out, ".") == 0) {
    CHECK(!absolute);
    return;
  }
  bool named = false; /* a component other than ".." was seen */
  for (const char *s = out + absolute; *s;) {
    const char *end = strchrnul(s, '/');
    size_t n = (size_t)(end - s);
    CHECK(n > 0); /* no "//", no trailing '/' */
    CHECK(!(n == 1 && s[0] == '.'));
    bool up = n == 2 && s[0] == '.' && s[1] == '.';
    CHECK(!up || (!absolute && !named)); /* ".." only leads a relative one */
    named |= !up;
    s = *end ? end + 1 : end;
    CHECK(*end == '\0' || *s != '\0');
  }
  char again[PATH_MAX];
  size_t len2 = coz_path_normalize(again, sizeof again, NULL, out);
  CHECK(len2 == len && memcmp(again, out, len) == 0);
}

static size_t normalize(char *out, const char *dir, const char *name) {
  size_t len = coz_path_normalize(out, PATH_MAX, dir, name);
  if (len)
    check_normalized(out, len, dir, name);
  return len;
}

static void *on_file(void *ctx, const char *path, const char *comp_dir) {
  struct fuzz_sink *fs = ctx;
  char buf[PATH_MAX];
  if (normalize(buf, comp_dir, path) == 0)
    return NULL; /* as linemap.c: a name too long drops its rows */
  return &fs->files[fs->n_files++ % FUZZ_SINK_FILES];
}

static bool g_drop_units;

static bool on_unit(void *ctx, const char *name, const char *comp_dir) {
  (void)ctx;
  char buf[PATH_MAX];
  size_t len = name ? normalize(buf, comp_dir, name) : 0;
  return !(g_drop_units && len % 2);
}

static void on_range(void *ctx, uint64_t lo, uint64_t hi, void *file,
                     uint32_t line) {
  struct fuzz_sink *fs = ctx;
  CHECK(lo < hi);
  CHECK(!fs->in_sequence || lo >= fs->last_hi);
  CHECK((char *)file >= fs->files &&
        (char *)file < fs->files + FUZZ_SINK_FILES);
  CHECK(line > 0);
  fs->in_sequence = true;
  fs->last_hi = hi;
  size_t k = ((size_t)((char *)file - fs->files) * 8 + line % 8);
  if (coz_objmap_keeps(&fs->b, lo))
    coz_objmap_add_range(&fs->b, lo, hi, &g_lines[k]);
}

static void on_end_sequence(void *ctx) {
  struct fuzz_sink *fs = ctx;
  fs->in_sequence = false;
  coz_objmap_end_sequence(&fs->b);
}

void fuzz_sink_begin(struct fuzz_sink *fs, bool drop_units) {
  memset(fs, 0, sizeof *fs);
  fs->sink =
      (struct coz_dwarf_sink){on_file, on_range, on_end_sequence, fs, on_unit};
  g_drop_units = drop_units;
  /* One executable segment, so that both kept and dropped sequences
   * (code the linker discarded, at 0) occur. */
  uint64_t lo = 0x1000, hi = (uint64_t)1 << 47;
  coz_objmap_begin(&fs->b, &lo, &hi, 1, 0);
}

/* The line of the last entry at or below a, found by walking from entry
 * i (whose lo is a's neighbour) instead of through the bucket index and
 * binary search of coz_objmap_lookup: the table's plain meaning. */
static struct coz_line *line_near(const struct coz_objmap *m, size_t i,
                                  uint64_t a) {
  while (i > 0 && m->r[i].lo > a)
    i--;
  if (m->r[i].lo > a)
    return NULL;
  while (i + 1 < m->n && m->r[i + 1].lo <= a)
    i++;
  return m->r[i].line;
}

static void check_table(const struct coz_objmap *m) {
  CHECK(m->n > 0 && m->r[m->n - 1].line == NULL);
  for (size_t i = 1; i < m->n; i++)
    CHECK(m->r[i - 1].lo <= m->r[i].lo);
  size_t step = m->n / 512 + 1; /* bounded work per input */
  for (size_t i = 0; i < m->n; i += step) {
    uint64_t a = m->r[i].lo;
    CHECK(coz_objmap_lookup(m, a) == line_near(m, i, a));
    CHECK(coz_objmap_lookup(m, a - 1) == line_near(m, i, a - 1));
    CHECK(coz_objmap_lookup(m, a + 1) == line_near(m, i, a + 1));
  }
}

void fuzz_sink_finish(struct fuzz_sink *fs) {
  bool oom;
  /* The table header comes from the runtime's arena, which never frees
   * (tables live as long as the process): not a leak to report here. */
  LEAKS_UNCHECKED_BEGIN();
  struct coz_objmap *m = coz_objmap_finish(&fs->b, &oom);
  LEAKS_UNCHECKED_END();
  CHECK(!oom);
  if (!m)
    return;
  check_table(m);
  free(m->r);
  free(m->idx);
}
