/* linemap.c: the public line map (linemap.h): which loaded objects and
 * lines are in scope, and the published lookup tables.
 *
 * Publication: g_maps[] is a fixed-capacity array of object tables, each
 * finished before its pointer is stored (release) and g_n_maps is bumped
 * (release); lookups read g_n_maps and the pointers with acquire, so a
 * signal handler sees either nothing or a complete table. Tables are never
 * freed: a handler may be reading one at any time. */
#include "linemap.h"

#include "arena.h"
#include "dwarf_lines.h"
#include "intern.h"
#include "loaded.h"
#include "objmap.h"
#include "path.h"
#include "scope.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define COZ_MAX_OBJMAPS 1024
#define COZ_STR_(x) #x
#define COZ_STR(x) COZ_STR_(x)

static _Atomic(struct coz_objmap *) g_maps[COZ_MAX_OBJMAPS];
static atomic_size_t g_n_maps;

/* The scope, copied at build time (profiler thread only from here on). */
static struct {
  bool built;
  char *source_patterns; /* NULL: default scope */
  char *binary_patterns; /* NULL: default binary scope */
  size_t n_default_files;
  bool (*holds_pass_code)(uintptr_t lo, uintptr_t hi, void *arg);
  void *holds_pass_code_arg;
  char runtime_dir[PATH_MAX]; /* our own sources: never in scope */
  size_t runtime_dir_len;
  void (*notice)(const char *fmt, ...);
} g_cfg;

void coz_linemap_set_notice(void (*fn)(const char *fmt, ...)) {
  g_cfg.notice = fn;
}

/* One line for a person; on stderr unless the runtime routes it. */
static void notice(const char *msg) {
  if (g_cfg.notice)
    g_cfg.notice("%s", msg);
  else
    fprintf(stderr, "coz: %s\n", msg);
}

/* Objects already handled (profiler thread only). */
/* Objects already read, present or departed (profiler thread only). A
 * departed one that comes back from the same file at the same address
 * (a plugin loaded again) gets its old table back instead of a new one,
 * which keeps reloading cheap and the table count bounded. */
static struct seen {
  char *path;
  uintptr_t bias;
  struct coz_objmap *map; /* NULL: nothing in scope */
  unsigned gen;           /* g_scope_gen when map was read */
  bool present;           /* loaded at the last scan */
  struct file_id {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
  } id;
} * g_seen;
static size_t g_n_seen, g_cap_seen;
/* Bumped when default files arrive that objects already read may hold:
 * tables of an older generation are read again at the next scan. */
static unsigned g_scope_gen;
static bool g_stale; /* a scan is due although no object came or went */
static unsigned long long g_adds = ~0ull, g_subs = ~0ull;

/* ---- scope ---------------------------------------------------------- */

static bool is_runtime_file(const struct coz_file *f) {
  return g_cfg.runtime_dir_len && f->len > g_cfg.runtime_dir_len &&
         memcmp(f->path, g_cfg.runtime_dir, g_cfg.runtime_dir_len) == 0;
}

static bool file_in_scope(const struct coz_file *f) {
  if (is_runtime_file(f))
    return false;
  if (g_cfg.source_patterns)
    return coz_scope_match(g_cfg.source_patterns, f->path, NULL);
  /* Without files recorded by the pass (coz.h used with a plain compiler)
   * every file of the executable is in scope, as in Coz. */
  return g_cfg.n_default_files ? f->is_default : true;
}

/* Whether an object is in the binary scope before reading it; *need_default
 * says the decision waits for its lines (must hit a default file). */
static bool object_considered(const struct coz_loaded *o, bool *need_default) {
  *need_default = false;
  if (g_cfg.binary_patterns)
    return coz_scope_match(g_cfg.binary_patterns, o->path,
                           o->is_main ? "MAIN" : NULL);
  if (g_cfg.n_default_files) {
    /* Only objects compiled with the pass can hold default files' code;
     * skipping the others unread matters (a libc with separate debug info
     * is slow to read: linemap.h). The runtime's filter knows; else the
     * marker says. */
    *need_default = true;
    if (g_cfg.holds_pass_code)
      return g_cfg.holds_pass_code(o->lo, o->hi, g_cfg.holds_pass_code_arg);
    return o->is_main || o->pass_marker != 0; /* a missing export aside */
  }
  return o->is_main;
}

/* ---- reading one object --------------------------------------------- */

struct read_ctx {
  struct coz_objmap_builder b;
  bool hit_default;
  bool user_code; /* has line info outside the runtime's own sources */
  bool oom;
};

