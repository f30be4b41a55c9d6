/* sampler.c: picks perf or the timer sampler once, and dispatches to it. */
#include "sampler.h"
#include "config.h"
#include "fd_floor.h"
#include "sampler_context.h"
#include "sampler_kernel.h"
#include "sampler_perf.h"
#include "sampler_timer.h"
#include "signal_guard.h"
#include "util.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/utsname.h>

enum { KIND_NONE, KIND_PERF, KIND_TIMER };
static int chosen = KIND_NONE;
static bool moves_allowed; /* set once, before any thread starts sampling */

/* Whether a CPU-time timer that expires while its thread is in a system
 * call signals the thread only on its return to user mode: from Linux
 * 5.11 on x86-64 (expiry handled as task work), where a poll() that
 * scanned 60,000 descriptors before sleeping was never cut short (0 of
 * 400 calls, 245 expiries inside them). Earlier kernels signal from the
 * tick, which can end the call's sleep with EINTR. */
static bool timer_waits_for_user_mode(void) {
  struct utsname u;
  unsigned major = 0, minor = 0;
  if (uname(&u) != 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
    return false;
  return major > 5 || (major == 5 && minor >= 11);
}

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
  moves_allowed = chosen == KIND_PERF &&
                  coz_config.SAMPLER == COZ_SAMPLER_AUTO &&
                  timer_waits_for_user_mode();
  return true;
}

const char *coz_sampler_name(void) {
  return chosen == KIND_PERF ? "perf" : chosen == KIND_TIMER ? "timer" : "none";
}

static bool start_perf(struct coz_sampler_thread *s, pid_t tid) {
  if (!coz_perf_start(s, tid))
    return false;
  s->kind = KIND_PERF;
  coz_perf_kernel_start(s);
  return true;
}

static bool start_timer(struct coz_sampler_thread *s, pid_t tid) {
  if (!coz_timer_start(s, tid))
    return false;
  s->kind = KIND_TIMER;
  return true;
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
  s->moves = 0;
  s->switch_signals = 0;
  s->switch_cpu_ns = 0; /* not looked yet */
  s->blocking_calls = 0;
  if (chosen == KIND_PERF) {
    if (start_perf(s, tid))
      return true;
    /* perf may run out for this thread (too many open files): degrade to
     * the timer sampler for it. */
    coz_log_verbose(1, "perf sampler for thread %d: %s", (int)tid,
                    strerror(errno));
  }
  if (chosen != KIND_NONE) {
    if (start_timer(s, tid))
      return true;
    coz_log_verbose(1, "timer sampler for thread %d: %s", (int)tid,
                    strerror(errno));
  }
  return false;
}

/* Releases what a sampler of that kind holds for the thread. */
static void stop_kind(struct coz_sampler_thread *s, int kind) {
  if (kind == KIND_PERF) {
    coz_perf_kernel_stop(s);
    coz_perf_stop(s);
  } else if (kind == KIND_TIMER) {
    coz_timer_stop(s);
  }
}

void coz_sampler_stop(struct coz_sampler_thread *s) {
  int kind = s->kind;
  s->kind = KIND_NONE;
  stop_kind(s, kind);
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
 * period's start): an EWMA over all threads, weight 1/16. Only a sample
 * that drew a new period restarted it in the handler; after the others the
 * period runs on from the overflow and holds that cost, and their `over`
 * is about 0, so the average is the cost per sample, whatever the share of
 * draws (sampler_perf.c, REARM_EVERY). */
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

/* A thread that blocks often samples by the timer. A sampling perf event
 * is an hrtimer that the kernel stops and restarts at each context switch
 * of its thread: +10.7 us a switch for one event, +18 us for the two of
 * kernel sampling, on this project's VM (bench/overhead/switch_cost.c); a
 * CPU-time timer, checked at the scheduler tick, costs nothing there. A
 * memcached worker under load switches every ~77 us of CPU, and perf cost
 * it a fifth of its throughput (docs/results.md, "Threads that block
 * often sample by the timer"). The timer's samples, bound to ticks, are
 * the less accurate (the accuracy suite on the timer alone: max error
 * 15 pp against 8.5), so threads that run longer keep perf.
 * Under COZ_SAMPLER=auto, with perf chosen, on a kernel whose timers never
 * cut a system call short (timer_waits_for_user_mode), a thread looks at
 * itself every CHECK_EVERY samples or more (coz_sampler_review), and a
 * thread on perf also every COZ_CHECK_BLOCKS waits (blocking checkpoints,
 * sleeps, polls: coz_sampler_review_blocking): one that runs a few us
 * between waits takes a sample every few hundred waits, so its samples
 * alone would look after seconds, its switches paying perf all along.
 * Under SWITCHY_NS of CPU a context switch since the last look, it moves
 * to the timer; over 4 x SWITCHY_NS, back to perf (the gap keeps a thread
 * near the line from moving at every look). */
#define CHECK_EVERY 8
#define SWITCHY_NS 250000u

/* Starts the other sampler, then stops this one: a thread that cannot
 * start the other keeps the one it has. With the sample signal held off:
 * in the thread's sample handler, or blocked (coz_sampler_review_blocking). */
static void move(struct coz_sampler_thread *s, int to) {
  pid_t tid = coz_gettid();
  int from = s->kind;
  if (to == KIND_TIMER ? !start_timer(s, tid) : !start_perf(s, tid))
    return;
  stop_kind(s, from);
  s->moves++;
  s->phase_done = false; /* the new sampler's first period is random */
}

/* Compares the thread's CPU time `cpu` and context switches with the last
 * look and moves it by the rule above. With the sample signal held off. */
static void look(struct coz_sampler_thread *s, uint64_t cpu) {
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0)
    return;
  uint64_t count = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
  uint64_t ran = cpu - s->switch_cpu_ns;
  uint64_t switches = count - s->switch_count;
  bool known = s->switch_cpu_ns != 0 && cpu > s->switch_cpu_ns;
  s->switch_signals = s->signals;
  s->switch_cpu_ns = cpu;
  s->switch_count = count;
  if (!known)
    return;
  if (s->kind == KIND_PERF && ran < SWITCHY_NS * switches)
    move(s, KIND_TIMER);
  else if (s->kind == KIND_TIMER && ran > 4 * SWITCHY_NS * switches)
    move(s, KIND_PERF);
}

void coz_sampler_review(struct coz_sampler_thread *s) {
  if (moves_allowed && s->signals - s->switch_signals >= CHECK_EVERY)
    look(s, s->last_cpu_ns); /* the CPU time at this sample */
}

void coz_sampler_review_blocking(struct coz_sampler_thread *s) {
  s->blocking_calls = 0;
  if (!moves_allowed || s->kind != KIND_PERF)
    return;
  sigset_t sample, old;
  sigemptyset(&sample);
  sigaddset(&sample, COZ_SAMPLE_SIGNAL);
  if (coz_real_sigmask(SIG_BLOCK, &sample, &old) != 0)
    return;
  look(s, coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID));
  coz_real_sigmask(SIG_SETMASK, &old, NULL);
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
  s->weight_sum_ns += out->weight_ns;
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
