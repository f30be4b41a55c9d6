/* linemap_test.c: the line map against code whose lines the test knows.
 *
 * Usage: linemap_test MODE, one scope configuration per process (the map is
 * built once per process):
 *   default  default scope (the files "the pass recorded")
 *   source   COZ_SOURCE_SCOPE-style patterns
 *   binary   COZ_BINARY_SCOPE-style patterns
 *   concurrent  lookups from a SIGPROF handler and a second thread while
 *               the map is built and refreshed */
#include "dup.h"
#include "linemap.h"
#include "pass_marker.h"
#include "probe.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

void other_probe(struct probe *p);
void dup_probe_other_unit(struct probe *p);
void startup_probe(struct probe *p);
void startup_dup_probe(struct probe *p);
void clang_probes(struct probe *in_header, struct probe *in_unit);
void nomarker_probe(struct probe *p);

/* The runtime's registration function (the pass's modules call it). */
void __coz_register_module(const void *desc) { (void)desc; }

static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: FAIL (%s): ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

__attribute__((noinline)) static void main_probe(struct probe *p) { PROBE(p); }

/* Never called: the linker drops it (-ffunction-sections, --gc-sections)
 * and its line-table rows go to address 0, which the map must ignore. */
enum { gc_me_line = __LINE__ + 1 }; /* the line of PROBE below */
void gc_me(struct probe *p) { PROBE(p); }

/* "file:line" as the line map must name it. */
static char *expected_name(const struct probe *p) {
  char real[PATH_MAX];
  if (!realpath(p->file, real)) {
    fprintf(stderr, "cannot resolve %s\n", p->file);
    exit(2);
  }
  char *name = malloc(strlen(real) + 16);
  sprintf(name, "%s:%d", real, p->line);
  return name;
}

static char *real_file(const char *file) {
  char *r = realpath(file, NULL);
  if (!r) {
    fprintf(stderr, "cannot resolve %s\n", file);
    exit(2);
  }
  return r;
}

static const char *name_of(const struct coz_line *l) {
  /* Two buffers: a message may name two lines. */
  static char buf[2][COZ_LINE_NAME_MAX];
  static int next;
  if (!l)
    return "(null)";
  char *b = buf[next++ % 2];
  coz_line_name(l, b, COZ_LINE_NAME_MAX);
  return b;
}

/* Checks that pc maps to the probe's file:line; returns the line. */
static struct coz_line *expect_line(const struct probe *p, const char *what) {
  struct coz_line *l = coz_linemap_lookup(p->pc);
  char *want = expected_name(p);
  CHECK(l && strcmp(name_of(l), want) == 0, "%s: pc %#lx maps to %s, want %s",
        what, (unsigned long)p->pc, name_of(l), want);
  free(want);
  return l;
}

static void expect_none(const struct probe *p, const char *what) {
  struct coz_line *l = coz_linemap_lookup(p->pc);
  CHECK(l == NULL, "%s: pc %#lx is out of scope but maps to %s", what,
        (unsigned long)p->pc, name_of(l));
}

struct probes {
  struct probe main, other, dup_main, dup_unit, dup_lib, startup;
  struct probe clang_hdr, clang_unit, nomarker;
};

static void take_probes(struct probes *ps) {
  main_probe(&ps->main);
  other_probe(&ps->other);
  dup_probe(&ps->dup_main);
  dup_probe_other_unit(&ps->dup_unit);
  startup_probe(&ps->startup);
  startup_dup_probe(&ps->dup_lib);
  clang_probes(&ps->clang_hdr, &ps->clang_unit);
  nomarker_probe(&ps->nomarker);
}

static void *open_dl_path(const char *path, struct probe *p) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    exit(2);
  }
  void (*fn)(struct probe *) =
      (void (*)(struct probe *))dlsym(h, "dlopen_probe");
  if (!fn) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    exit(2);
  }
  fn(p);
  return h;
}

