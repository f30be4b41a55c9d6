/* bench_linemap.c: times coz_linemap_build on the program it is linked
 * into (the synthetic program of gen_program.py).
 *
 * Usage: bench_linemap DIR [SOURCE-SCOPE [BINARY-SCOPE]] ("" = default)
 * DIR holds the generated sources: their absolute paths are the default
 * files, as the pass would record them. Prints one line:
 * lines=<in-scope lines> build_ms=<wall> cpu_ms=<thread CPU>.
 * The runtime's pass-object filter is set (only the executable holds pass
 * code) unless BENCH_NO_FILTER is set: then the line map's own test (the
 * __coz_register_module marker) picks the objects. BINARY-SCOPE "%" makes
 * it read every loaded object with debug info (e.g. libc with libc6-dbg). */
#include "linemap.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef long (*fn)(long, long);
extern fn bench_functions[];
extern unsigned long bench_n_functions;

/* The runtime defines and exports this; the line map's default binary
 * scope reads only objects whose dynamic symbols name it. */
void __coz_register_module(const void *desc) { (void)desc; }

/* As the runtime would: only the executable holds code built with the
 * pass. */
static bool holds_main(uintptr_t lo, uintptr_t hi, void *arg) {
  (void)arg;
  uintptr_t fn0 = (uintptr_t)bench_functions[0];
  return fn0 >= lo && fn0 < hi;
}

static double ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DIR [SOURCE-SCOPE [BINARY-SCOPE]]\n", argv[0]);
    return 2;
  }
  char dir[PATH_MAX];
  if (!realpath(argv[1], dir)) {
    perror(argv[1]);
    return 2;
  }
  static const char *files[4096];
  size_t n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d)) && n < 4096;) {
    size_t len = strlen(e->d_name);
    if (len > 2 && (strcmp(e->d_name + len - 2, ".c") == 0 ||
                    strcmp(e->d_name + len - 2, ".h") == 0)) {
      char *p = malloc(strlen(dir) + len + 2);
      sprintf(p, "%s/%s", dir, e->d_name);
      files[n++] = p;
    }
  }
  if (d)
    closedir(d);
  long sink = 0; /* call a few functions: the program is real */
  for (unsigned long i = 0; i < bench_n_functions; i += 97)
    sink += bench_functions[i](i, 7);
  struct coz_scope_config cfg = {argc > 2 ? argv[2] : NULL,
                                 argc > 3 ? argv[3] : NULL, files, n};
  if (!getenv("BENCH_NO_FILTER"))
    coz_linemap_set_pass_object_filter(holds_main, NULL);
  double w0 = ms(CLOCK_MONOTONIC), c0 = ms(CLOCK_THREAD_CPUTIME_ID);
  long lines = coz_linemap_build(&cfg);
  double w1 = ms(CLOCK_MONOTONIC), c1 = ms(CLOCK_THREAD_CPUTIME_ID);
  /* Lookup cost: addresses spread over the program's code. */
  enum { LOOKUPS = 1000000 };
  long found = 0;
  double l0 = ms(CLOCK_THREAD_CPUTIME_ID);
  for (unsigned long i = 0; i < LOOKUPS; i++) {
    uintptr_t pc = (uintptr_t)bench_functions[(i * 7919) % bench_n_functions];
    found += coz_linemap_lookup(pc + (i % 61)) != NULL;
  }
  double l1 = ms(CLOCK_THREAD_CPUTIME_ID);
  printf("lines=%ld build_ms=%.1f cpu_ms=%.1f lookup_ns=%.0f found=%ld "
         "functions=%lu (%ld)\n",
         lines, w1 - w0, c1 - c0, (l1 - l0) * 1e6 / LOOKUPS, found,
         bench_n_functions, sink & 1);
  return lines > 0 ? 0 : 1;
}
