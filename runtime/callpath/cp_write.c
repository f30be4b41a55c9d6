/* cp_write.c: the call-path file (docs/callpath.md). Each write appends
 * one block, in one write() so concurrent processes never interleave,
 * holding what was sampled since the previous block (deltas: the report
 * sums blocks). A thread of the call-path profiler appends a block every
 * CP_FLUSH_SECONDS, so a crash loses at most that much; the last block is
 * written at exit. */
#include "cp_internal.h"
#include "cp_symbols.h"
#include "fd_floor.h"
#include "unwind/unwind.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { CP_FLUSH_SECONDS = 10 };

/* What earlier blocks already hold, per table slot and per resource. */
static uint64_t *written_samples, *written_weight;
static uint64_t written_total[CP_NRES], written_count[CP_NRES],
    written_dropped[CP_NRES];
static _Atomic bool writing;

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    long w = syscall(SYS_write, fd, p, n); /* write() is interposed */
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

static uint64_t delta(uint64_t now, uint64_t *before) {
  uint64_t d = now - *before;
  *before = now;
  return d;
}

static void write_stack(FILE *f, struct cp_symbols *syms, long pid,
                        const struct cp_entry *e, uint64_t samples,
                        uint64_t weight) {
  fprintf(f, "stack\tpid=%ld\tresource=%s\tsamples=%llu\tweight=%llu\t", pid,
          cp_resources[e->resource].name, (unsigned long long)samples,
          (unsigned long long)weight);
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

static void write_block(void) {
  size_t cap = cp_table_capacity();
  if (!written_samples) {
    written_samples = calloc(cap + 1, sizeof *written_samples);
    written_weight = calloc(cap + 1, sizeof *written_weight);
    if (!written_samples || !written_weight)
      return;
  }
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
  for (int r = 0; r < CP_NRES; r++) {
    if (!cp_config.enabled[r])
      continue;
    uint64_t n = delta(atomic_load(&cp_total_samples[r]), &written_count[r]);
    uint64_t t = delta(atomic_load(&cp_total_weight[r]), &written_total[r]);
    uint64_t d =
        delta(atomic_load(&cp_dropped_samples[r]), &written_dropped[r]);
    fprintf(f,
            "resource\tpid=%ld\tname=%s\tunit=%s\tperiod=%llu\t"
            "samples=%llu\ttotal=%llu\tdropped=%llu\n",
            pid, cp_resources[r].name, cp_resources[r].unit,
            (unsigned long long)cp_config.period[r], (unsigned long long)n,
            (unsigned long long)t, (unsigned long long)d);
  }
  struct cp_symbols *syms = cp_symbols_load();
  cp_symbols_write_objects(syms, f, pid);
  for (size_t i = 0; i < cap; i++) {
    const struct cp_entry *e = cp_table_entry(i);
    if (!e)
      continue;
    uint64_t ds = delta(atomic_load(&e->samples), &written_samples[i]);
    uint64_t dw = delta(atomic_load(&e->weight), &written_weight[i]);
    if (ds || dw)
      write_stack(f, syms, pid, e, ds, dw);
  }
  cp_symbols_free(syms);
  if (fclose(f) != 0) {
    free(text);
    return;
  }
  int fd = coz_fd_floor(
      open(cp_config.output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (fd < 0) {
    static bool told;
    char msg[4200];
    int n = snprintf(msg, sizeof msg,
                     "coz: cannot open the call-path output '%s'; set "
                     "COZ_CALLPATH_OUTPUT to a writable path\n",
                     cp_config.output);
    if (n > 0 && !told)
      write_all(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    told = true;
  } else {
    write_all(fd, text, len);
    coz_fd_close(fd);
  }
  free(text);
}

void cp_write_profile(void) {
  /* Waits for a periodic block in progress, then writes the last one. */
  while (atomic_exchange(&writing, true)) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  write_block();
  atomic_store(&writing, false);
}

/* Wakes every 100 ms: it must leave soon after the last application
 * thread (the process ends when its last thread does, and this one would
 * keep a program whose main called pthread_exit alive). */
static void *flusher(void *arg) {
  (void)arg;
  for (unsigned tick = 1;; tick++) {
    struct timespec ts = {0, 100000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0)
      ;
    if (!atomic_load(&cp_active) || atomic_load(&cp_live_threads) <= 0)
      return NULL;
    coz_unwind_refresh(); /* objects dlopen'ed since: their CFI */
    if (tick % (CP_FLUSH_SECONDS * 10) == 0 &&
        !atomic_exchange(&writing, true)) {
      write_block();
      atomic_store(&writing, false);
    }
  }
}

void cp_start_flusher(int (*create)(pthread_t *, const pthread_attr_t *,
                                    void *(*)(void *), void *)) {
  /* Created with every signal blocked: no sample and none of the
   * program's signals lands on it. */
  sigset_t all, old;
  sigfillset(&all);
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, 8);
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  create(&th, &attr, flusher, NULL);
  pthread_attr_destroy(&attr);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
}