static void *open_dl(struct probe *p) {
  return open_dl_path(LM_DLOPEN_PATH, p);
}

/* The executable is (or is not) position-independent as built. */
static int main_bias(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  *(uintptr_t *)arg = (uintptr_t)info->dlpi_addr;
  return 1;
}

static void check_pie(void) {
  uintptr_t bias = 1;
  dl_iterate_phdr(main_bias, &bias);
  CHECK((bias != 0) == (EXPECT_PIE != 0), "load bias %#lx, expected %s",
        (unsigned long)bias, EXPECT_PIE ? "PIE" : "non-PIE");
}

static struct coz_scope_config default_config(const struct probes *ps) {
  static const char *files[8];
  files[0] = real_file(ps->main.file);
  files[1] = real_file(ps->dup_main.file);
  files[2] = real_file(ps->startup.file);
  files[3] = LM_DLOPEN_SOURCE;
  files[4] = "/nonexistent/never-compiled.c";
  files[5] = real_file(ps->clang_hdr.file);
  files[6] = real_file(ps->clang_unit.file);
  files[7] = real_file(ps->nomarker.file);
  return (struct coz_scope_config){NULL, NULL, files, 8};
}

struct visit_state {
  struct coz_line *want[3];
  int found[3];
  long visited;
};

static void visit(struct coz_line *l, void *arg) {
  struct visit_state *v = arg;
  v->visited++;
  for (int i = 0; i < 3; i++)
    if (v->want[i] == l)
      v->found[i]++;
}

