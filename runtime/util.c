/* util.c: diagnostics. */
#include "util.h"
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

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

bool coz_notices_shown(void) {
  return !coz_config.QUIET && (coz_config.VERBOSE >= 1 || isatty(2));
}

void coz_log_notice(const char *fmt, ...) {
  if (!coz_notices_shown())
    return;
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
