/* linemap.h: maps sample addresses to source lines of the profiling scope.
 *
 * Contract between the line map (runtime/linemap/) and the runtime core.
 * Building may allocate and take time, so the core calls it from its
 * profiler thread; lookups are made from signal handlers, so they never
 * allocate, lock or block, and they are safe (returning NULL) before the
 * first build has finished. */
#ifndef COZ_LINEMAP_H
#define COZ_LINEMAP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One source line of the scope. Objects live for the whole process. */
struct coz_line {
  _Atomic uint64_t samples;         /* samples attributed here (core counts) */
  _Atomic uint64_t samples_flushed; /* part of `samples` already written */
};

/* Writes the line's name, "file:line" (the file as recorded in DWARF, made
 * absolute with the CU directory), into buf and returns its length; a name
 * longer than cap - 1 is cut short. Names are formatted on demand rather
 * than stored: a large program has hundreds of thousands of lines, and
 * writing a name for each was a large part of the line map's build time
 * (first touches of fresh memory; docs/results.md, "Design figures").
 * Async-signal-safe. */
#define COZ_LINE_NAME_MAX 4112 /* PATH_MAX + ':' + ten digits + NUL */
size_t coz_line_name(const struct coz_line *line, char *buf, size_t cap);

struct coz_scope_config {
  /* COZ_SOURCE_SCOPE: ':'- or ','-separated glob patterns matched against the
   * absolute source path (a pattern without '/' also matches the basename);
   * NULL or "" means the default scope below. "%" means every file. */
  const char *source_patterns;
  /* COZ_BINARY_SCOPE: same syntax, matched against loaded object paths
   * ("MAIN" names the executable); NULL or "" means every loaded object that
   * holds code compiled with the pass (i.e. whose lines hit default files). */
  const char *binary_patterns;
  /* Default scope: the files the pass recorded (absolute paths). */
  const char *const *default_files;
  size_t n_default_files;
};

/* Optional, before coz_linemap_build, for the default binary scope: fn
 * tells whether the object loaded at run-time addresses [lo, hi) holds
 * code compiled with the pass (the runtime knows where its modules
 * registered from). Objects it rejects are never read (a libc with
 * separate debug info is slow to read). Without fn, shared objects
 * whose dynamic symbols do not name __coz_register_module are skipped. fn
 * runs on the thread that builds or refreshes. */
void coz_linemap_set_pass_object_filter(bool (*fn)(uintptr_t lo, uintptr_t hi,
                                                   void *arg),
                                        void *arg);

/* Optional: where the line map's lines for a person go (printf-style, one
 * line without "coz: " or newline); stderr without it. Before the build,
 * profiler thread only. */
void coz_linemap_set_notice(void (*fn)(const char *fmt, ...));

/* Before main, on the thread that loads the runtime: opens the files a
 * build will read (the executable, and the objects fn accepts, as
 * coz_linemap_set_pass_object_filter's), so the build, on another thread
 * later, takes no descriptor number the program would have got. */
void coz_linemap_preopen(bool (*fn)(uintptr_t lo, uintptr_t hi, void *arg),
                         void *arg);

/* Builds the map for every object loaded now (dl_iterate_phdr). Returns the
 * number of in-scope lines, or -1 after one notice line. */
long coz_linemap_build(const struct coz_scope_config *cfg);

/* Adds objects loaded since the last build or refresh (dlopen). */
void coz_linemap_refresh(void);

/* Any thread, any time (no allocation, no lock, signal-safe): a build or
 * refresh in progress, and every later one, reads no further compilation
 * unit or object, so that the thread doing it finishes within one unit's
 * work (the process is exiting). What was read stays usable. */
void coz_linemap_cancel(void);

/* Adds files to the default scope: those of modules compiled with the pass
 * that registered after the build (a dlopen'd library, or the executable's
 * own modules when the build ran before its constructors). The next
 * refresh reads new objects with them, and reads again the objects already
 * read if one of the files had been seen there. Profiler thread only. */
void coz_linemap_add_default_files(const char *const *files, size_t n);

/* The in-scope line whose code contains pc, or NULL. Async-signal-safe. */
struct coz_line *coz_linemap_lookup(uintptr_t pc);

/* The in-scope line named "file:line", the file matched by path suffix
 * (so "prog.c:12" finds "/src/prog.c:12"); NULL if none. */
struct coz_line *coz_linemap_find(const char *file_colon_line);

struct coz_file; /* the line map's own (intern.h) */

/* Lines lo..hi of one file (COZ_FIXED_LINE=file:lo-hi: a function, a loop
 * a change rewrites as a whole). */
struct coz_line_range {
  const struct coz_file *file;
  uint32_t lo, hi;
};

/* Fills *range from "file:line" or "file:lo-hi" (the file matched as by
 * coz_linemap_find) and returns its lowest-numbered in-scope line; NULL if
 * it holds none. Profiler thread only; does not allocate. */
struct coz_line *coz_linemap_find_range(const char *spec,
                                        struct coz_line_range *range);

/* Whether the line is one of the range's. Async-signal-safe. */
bool coz_line_in_range(const struct coz_line *line,
                       const struct coz_line_range *range);

/* Calls fn for every in-scope line (profiler thread only). */
void coz_linemap_foreach(void (*fn)(struct coz_line *line, void *arg),
                         void *arg);

#endif /* COZ_LINEMAP_H */