static void test_default(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  CHECK(coz_linemap_lookup(ps.main.pc) == NULL, "lookup before build");
  CHECK(coz_linemap_find("linemap_test.c:1") == NULL, "find before build");
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);

  struct coz_line *m = expect_line(&ps.main, "executable");
  expect_none(&ps.other, "file outside the default scope");
  expect_line(&ps.startup, "library loaded at startup");
  expect_line(&ps.clang_unit, "clang-built unit");
  expect_line(&ps.clang_hdr, "header function in its own clang sequence");
  expect_none(&ps.nomarker, "library not compiled with the pass");

  /* One file:line compiled in two units and two objects: one line. */
  CHECK(ps.dup_main.pc != ps.dup_unit.pc && ps.dup_main.pc != ps.dup_lib.pc,
        "the duplicate probes should be distinct copies");
  struct coz_line *d1 = expect_line(&ps.dup_main, "dup.h in main unit");
  struct coz_line *d2 = expect_line(&ps.dup_unit, "dup.h in second unit");
  struct coz_line *d3 = expect_line(&ps.dup_lib, "dup.h in library");
  CHECK(d1 == d2 && d2 == d3, "duplicates map to %p %p %p", (void *)d1,
        (void *)d2, (void *)d3);

  /* find(): component-wise path suffix. */
  char q[PATH_MAX + 32];
  snprintf(q, sizeof q, "linemap_test.c:%d", ps.main.line);
  CHECK(coz_linemap_find(q) == m, "find(%s) = %s", q,
        name_of(coz_linemap_find(q)));
  snprintf(q, sizeof q, "linemap/./linemap_test.c:%d", ps.main.line);
  CHECK(coz_linemap_find(q) == m, "find(%s)", q);
  snprintf(q, sizeof q, "%s", m ? name_of(m) : "");
  CHECK(coz_linemap_find(q) == m, "find(%s) with the full name", q);
  snprintf(q, sizeof q, "emap_test.c:%d", ps.main.line);
  CHECK(coz_linemap_find(q) == NULL,
        "find(%s) must not match a partial "
        "component",
        q);
  snprintf(q, sizeof q, "linemap_test.c:%d", ps.main.line + 100000);
  CHECK(coz_linemap_find(q) == NULL, "find(%s): no such line", q);
  snprintf(q, sizeof q, "other.c:%d", ps.other.line);
  CHECK(coz_linemap_find(q) == NULL, "find(%s): out of scope", q);
  CHECK(coz_linemap_find("linemap_test.c") == NULL, "find without a line");
  snprintf(q, sizeof q, "linemap_test.c:%d", gc_me_line);
  CHECK(coz_linemap_find(q) == NULL, "find(%s): code the linker dropped", q);
  CHECK(coz_linemap_find("linemap_test.c:x") == NULL, "find bad line");
  snprintf(q, sizeof q, "linemap_test.c:%d-%d", ps.main.line,
           ps.main.line + 1);
  CHECK(coz_linemap_find(q) == NULL, "find(%s): a range is not a line", q);

  /* find_range(): its lowest line with code, and which lines it holds. */
  struct coz_line_range r;
  snprintf(q, sizeof q, "linemap_test.c:%d-%d", 1,
           ps.main.line);
  struct coz_line *first = coz_linemap_find_range(q, &r);
  CHECK(first != NULL && r.file != NULL && r.lo == 1 &&
            r.hi == (uint32_t)ps.main.line,
        "find_range(%s)", q);
  CHECK(m && coz_line_in_range(m, &r), "%s holds line %d", q, ps.main.line);
  CHECK(first && coz_line_in_range(first, &r), "%s holds its first line", q);
  snprintf(q, sizeof q, "linemap_test.c:%d-%d", ps.main.line + 1,
           ps.main.line + 100000);
  CHECK(coz_linemap_find_range(q, &r) == NULL || !coz_line_in_range(m, &r),
        "find_range(%s) must not hold line %d", q, ps.main.line);
  snprintf(q, sizeof q, "linemap_test.c:%d", ps.main.line);
  CHECK(coz_linemap_find_range(q, &r) == m && r.lo == r.hi,
        "find_range(%s): one line", q);
  snprintf(q, sizeof q, "linemap_test.c:%d-%d", ps.main.line,
           ps.main.line - 1);
  CHECK(coz_linemap_find_range(q, &r) == NULL, "find_range(%s): reversed", q);
  CHECK(coz_linemap_find_range("linemap_test.c:3-", &r) == NULL,
        "find_range with no last line");

  /* A module loaded later appears after a refresh, and goes with dlclose. */
  struct probe dl;
  void *h = open_dl(&dl);
  CHECK(coz_linemap_lookup(dl.pc) == NULL, "dlopen'd before refresh");
  coz_linemap_refresh();
  struct coz_line *dline = expect_line(&dl, "dlopen'd module");
  CHECK(coz_linemap_find(dline ? name_of(dline) : "x:1") == dline,
        "find a line of the dlopen'd module");
  dlclose(h);
  coz_linemap_refresh();
  CHECK(coz_linemap_lookup(dl.pc) == NULL, "unloaded module still maps");
  h = open_dl(&dl);
  coz_linemap_refresh();
  CHECK(expect_line(&dl, "reloaded module") == dline,
        "the reloaded module's line is the same object");
  dlclose(h);

  /* foreach visits every line once, the known ones among them. */
  struct visit_state v = {{m, d1, dline}, {0}, 0};
  coz_linemap_foreach(visit, &v);
  CHECK(v.found[0] == 1 && v.found[1] == 1 && v.found[2] == 1,
        "foreach found the known lines %d %d %d times", v.found[0], v.found[1],
        v.found[2]);
  CHECK(v.visited >= n, "foreach visited %ld lines, build reported %ld",
        v.visited, n);
  check_pie();
}

static void test_source_patterns(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  cfg.source_patterns = "other.c,*/lib_*.c";
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);
  expect_line(&ps.other, "other.c by basename pattern");
  expect_line(&ps.startup, "lib_startup.c by path glob");
  expect_none(&ps.main, "linemap_test.c matches no pattern");
  expect_none(&ps.dup_main, "dup.h matches no pattern");
  struct probe dl;
  open_dl(&dl);
  coz_linemap_refresh();
  expect_line(&dl, "lib_dlopen.c by path glob");
}