static void *sink_file(void *ctx, const char *path, const char *comp_dir) {
  struct read_ctx *rc = ctx;
  char buf[PATH_MAX];
  size_t len = coz_path_normalize(buf, sizeof buf, comp_dir, path);
  if (len == 0)
    return NULL;
  struct coz_file *f = coz_intern_file(buf, len, file_in_scope);
  if (!f) {
    rc->oom = true;
    return NULL;
  }
  rc->hit_default |= f->is_default;
  rc->user_code |= !is_runtime_file(f);
  return f->in_scope ? f : NULL;
}

/* Units of the runtime's own sources are skipped whole: the system
 * headers inlined into them (stdatomic.h, stdio2.h) are runtime code too,
 * and would otherwise look like the program's lines. */
static _Atomic bool g_cancelled;

void coz_linemap_cancel(void) { atomic_store(&g_cancelled, true); }

static bool cancelled(void) {
  return atomic_load_explicit(&g_cancelled, memory_order_relaxed);
}

static bool sink_unit(void *ctx, const char *name, const char *comp_dir) {
  (void)ctx;
  if (cancelled())
    return false; /* skipped: the rest of the object costs only its walk */
  char buf[PATH_MAX];
  size_t len = name ? coz_path_normalize(buf, sizeof buf, comp_dir, name) : 0;
  return !(len > g_cfg.runtime_dir_len && g_cfg.runtime_dir_len &&
           memcmp(buf, g_cfg.runtime_dir, g_cfg.runtime_dir_len) == 0);
}

static void sink_range(void *ctx, uint64_t lo, uint64_t hi, void *file,
                       uint32_t lineno) {
  struct read_ctx *rc = ctx;
  if (!coz_objmap_keeps(&rc->b, lo))
    return;
  struct coz_line *line = coz_intern_line(file, lineno);
  if (line)
    coz_objmap_add_range(&rc->b, lo, hi, line);
  else if (lineno > 0 && lineno <= COZ_MAX_LINENO)
    rc->oom = true;
}

static void sink_end_sequence(void *ctx) {
  coz_objmap_end_sequence(&((struct read_ctx *)ctx)->b);
}

/* What reading an object found out. */
struct read_result {
  bool considered; /* in the binary scope (or maybe, by default) */
  bool user_code;  /* it has line info for code other than the runtime */
  bool oom;
};

/* Builds the table of one object; NULL when it contributes no line. */
static struct coz_objmap *read_object(const struct coz_loaded *o,
                                      struct read_result *res) {
  bool need_default;
  memset(res, 0, sizeof *res);
  if (!object_considered(o, &need_default))
    return NULL;
  res->considered = true;
  struct coz_dwarf_object *obj = coz_dwarf_open(o->path);
  if (!obj)
    return NULL;
  struct read_ctx rc = {0};
  struct coz_dwarf_sink sink = {sink_file, sink_range, sink_end_sequence, &rc,
                                sink_unit};
  /* Objects join the default binary scope by holding code of a default
   * file. When only default files are in scope, reading the lines settles
   * that by itself; with source patterns, the file tables are checked
   * first, so no line of an object outside the scope is ever created. */
  if (need_default && g_cfg.source_patterns) {
    coz_dwarf_read_lines(obj, &sink, true);
    if (!rc.hit_default) {
      res->user_code = rc.user_code;
      res->oom = rc.oom;
      coz_dwarf_close(obj);
      return NULL;
    }
  }
  /* About one table entry per 8 bytes of line program on clang -O2 code;
   * reserving twice that costs only address space (untouched pages) and
   * saves regrowing a large array. */
  coz_objmap_begin(&rc.b, o->seg_lo, o->seg_hi, o->n_seg,
                   coz_dwarf_line_bytes(obj) / 4);
  coz_dwarf_read_lines(obj, &sink, false);
  coz_dwarf_close(obj);
  res->user_code = rc.user_code;
  if (rc.oom) {
    res->oom = true;
    coz_objmap_discard(&rc.b);
    return NULL;
  }
  struct coz_objmap *m = coz_objmap_finish(&rc.b, &res->oom);
  if (!m)
    return NULL;
  m->bias = o->bias;
  m->lo = (uintptr_t)m->r[0].lo + o->bias;
  m->hi = (uintptr_t)m->r[m->n - 1].lo + o->bias;
  m->path = coz_arena_strndup(o->path, strlen(o->path));
  return m;
}

