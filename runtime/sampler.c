/* sampler.c: picks perf or the timer sampler once, and dispatches to it. */
#include "sampler.h"
#include "config.h"
#include "experiment.h"
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
  s->ring = NULL;
  if (chosen == KIND_PERF && coz_perf_start(s, tid)) {
    s->kind = KIND_PERF;
    return true;
  }
  /* perf may run out for this thread (too many open files, the per-user
   * mlock budget of perf rings): degrade to the timer sampler for it. */
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

bool coz_sampler_owns(const struct coz_sampler_thread *s,
                      const siginfo_t *info) {
  if (s->kind == KIND_PERF) /* F_SETSIG: si_code POLL_*, si_fd our fd */
    return info->si_code >= POLL_IN && info->si_code <= POLL_HUP &&
           info->si_fd == s->fd;
  if (s->kind == KIND_TIMER)
    return info->si_code == SI_TIMER;
  return false;
}

bool coz_sampler_on_signal(struct coz_sampler_thread *s, siginfo_t *info,
                           void *ucontext) {
  (void)info;
  if (s->kind == KIND_TIMER)
    return coz_timer_on_signal(s, ucontext);
  if (s->kind != KIND_PERF)
    return false;
  bool filling = coz_perf_on_signal(s);
  /* One signal per sample; process a batch every COZ_BATCH of them, or at
   * once during an experiment (see coz_sampler_urgent), or when the ring is
   * half full: records with a stack copy are large (COZ_STACK_SNAPSHOT),
   * and a full ring drops samples. */
  return ++s->signals % coz_config.BATCH == 0 || filling ||
         coz_sampler_urgent();
}

bool coz_sampler_urgent(void) {
  return atomic_load_explicit(&coz_exp_selected, memory_order_relaxed) != NULL;
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

size_t coz_sampler_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                         void *ctx) {
  if (s->kind == KIND_PERF)
    return coz_perf_drain(s, fn, ctx);
  if (s->kind == KIND_TIMER)
    return coz_timer_drain(s, fn, ctx);
  return 0;
}