static void test_binary_patterns(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  cfg.binary_patterns = "nothing-here.so:liblinemap_startup.so";
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);
  expect_line(&ps.startup, "library in the binary scope");
  expect_line(&ps.dup_lib, "library's copy of dup.h");
  expect_none(&ps.main, "executable outside the binary scope");
  expect_none(&ps.dup_main, "executable's copy of dup.h");
  struct probe dl;
  open_dl(&dl);
  coz_linemap_refresh();
  expect_none(&dl, "module outside the binary scope");
}

static void test_main_binary_all_sources(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  cfg.binary_patterns = "MAIN";
  cfg.source_patterns = "%";
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);
  expect_line(&ps.main, "executable");
  expect_line(&ps.other, "every file of the executable");
  expect_none(&ps.startup, "library outside the binary scope");
  /* The line map's own code is never in scope. */
  CHECK(coz_linemap_lookup((uintptr_t)&coz_linemap_lookup) == NULL,
        "the runtime's own code maps to %s",
        name_of(coz_linemap_lookup((uintptr_t)&coz_linemap_lookup)));
}

/* The module built with compressed debug sections, with split DWARF and
 * with its DWARF in a separate file: each maps its probe to the line of
 * the plain build, the very same struct coz_line. */
static void test_variants(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);
  struct probe dl;
  open_dl(&dl);
  coz_linemap_refresh();
  struct coz_line *plain = expect_line(&dl, "plain module");
  char variants[] = LM_VARIANTS;
  for (char *save, *path = strtok_r(variants, ":", &save); path;
       path = strtok_r(NULL, ":", &save)) {
    struct probe v;
    open_dl_path(path, &v);
    CHECK(coz_linemap_lookup(v.pc) == NULL, "%s before refresh", path);
    coz_linemap_refresh();
    struct coz_line *l = expect_line(&v, path);
    CHECK(l == plain, "%s: its line is not the plain build's", path);
  }
}

/* Default files that arrive after the build (modules registering late):
 * the executable's own file, known to the map but out of scope until then,
 * and a dlopen'd module's. */
static void test_late_files(void) {
  struct probes ps;
  take_probes(&ps);
  static const char *early[2];
  early[0] = real_file(ps.dup_main.file);
  early[1] = real_file(ps.startup.file);
  struct coz_scope_config cfg = {NULL, NULL, early, 2};
  CHECK(coz_linemap_build(&cfg) > 0, "build");
  expect_none(&ps.main, "executable's file before it is added");
  struct coz_line *dup = expect_line(&ps.dup_main, "dup.h");
  expect_line(&ps.startup, "library");

  static const char *main_file[1];
  main_file[0] = real_file(ps.main.file);
  coz_linemap_add_default_files(main_file, 1);
  expect_none(&ps.main, "added, not yet refreshed");
  coz_linemap_refresh();
  expect_line(&ps.main, "executable's file once added");
  CHECK(coz_linemap_lookup(ps.dup_main.pc) == dup &&
            coz_linemap_lookup(ps.dup_lib.pc) == dup,
        "lines already known keep their objects across the new read");
  expect_none(&ps.other, "file still outside");

  struct probe dl;
  open_dl(&dl);
  coz_linemap_refresh();
  expect_none(&dl, "module whose file is not added yet");
  const char *dl_file[] = {LM_DLOPEN_SOURCE};
  coz_linemap_add_default_files(dl_file, 1);
  coz_linemap_refresh();
  expect_line(&dl, "module once its file is added");
  expect_line(&ps.main, "executable after the second read");
}

/* A plugin loaded and unloaded more times than there are table slots
 * (1024): each load must still map, so a reload revives the old table. */
