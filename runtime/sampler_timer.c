/* sampler_timer.c: the fallback sampler for when perf_event_open is denied
 * (perf_event_paranoid >= 3, seccomp) or missing. A POSIX timer on the
 * thread's own CPU-time clock fires COZ_SAMPLE_SIGNAL at that thread
 * (SIGEV_THREAD_ID) after each jittered period of its CPU time; like
 * perf's, the signal's context is the sample (sampler_context.c). CPU-time
 * timers expire at scheduler ticks only, so each sample weighs the CPU time
 * since the previous one. */
#include "config.h"
#include "sampler_timer.h"
#include "sampler_period.h"
#include "util.h"

#include <stdatomic.h>
#include <string.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* The CPU-time clock of thread tid (the kernel's encoding, as glibc's
 * pthread_getcpuclockid builds it): usable for any thread of the process. */
static clockid_t thread_cpu_clock(pid_t tid) {
  return (clockid_t)((~(unsigned)tid << 3) | 6u /* CPUCLOCK_SCHED|THREAD */);
}

/* One shot: each expiry is re-armed by the handler with a new length. */
static void arm(struct coz_sampler_thread *s, uint64_t ns) {
  struct itimerspec its = {
      {0, 0}, {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)}};
  timer_settime(s->timer, 0, &its, NULL);
}

bool coz_timer_start(struct coz_sampler_thread *s, pid_t tid) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = COZ_SAMPLE_SIGNAL;
  sev.sigev_notify_thread_id = tid;
  if (timer_create(thread_cpu_clock(tid), &sev, &s->timer) != 0)
    return false;
  s->last_cpu_ns = coz_cpu_clock_ns(thread_cpu_clock(tid));
  arm(s, coz_sampler_first_period(tid));
  return true;
}

/* The mean CPU time between two samples of a thread, over all threads
 * (an EWMA, weight 1/16): what a sample stands for. Not the gap before
 * this very sample: the sum of a thread's gaps misses its unsampled tail,
 * which for short-lived threads is a large part of their time. Each
 * thread's own mean was tried and taken back (docs/results.md, "Per-thread
 * timer weights, tried and taken back"). */
static _Atomic uint64_t mean_gap_ns;

uint64_t coz_timer_rearm(struct coz_sampler_thread *s) {
  arm(s, coz_sampler_next_period(s));
  uint64_t cpu = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  uint64_t mean = atomic_load_explicit(&mean_gap_ns, memory_order_relaxed);
  if (s->phase_done && cpu > s->last_cpu_ns) {
    /* Racy updates only lose a term of the average. The first gap seen
     * seeds it: the tick, not the period, sets the gaps (4 ms at 250 Hz for
     * a 1 ms period): a mean started at the period would weigh the first
     * samples of threads moved from perf (sampler.c) a quarter of that. */
    uint64_t gap = cpu - s->last_cpu_ns;
    mean = mean == 0 ? gap : mean - mean / 16 + gap / 16;
    atomic_store_explicit(&mean_gap_ns, mean, memory_order_relaxed);
  }
  if (mean == 0)
    mean = coz_config.PERIOD;
  s->phase_done = true; /* the first gap is the random first period */
  s->last_cpu_ns = cpu;
  return mean;
}

void coz_timer_suspend(struct coz_sampler_thread *s) {
  struct itimerspec zero = {{0, 0}, {0, 0}}, old;
  s->suspended_left = 0;
  if (timer_settime(s->timer, 0, &zero, &old) == 0)
    s->suspended_left = (uint64_t)old.it_value.tv_sec * 1000000000u +
                        (uint64_t)old.it_value.tv_nsec;
}

void coz_timer_resume(struct coz_sampler_thread *s) {
  /* 0 left: it expired just before, and its signal re-arms it. */
  if (s->suspended_left)
    arm(s, s->suspended_left);
}

void coz_timer_stop(struct coz_sampler_thread *s) { timer_delete(s->timer); }