static struct seen *find_seen(const struct coz_loaded *o) {
  for (size_t i = 0; i < g_n_seen; i++)
    if (g_seen[i].bias == o->bias && strcmp(g_seen[i].path, o->path) == 0)
      return &g_seen[i];
  return NULL;
}

static bool file_id(const char *path, struct file_id *id) {
  struct stat st;
  memset(id, 0, sizeof *id);
  if (stat(path, &st) != 0)
    return false;
  *id = (struct file_id){st.st_dev, st.st_ino, st.st_size, st.st_mtim};
  return true;
}

static bool same_file(const struct file_id *a, const struct file_id *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
         a->mtime.tv_sec == b->mtime.tv_sec &&
         a->mtime.tv_nsec == b->mtime.tv_nsec;
}

static int add_seen(const struct coz_loaded *o, struct coz_objmap *m,
                    const struct file_id *id) {
  if (g_n_seen == g_cap_seen) {
    size_t cap = g_cap_seen ? g_cap_seen * 2 : 32;
    struct seen *v = realloc(g_seen, cap * sizeof *v);
    if (!v)
      return -1;
    g_seen = v;
    g_cap_seen = cap;
  }
  char *path = strdup(o->path);
  if (!path)
    return -1;
  g_seen[g_n_seen++] = (struct seen){path, o->bias, m, g_scope_gen, true, *id};
  return 0;
}

static void publish(struct coz_objmap *m) {
  size_t n = atomic_load_explicit(&g_n_maps, memory_order_relaxed);
  if (n == COZ_MAX_OBJMAPS) {
    static bool warned;
    if (!warned)
      notice("more than " COZ_STR(
          COZ_MAX_OBJMAPS) " objects with lines in "
                           "scope; narrow COZ_BINARY_SCOPE");
    warned = true;
    return;
  }
  atomic_store_explicit(&g_maps[n], m, memory_order_release);
  atomic_store_explicit(&g_n_maps, n + 1, memory_order_release);
}

/* Reads a present object again after the scope grew: the new table goes
 * live before the old one stops answering, so lookups never miss. */
static int reread(const struct coz_loaded *o, struct seen *s,
                  struct read_result *main_res) {
  struct read_result res;
  struct coz_objmap *m = read_object(o, &res);
  if (o->is_main)
    *main_res = res;
  if (res.oom)
    return -1;
  if (m)
    publish(m);
  if (s->map)
    atomic_store_explicit(&s->map->unloaded, true, memory_order_release);
  s->map = m;
  s->gen = g_scope_gen;
  return 0;
}

/* Reads every object not seen yet and marks the departed ones unloaded.
 * Returns 0, or -1 when out of memory. *main_res tells about the
 * executable when it was read now (else it is left alone). */
static int scan_objects(struct read_result *main_res) {
  struct coz_loaded_list ec;
  if (coz_loaded_snapshot(&ec))
    return -1;
  bool *was_present = calloc(g_n_seen + 1, sizeof *was_present);
  if (!was_present) {
    coz_loaded_free(&ec);
    return -1;
  }
  for (size_t i = 0; i < g_n_seen; i++) {
    was_present[i] = g_seen[i].present;
    g_seen[i].present = false;
  }
  size_t n_old = g_n_seen;
  int rc = 0;
  for (size_t i = 0; i < ec.n && rc == 0 && !cancelled(); i++) {
    struct seen *s = find_seen(&ec.v[i]);
    if (s && was_present[s - g_seen]) {
      s->present = true; /* still loaded */
      if (s->gen != g_scope_gen && reread(&ec.v[i], s, main_res))
        rc = -1;
      continue;
    }
    struct file_id id;
    file_id(ec.v[i].path, &id);
    if (s && same_file(&s->id, &id) && s->gen == g_scope_gen) {
      s->present = true; /* back again: revive its table */
      if (s->map)
        atomic_store_explicit(&s->map->unloaded, false, memory_order_release);
      continue;
    }
    struct read_result res;
    struct coz_objmap *m = read_object(&ec.v[i], &res);
    if (ec.v[i].is_main)
      *main_res = res;
    if (res.oom) {
      rc = -1;
    } else if (s) { /* a different file at the same place, or stale */
      s->present = true;
      s->map = m;
      s->gen = g_scope_gen;
      s->id = id;
    } else if (add_seen(&ec.v[i], m, &id)) {
      rc = -1;
    }
    if (m)
      publish(m);
  }
  /* Tables of departed objects stay (a handler may hold one) but no longer
   * answer lookups. */
  for (size_t i = 0; i < n_old; i++) {
    if (rc != 0) /* unfinished scan: keep the state, retry next time */
      g_seen[i].present |= was_present[i];
    else if (was_present[i] && !g_seen[i].present && g_seen[i].map)
      atomic_store_explicit(&g_seen[i].map->unloaded, true,
                            memory_order_release);
  }
  free(was_present);
  if (rc == 0) {
    g_adds = ec.adds;
    g_subs = ec.subs;
  }
  coz_loaded_free(&ec);
  return rc;
}