static void test_reload(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  CHECK(coz_linemap_build(&cfg) > 0, "build");
  struct coz_line *first = NULL;
  int bad = 0;
  for (int round = 0; round < 1100 && bad < 5; round++) {
    struct probe dl;
    void *h = open_dl(&dl);
    coz_linemap_refresh();
    struct coz_line *l = coz_linemap_lookup(dl.pc);
    if (!first)
      first = expect_line(&dl, "module");
    if (!l || l != first) {
      CHECK(0, "round %d: maps to %s", round, name_of(l));
      bad++;
    }
    dlclose(h);
    coz_linemap_refresh();
    if (coz_linemap_lookup(dl.pc)) {
      CHECK(0, "round %d: unloaded module still maps", round);
      bad++;
    }
  }
}

/* Says which objects hold code "compiled with the pass": the executable
 * and the dlopen'd module, not the library loaded at startup (although it
 * has lines of default files), so the latter must not be in the map. */
static uintptr_t pass_code_addrs[2];
static int pass_code_calls;

static bool holds_pass_code(uintptr_t lo, uintptr_t hi, void *arg) {
  CHECK(arg == &pass_code_calls, "callback argument %p", arg);
  pass_code_calls++;
  for (int i = 0; i < 2; i++)
    if (pass_code_addrs[i] >= lo && pass_code_addrs[i] < hi)
      return true;
  return false;
}

static void test_pass_objects(void) {
  struct probes ps;
  take_probes(&ps);
  struct coz_scope_config cfg = default_config(&ps);
  coz_linemap_set_pass_object_filter(holds_pass_code, &pass_code_calls);
  pass_code_addrs[0] = ps.main.pc;
  long n = coz_linemap_build(&cfg);
  CHECK(n > 0, "build returned %ld", n);
  CHECK(pass_code_calls >= 3,
        "callback called %d times for the executable, "
        "its library, libc...",
        pass_code_calls);
  expect_line(&ps.main, "executable holding pass code");
  expect_line(&ps.dup_main, "dup.h in the executable");
  expect_none(&ps.startup, "library without pass code");
  expect_none(&ps.dup_lib, "dup.h in the library without pass code");
  struct probe dl;
  open_dl(&dl);
  pass_code_addrs[1] = dl.pc;
  int before = pass_code_calls;
  coz_linemap_refresh();
  CHECK(pass_code_calls == before + 1,
        "refresh asked about %d objects, "
        "want only the new one",
        pass_code_calls - before);
  expect_line(&dl, "dlopen'd module holding pass code");
}

/* ---- concurrency -------------------------------------------------------- */

static struct probe c_main;
static char *c_main_name, *c_dl_name;
static _Atomic uintptr_t c_dl_pc;
static atomic_long c_signals, c_hits_main, c_hits_dl, c_bad;
static atomic_bool c_stop;

