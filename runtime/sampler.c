/* sampler.c: picks perf or the timer sampler once, and dispatches to it. */
#include "sampler.h"
#include "config.h"
#include "util.h"

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
      coz_log_error("perf_event_open is not available; sampling with CPU-time "
                    "timers instead (COZ_SAMPLER=timer hides this line)");
    }
  }
  return true;
}

const char *coz_sampler_name(void) {
  return chosen == KIND_PERF ? "perf" : chosen == KIND_TIMER ? "timer" : "none";
}

bool coz_sampler_start(struct coz_sampler_thread *s, pid_t tid) {
  s->kind = KIND_NONE;
  s->fd = -1;
  s->stack_lo = s->stack_hi = 0;
  /* Only a thread can ask for its own stack: threads adopted at start-up
   * (set up from the initialising thread) unwind by frame pointers only. */
  if (tid == coz_gettid())
    coz_sampler_own_stack(s);
  if (chosen == KIND_PERF && coz_perf_start(s, tid)) {
    s->kind = KIND_PERF;
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
  if (kind == KIND_PERF)
    coz_perf_stop(s);
  else if (kind == KIND_TIMER)
    coz_timer_stop(s);
}

void coz_sampler_forget(struct coz_sampler_thread *s) {
  /* The descriptor is a copy in the child; the timer is the parent's
   * (timers are not inherited, so the id means nothing here). */
  if (s->kind == KIND_PERF && s->fd >= 0)
    syscall(SYS_close, s->fd);
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

void coz_sampler_take(struct coz_sampler_thread *s, void *ucontext,
                      struct coz_sample *out, uint64_t *ips) {
  coz_sample_from_context(s, ucontext, out, ips);
  s->signals++;
  if (s->kind == KIND_PERF) {
    /* The mean period, not the one that just ended: samples come at rate
     * 1/P, so each stands for P on average, while the sum of the periods
     * that ended misses the thread's unsampled tail (half a period per
     * thread: a quarter of a 2 ms thread's time). */
    out->weight_ns =
        coz_config.PERIOD * (s->first_weight ? s->first_weight : 1);
    s->first_weight = 1;
    coz_perf_rearm(s);
  } else {
    out->weight_ns = coz_timer_rearm(s);
  }
}

void coz_sampler_suspend(struct coz_sampler_thread *s) {
  if (s->kind == KIND_PERF)
    coz_perf_suspend(s, true);
  else if (s->kind == KIND_TIMER)
    coz_timer_suspend(s);
}

void coz_sampler_resume(struct coz_sampler_thread *s) {
  if (s->kind == KIND_PERF)
    coz_perf_suspend(s, false);
  else if (s->kind == KIND_TIMER)
    coz_timer_resume(s);
}

uint64_t coz_sampler_next_period(struct coz_sampler_thread *s) {
  if (s->rng == 0)
    s->rng = coz_now_ns() | 1;
  s->rng ^= s->rng >> 12; /* xorshift64* */
  s->rng ^= s->rng << 25;
  s->rng ^= s->rng >> 27;
  uint64_t r = s->rng * 2685821657736338717ull;
  uint64_t period = coz_config.PERIOD;
  uint64_t next = period / 2 + r % (period ? period : 1);
  return next < 10000 ? 10000 : next;
}

uint64_t coz_sampler_first_period(pid_t tid) {
  /* splitmix64 of the thread id and the clock: independent per thread. */
  uint64_t z = coz_now_ns() ^ ((uint64_t)tid << 32);
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  uint64_t period = coz_config.PERIOD;
  uint64_t min = 10000; /* the kernel's floor for task-clock periods */
  return period <= min ? period : min + z % (period - min + 1);
}