/* ---- public API -------------------------------------------------------- */

static char *copy_patterns(const char *p) {
  return coz_scope_nonempty(p) ? coz_arena_strndup(p, strlen(p)) : NULL;
}

/* Our own source tree (this file is runtime/linemap/linemap.c), so the
 * runtime's code never enters the scope, even with COZ_SOURCE_SCOPE=%. */
static void set_runtime_dir(void) {
  static const char tail[] = "runtime/linemap/linemap.c";
  char buf[PATH_MAX];
  size_t len = coz_path_normalize(buf, sizeof buf, NULL, __FILE__);
  /* Only a path that ends as in our source tree names that tree; without
   * it nothing is excluded (a guess could hide the user's own code). */
  if (len <= sizeof tail || buf[0] != '/' ||
      strcmp(buf + len - (sizeof tail - 1), tail) != 0 ||
      buf[len - sizeof tail] != '/')
    return;
  size_t keep = len - (sizeof tail - 1) + (sizeof "runtime/" - 1);
  memcpy(g_cfg.runtime_dir, buf, keep);
  g_cfg.runtime_dir[keep] = '\0';
  g_cfg.runtime_dir_len = keep;
}

void coz_linemap_set_pass_object_filter(bool (*fn)(uintptr_t lo, uintptr_t hi,
                                                   void *arg),
                                        void *arg) {
  g_cfg.holds_pass_code = fn;
  g_cfg.holds_pass_code_arg = arg;
}

long coz_linemap_build(const struct coz_scope_config *cfg) {
  if (g_cfg.built) {
    coz_linemap_refresh();
    return (long)coz_intern_line_count();
  }
  g_cfg.built = true;
  set_runtime_dir();
  g_cfg.source_patterns = copy_patterns(cfg ? cfg->source_patterns : NULL);
  g_cfg.binary_patterns = copy_patterns(cfg ? cfg->binary_patterns : NULL);
  size_t n_default = cfg ? cfg->n_default_files : 0;
  for (size_t i = 0; i < n_default; i++) {
    char buf[PATH_MAX];
    const char *f = cfg->default_files[i];
    size_t len = f ? coz_path_normalize(buf, sizeof buf, NULL, f) : 0;
    if (len == 0)
      continue;
    g_cfg.n_default_files++;
    if (!coz_intern_default_file(buf, len, file_in_scope, NULL))
      goto oom;
  }
  coz_intern_rescope(file_in_scope); /* files added before the build */
  struct read_result main_res = {0};
  if (scan_objects(&main_res))
    goto oom;
  long lines = (long)coz_intern_line_count();
  if (main_res.considered && !main_res.user_code && !cancelled()) {
    notice("the executable has no debug line information; compile it with "
           "-g to profile it");
    if (lines == 0)
      return -1;
  }
  return lines;
oom:
  notice("out of memory while reading line tables; profiling is off");
  return -1;
}

void coz_linemap_preopen(bool (*fn)(uintptr_t lo, uintptr_t hi, void *arg),
                         void *arg) {
  struct coz_loaded_list list;
  if (coz_loaded_snapshot(&list))
    return;
  for (size_t i = 0; i < list.n; i++)
    if (list.v[i].is_main || (fn && fn(list.v[i].lo, list.v[i].hi, arg)))
      coz_dwarf_preopen(list.v[i].path);
  coz_loaded_free(&list);
}

void coz_linemap_refresh(void) {
  if (!g_cfg.built)
    return;
  /* dl_iterate_phdr's counters show whether anything was loaded or
   * unloaded since the last scan; the check is cheap enough to poll. */
  unsigned long long adds, subs;
  coz_loaded_counters(&adds, &subs);
  if (adds == g_adds && subs == g_subs && !g_stale)
    return;
  g_stale = false;
  struct read_result main_res;
  if (scan_objects(&main_res))
    notice("out of memory while reading line tables of new objects; their "
           "lines are not profiled");
}