/* Both names are checked with nothing but loads and a byte compare. */
static int same(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

static void check_lookups(uintptr_t other_pc) {
  char name[COZ_LINE_NAME_MAX]; /* coz_line_name is async-signal-safe */
  struct coz_line *l = coz_linemap_lookup(c_main.pc);
  if (l) {
    coz_line_name(l, name, sizeof name);
    if (same(name, c_main_name))
      atomic_fetch_add(&c_hits_main, 1);
    else
      atomic_fetch_add(&c_bad, 1);
  }
  uintptr_t dl = atomic_load(&c_dl_pc);
  if (dl && (l = coz_linemap_lookup(dl))) {
    coz_line_name(l, name, sizeof name);
    if (same(name, c_dl_name))
      atomic_fetch_add(&c_hits_dl, 1);
    else
      atomic_fetch_add(&c_bad, 1);
  }
  l = coz_linemap_lookup(other_pc);
  if (l && (coz_line_name(l, name, sizeof name) == 0 || name[0] == ':'))
    atomic_fetch_add(&c_bad, 1);
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv) {
  (void)sig;
  (void)si;
  ucontext_t *uc = ucv;
  atomic_fetch_add(&c_signals, 1);
  check_lookups((uintptr_t)uc->uc_mcontext.gregs[REG_RIP]);
}

static void *reader(void *arg) {
  (void)arg;
  uintptr_t pc = c_main.pc - 4096;
  while (!atomic_load(&c_stop))
    check_lookups(pc++);
  return NULL;
}

static void test_concurrent(void) {
  struct probes ps;
  take_probes(&ps);
  c_main = ps.main;
  c_main_name = expected_name(&ps.main);
  struct probe dl;
  void *h = open_dl(&dl);
  c_dl_name = expected_name(&dl);
  dlclose(h);
  struct coz_scope_config cfg = default_config(&ps);

  struct sigaction sa = {0};
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, 200}, {0, 200}};
  setitimer(ITIMER_PROF, &it, NULL);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);

  coz_linemap_build(&cfg);
  /* The module comes and goes (usually at the same address); lookups of
   * its probe address must give its line or NULL, never anything else. */
  /* Enough rounds for SIGPROF (CPU-time ticks, a few ms apart) to land in
   * many of the refreshes. */
  for (int round = 0;
       round < 40 || (atomic_load(&c_signals) < 20 && round < 5000); round++) {
    h = open_dl(&dl);
    atomic_store(&c_dl_pc, dl.pc);
    coz_linemap_refresh();
    struct coz_line *l = coz_linemap_lookup(dl.pc);
    CHECK(l && same(name_of(l), c_dl_name), "round %d: %s", round, name_of(l));
    long hits = atomic_load(&c_hits_dl);
    for (int spin = 0; spin < 1000000 && atomic_load(&c_hits_dl) == hits;
         spin++)
      __asm__ volatile("" ::: "memory");
    dlclose(h);
    coz_linemap_refresh();
  }
  for (int spin = 0; spin < 1000000 && atomic_load(&c_hits_main) == 0; spin++)
    __asm__ volatile("" ::: "memory");
  atomic_store(&c_stop, 1);
  pthread_join(t, NULL);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);

  printf("signals %ld, main hits %ld, module hits %ld, bad %ld\n",
         atomic_load(&c_signals), atomic_load(&c_hits_main),
         atomic_load(&c_hits_dl), atomic_load(&c_bad));
  CHECK(atomic_load(&c_signals) >= 20,
        "too few SIGPROF during the build and refreshes");
  CHECK(atomic_load(&c_hits_main) > 0, "no lookup of main succeeded");
  CHECK(atomic_load(&c_hits_dl) > 0, "no lookup of the module succeeded");
  CHECK(atomic_load(&c_bad) == 0, "lookups returned wrong lines");
  CHECK(coz_linemap_lookup(dl.pc) == NULL, "unloaded module still maps");
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "default";
  if (strcmp(mode, "default") == 0)
    test_default();
  else if (strcmp(mode, "source") == 0)
    test_source_patterns();
  else if (strcmp(mode, "binary") == 0)
    test_binary_patterns();
  else if (strcmp(mode, "main-all") == 0)
    test_main_binary_all_sources();
  else if (strcmp(mode, "late-files") == 0)
    test_late_files();
  else if (strcmp(mode, "reload") == 0)
    test_reload();
  else if (strcmp(mode, "variants") == 0)
    test_variants();
  else if (strcmp(mode, "pass-objects") == 0)
    test_pass_objects();
  else if (strcmp(mode, "concurrent") == 0)
    test_concurrent();
  else {
    fprintf(stderr,
            "usage: %s default|source|binary|main-all|pass-objects|variants|"
            "reload|late-files|"
            "concurrent\n",
            argv[0]);
    return 2;
  }
  if (failures) {
    fprintf(stderr, "%s: %d failure(s)\n", mode, failures);
    return 1;
  }
  printf("%s: ok\n", mode);
  return 0;
}
