/* progress.h: progress points. Counters come from modules registered by the
 * pass (__coz_register_module) and from the slow path of __coz_marker; the
 * profiler thread merges them by (kind, name) into throughput points and
 * latency points (a begin and an end sharing a name). */
#ifndef COZ_PROGRESS_H
#define COZ_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_point_reading {
  uint64_t visits;     /* throughput: visits; latency: arrivals (begins) */
  uint64_t departures; /* latency: ends */
};

/* Merges newly registered counters; returns the number of points. Indices
 * are stable: points are only ever appended. Profiler thread only. */
size_t coz_progress_refresh(void);
const char *coz_progress_name(size_t i);
bool coz_progress_is_latency(size_t i);
/* Whether point i is a candidate (abi.h COZ_POINT_CANDIDATE), and whether
 * any point merged so far is not: a program's own points, once there, are
 * the only ones recorded. */
bool coz_progress_is_candidate(size_t i);
bool coz_progress_has_real(void);
/* Whether point i is one the records carry: the program's own points, or
 * the candidates while it has none. */
bool coz_progress_recorded(size_t i);
/* Current totals of point i (sum of shards of all its counters). */
struct coz_point_reading coz_progress_read(size_t i);

/* Files the pass instrumented, over the registered modules from index
 * `first` on (default scope). Returns a malloc'ed array (caller frees) and
 * its length. */
const char **coz_progress_files(size_t first, size_t *n);
/* Whether the object loaded at [lo, hi) registered a module (its
 * descriptor lies there): the line map reads only such objects by default. */
bool coz_progress_object_has_module(uintptr_t lo, uintptr_t hi, void *arg);
/* Whether any module compiled with the pass registered. */
size_t coz_progress_modules(void);
/* How many of them carry all of abi.h's module flags `flags`. */
size_t coz_progress_modules_flagged(uint32_t flags);

#endif /* COZ_PROGRESS_H */
