/* sampler.c: picks perf or the timer sampler once, and dispatches to it. */
#include "sampler.h"
#include "config.h"
#include "fd_floor.h"
#include "sampler_context.h"
#include "sampler_kernel.h"
#include "sampler_perf.h"
#include "sampler_timer.h"
#include "util.h"

#include <stdatomic.h>

enum { KIND_NONE, KIND_PERF, KIND_TIMER };
static int chosen = KIND_NONE;

bool coz_sampler_init(void) {
  switch (coz_config.SAMPLER) {
  case COZ_SAMPLER_PERF:
    if (!coz_perf_available()) {
      coz_log_error("COZ_SAMPLER=perf but perf_event_open is denied or "
                    "missing; use COZ_SAMPLER=timer or auto; profiling is off");
      return false;
    }
    chosen = KIND_PERF;
    break;
  case COZ_SAMPLER_TIMER:
    chosen = KIND_TIMER;
    break;
  default:
    if (coz_perf_available()) {
      chosen = KIND_PERF;
    } else {
      chosen = KIND_TIMER;
      coz_log_notice("perf_event_open is not available; sampling with "
                     "CPU-time timers instead (COZ_SAMPLER=timer hides this "
                     "line)");
    }
  }
  if (chosen == KIND_PERF)
    coz_perf_kernel_init();
  return true;
}

const char *coz_sampler_name(void) {
  return chosen == KIND_PERF ? "perf" : chosen == KIND_TIMER ? "timer" : "none";
}

bool coz_sampler_start(struct coz_sampler_thread *s, pid_t tid) {
  s->kind = KIND_NONE;
  s->fd = -1;
  s->kernel_periods = 0;
  s->stack_lo = s->stack_hi = 0;
  /* Only a thread can ask for its own stack: threads adopted at start-up
   * (set up from the initialising thread) unwind by frame pointers only. */
  if (tid == coz_gettid())
    coz_sampler_own_stack(s);
  if (chosen == KIND_PERF && coz_perf_start(s, tid)) {
    s->kind = KIND_PERF;
    coz_perf_kernel_start(s);
    return true;
  }
  /* perf may run out for this thread (too many open files): degrade to
   * the timer sampler for it. */
  if (chosen != KIND_NONE && coz_timer_start(s, tid)) {
    s->kind = KIND_TIMER;
    return true;
  }
  return false;
}

void coz_sampler_stop(struct coz_sampler_thread *s) {
  int kind = s->kind;
  s->kind = KIND_NONE;
  if (kind == KIND_PERF) {
    coz_perf_kernel_stop(s);
    coz_perf_stop(s);
  } else if (kind == KIND_TIMER) {
    coz_timer_stop(s);
  }
}

void coz_sampler_forget(struct coz_sampler_thread *s) {
  /* The descriptor is a copy in the child; the timer is the parent's
   * (timers are not inherited, so the id means nothing here). */
  if (s->kind == KIND_PERF) {
    coz_perf_kernel_forget(s);
    if (s->fd >= 0)
      coz_fd_close(s->fd);
  }
  s->kind = KIND_NONE;
  s->fd = -1;
}

bool coz_sampler_owns(const struct coz_sampler_thread *s,
                      const siginfo_t *info) {
  if (s->kind == KIND_PERF) /* F_SETSIG: si_code POLL_*, si_fd our fd */
    return info->si_code >= POLL_IN && info->si_code <= POLL_HUP &&
           info->si_fd == s->fd;
  if (s->kind == KIND_TIMER)
    return info->si_code == SI_TIMER;
  return false;
}

/* What sampling itself costs a thread per perf sample, in CPU time beyond
 * the period (the timer interrupt, the signal, the handler up to the next
 * period's start): an EWMA over all threads, weight 1/16. */
static _Atomic uint64_t perf_cost_ns;

/* A sample stands for the thread CPU time between two samples, sampling's
 * own cost included: speeding a line up by s also removes s of the samples
 * taken in it, and with them s of their cost. Weighing P alone made every
 * prediction (1 + cost/P) times too small (docs/results.md, "Design figures").
 * perf: P plus the mean cost (the period that ended is known, so the cost is
 * measured without the jitter's noise). The mean, not this sample's own gap:
 * samples come at rate 1/(P + cost), so each stands for that on average, while
 * the sum of a thread's gaps misses its unsampled tail (half a period, a
 * quarter of a 2 ms thread's time). */
static uint64_t perf_weight(struct coz_sampler_thread *s, uint64_t cpu) {
  uint64_t cost = atomic_load_explicit(&perf_cost_ns, memory_order_relaxed);
  if (s->phase_done && cpu > s->last_cpu_ns) {
    uint64_t gap = cpu - s->last_cpu_ns;
    uint64_t over = gap > s->armed_ns ? gap - s->armed_ns : 0;
    if (over < coz_config.PERIOD) { /* not a stall between the two reads */
      /* Racy updates only lose a term of the average. */
      cost = cost - cost / 16 + over / 16;
      atomic_store_explicit(&perf_cost_ns, cost, memory_order_relaxed);
    } else {
      /* A whole period passed without a sample: it ended in the kernel,
       * which drops it (sampler_kernel.c opens its event on this sign). */
      s->kernel_periods++;
    }
  }
  uint64_t w =
      (coz_config.PERIOD + cost) * (s->first_weight ? s->first_weight : 1);
  s->first_weight = 1;
  return w;
}

void coz_sampler_take(struct coz_sampler_thread *s, void *ucontext,
                      struct coz_sample *out) {
  coz_sample_from_context(s, ucontext, out);
  s->signals++;
  if (s->kind == KIND_PERF) {
    uint64_t cpu = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    out->weight_ns = perf_weight(s, cpu);
    s->armed_ns = coz_perf_rearm(s);
    /* The first gap holds the thread's start-up: not a sampling cost. */
    s->phase_done = cpu != 0;
    s->last_cpu_ns = cpu;
  } else {
    out->weight_ns = coz_timer_rearm(s);
  }
}

bool coz_sampler_next_kernel(struct coz_sampler_thread *s,
                             struct coz_sample *out) {
  return s->kind == KIND_PERF && coz_perf_kernel_next(s, out);
}

void coz_sampler_suspend(struct coz_sampler_thread *s) {
  s->suspended_cpu_ns = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  if (s->kind == KIND_PERF) {
    coz_perf_suspend(s, true);
    coz_perf_kernel_suspend(s, true);
  } else if (s->kind == KIND_TIMER) {
    coz_timer_suspend(s);
  }
}

void coz_sampler_resume(struct coz_sampler_thread *s) {
  if (s->kind == KIND_PERF) {
    coz_perf_kernel_suspend(s, false);
    coz_perf_suspend(s, false);
  } else if (s->kind == KIND_TIMER) {
    coz_timer_resume(s);
  }
  /* The paused CPU time is no part of the gap to the next sample. */
  uint64_t cpu = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  if (s->suspended_cpu_ns && cpu > s->suspended_cpu_ns)
    s->last_cpu_ns += cpu - s->suspended_cpu_ns;
}
