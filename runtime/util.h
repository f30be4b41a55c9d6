/* util.h: small helpers shared by the runtime's files: clocks, thread ids,
 * diagnostics. Everything marked async-signal-safe may run in handlers. */
#ifndef COZ_UTIL_H
#define COZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Monotonic time in ns. Async-signal-safe. */
static inline uint64_t coz_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time in ns since the epoch (startup/shutdown records). */
static inline uint64_t coz_unix_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A CPU-time clock in ns (CLOCK_THREAD_CPUTIME_ID: the calling thread's);
 * 0 if it cannot be read. Async-signal-safe. */
static inline uint64_t coz_cpu_clock_ns(clockid_t clock) {
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Kernel thread id. Async-signal-safe. */
static inline pid_t coz_gettid(void) { return (pid_t)syscall(SYS_gettid); }

/* The next pseudo-random number of xorshift64* from *state, which must not
 * be 0: enough to jitter sampling periods and draw lines and speedups
 * without bias, and cheap in a signal handler. Async-signal-safe. */
static inline uint64_t coz_xorshift64s(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 2685821657736338717ull;
}

/* Two kinds of line "coz: ..." on stderr (not from signal handlers).
 * An error says that something the user set (a COZ_* variable) cannot be
 * done: always printed, since the user asked. A notice is for a person
 * watching (the exit summary, a fallback, advice): printed only when
 * stderr is a terminal or COZ_VERBOSE >= 1, never with COZ_QUIET, so that
 * a program built with coz-cc is silent wherever another program reads
 * its stderr (a build's helper run from Tcl's exec, a test that diffs it). */
void coz_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void coz_log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether coz_log_notice prints. */
bool coz_notices_shown(void);
/* Like coz_log_error, only when COZ_VERBOSE >= level. */
void coz_log_verbose(unsigned level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* COZ_UTIL_H */
