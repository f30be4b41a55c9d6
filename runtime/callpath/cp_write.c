/* cp_write.c: the call-path file (docs/callpath.md), appended at exit as
 * one write() so concurrent processes never interleave. */
#include "cp_internal.h"
#include "cp_symbols.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    long w = syscall(SYS_write, fd, p, n); /* write() is interposed */
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

void cp_write_profile(void) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return;
  long pid = (long)getpid();
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  fprintf(f, "callpath\tversion=1\tpid=%ld\ttime=%lld\n", pid,
          (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec);
  for (int r = 0; r < CP_NRES; r++)
    if (cp_config.enabled[r])
      fprintf(f,
              "resource\tpid=%ld\tname=%s\tunit=%s\tperiod=%llu\t"
              "samples=%llu\ttotal=%llu\tdropped=%llu\n",
              pid, cp_resources[r].name, cp_resources[r].unit,
              (unsigned long long)cp_config.period[r],
              (unsigned long long)atomic_load(&cp_total_samples[r]),
              (unsigned long long)atomic_load(&cp_total_weight[r]),
              (unsigned long long)atomic_load(&cp_dropped_samples[r]));
  struct cp_symbols *syms = cp_symbols_load();
  cp_symbols_write_objects(syms, f, pid);
  for (size_t i = 0; i < cp_table_capacity(); i++) {
    const struct cp_entry *e = cp_table_entry(i);
    if (!e)
      continue;
    fprintf(f, "stack\tpid=%ld\tresource=%s\tsamples=%llu\tweight=%llu\t", pid,
            cp_resources[e->resource].name,
            (unsigned long long)atomic_load(&e->samples),
            (unsigned long long)atomic_load(&e->weight));
    fputs("frames=", f);
    if (e->truncated)
      fputs("[truncated]@-+0x0;", f);
    for (unsigned k = e->depth; k-- > 0;) { /* outermost first */
      cp_symbols_write_frame(syms, f, e->pc[k]);
      if (k)
        fputc(';', f);
    }
    fputc('\n', f);
  }
  cp_symbols_free(syms);
  if (fclose(f) != 0) {
    free(text);
    return;
  }
  int fd =
      open(cp_config.output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    char msg[4200];
    int n = snprintf(msg, sizeof msg,
                     "coz: cannot open the call-path output '%s'; set "
                     "COZ_CALLPATH_OUTPUT to a writable path\n",
                     cp_config.output);
    if (n > 0)
      write_all(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
  } else {
    write_all(fd, text, len);
    close(fd);
  }
  free(text);
}
