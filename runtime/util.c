/* util.c: diagnostics and sleeping. */
#include "util.h"
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

uint64_t coz_sleep_ns(uint64_t ns) {
  uint64_t start = coz_now_ns();
  struct timespec req = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
  struct timespec rem;
  /* A signal of the program may cut the sleep short: keep sleeping the rest
   * so a delay is never silently shortened. */
  /* The system call itself: nanosleep() is interposed (io_checkpoints.c)
   * and a delay is no wait of the program's. */
  while (syscall(SYS_nanosleep, &req, &rem) != 0 && errno == EINTR)
    req = rem;
  return coz_now_ns() - start;
}

static void vlog(const char *fmt, va_list ap) {
  char line[512];
  int n = snprintf(line, sizeof line, "coz: ");
  n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
  if (n > (int)sizeof line - 2)
    n = (int)sizeof line - 2;
  line[n++] = '\n';
  /* One write so that the line is not interleaved with the program's. */
  long unused = syscall(SYS_write, 2, line, (size_t)n); /* not interposed */
  (void)unused;
}

void coz_log_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
}

void coz_log_verbose(unsigned level, const char *fmt, ...) {
  if (coz_config.VERBOSE < level)
    return;
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
}