void coz_linemap_add_default_files(const char *const *files, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char buf[PATH_MAX];
    size_t len =
        files[i] ? coz_path_normalize(buf, sizeof buf, NULL, files[i]) : 0;
    bool was_other = false;
    if (len == 0)
      continue;
    if (!g_cfg.built)
      g_cfg.n_default_files++; /* counts for the build's scope mode */
    if (!coz_intern_default_file(buf, len, file_in_scope, &was_other)) {
      notice("out of memory while adding source files to the scope; their "
             "lines are not profiled");
      return;
    }
    /* A file seen before may have code in objects already read. */
    if (was_other && g_cfg.built && !g_stale) {
      g_scope_gen++;
      g_stale = true;
    }
  }
}

struct coz_line *coz_linemap_lookup(uintptr_t pc) {
  size_t n = atomic_load_explicit(&g_n_maps, memory_order_acquire);
  for (size_t i = 0; i < n; i++) {
    struct coz_objmap *m =
        atomic_load_explicit(&g_maps[i], memory_order_acquire);
    if (pc < m->lo || pc >= m->hi ||
        atomic_load_explicit(&m->unloaded, memory_order_relaxed))
      continue;
    struct coz_line *line = coz_objmap_lookup(m, pc);
    if (line)
      return line;
  }
  return NULL;
}

/* Whether path ends with the components of suffix ("b/c.c" matches
 * "/a/b/c.c" but not "/a/xb/c.c"). */
static bool path_suffix_match(const char *path, size_t path_len,
                              const char *suffix, size_t suffix_len) {
  if (suffix_len > path_len ||
      memcmp(path + path_len - suffix_len, suffix, suffix_len) != 0)
    return false;
  return suffix_len == path_len || suffix[0] == '/' ||
         path[path_len - suffix_len - 1] == '/';
}

/* Parses "file:line", or "file:lo-hi" when `ranges`, into the normalized
 * file name (returning its length) and the lines; 0 when malformed. */
static size_t parse_lines(const char *spec, bool ranges, char file[PATH_MAX],
                          uint32_t *lo, uint32_t *hi) {
  if (!spec)
    return 0;
  const char *colon = strrchr(spec, ':');
  if (!colon || colon == spec || !colon[1])
    return 0;
  char *end;
  unsigned long first = strtoul(colon + 1, &end, 10), last = first;
  if (ranges && *end == '-' && end[1])
    last = strtoul(end + 1, &end, 10);
  if (*end || first == 0 || last < first || last > UINT32_MAX)
    return 0;
  char raw[PATH_MAX];
  size_t raw_len = (size_t)(colon - spec);
  if (raw_len >= sizeof raw)
    return 0;
  memcpy(raw, spec, raw_len);
  raw[raw_len] = '\0';
  *lo = (uint32_t)first;
  *hi = (uint32_t)last;
  return coz_path_normalize(file, PATH_MAX, NULL, raw);
}

/* The lowest-numbered in-scope line among lo..hi of the first file found
 * that ends in `file`; NULL if none. */
static struct coz_line_entry *first_line_in(const char *file, size_t len,
                                            uint32_t lo, uint32_t hi) {
  struct coz_line_entry *best = NULL;
  for (struct coz_line_entry *l = coz_intern_first_line(); l; l = l->next_all)
    if (l->lineno >= lo && l->lineno <= hi &&
        (best ? l->file == best->file && l->lineno < best->lineno
              : path_suffix_match(l->file->path, l->file->len, file, len)))
      best = l;
  return best;
}

struct coz_line *coz_linemap_find(const char *file_colon_line) {
  char file[PATH_MAX];
  uint32_t lo, hi;
  size_t len = parse_lines(file_colon_line, false, file, &lo, &hi);
  struct coz_line_entry *l = len ? first_line_in(file, len, lo, hi) : NULL;
  return l ? &l->line : NULL;
}

struct coz_line *coz_linemap_find_range(const char *spec,
                                        struct coz_line_range *range) {
  char file[PATH_MAX];
  size_t len = parse_lines(spec, true, file, &range->lo, &range->hi);
  struct coz_line_entry *l =
      len ? first_line_in(file, len, range->lo, range->hi) : NULL;
  range->file = l ? l->file : NULL;
  return l ? &l->line : NULL;
}

bool coz_line_in_range(const struct coz_line *line,
                       const struct coz_line_range *range) {
  const struct coz_line_entry *l = (const struct coz_line_entry *)line;
  return l->file == range->file && l->lineno >= range->lo &&
         l->lineno <= range->hi;
}

void coz_linemap_foreach(void (*fn)(struct coz_line *line, void *arg),
                         void *arg) {
  for (struct coz_line_entry *l = coz_intern_first_line(); l; l = l->next_all)
    fn(&l->line, arg);
}
