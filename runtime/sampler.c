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
  s->ring = NULL;
  bool ok = false;
  if (chosen == KIND_PERF)
    ok = coz_perf_start(s, tid);
  else if (chosen == KIND_TIMER)
    ok = coz_timer_start(s, tid);
  if (ok)
    s->kind = chosen;
  return ok;
}

void coz_sampler_stop(struct coz_sampler_thread *s) {
  int kind = s->kind;
  s->kind = KIND_NONE;
  if (kind == KIND_PERF)
    coz_perf_stop(s);
  else if (kind == KIND_TIMER)
    coz_timer_stop(s);
}

bool coz_sampler_on_signal(struct coz_sampler_thread *s, siginfo_t *info,
                           void *ucontext) {
  (void)info;
  if (s->kind == KIND_TIMER)
    return coz_timer_on_signal(s, ucontext);
  return s->kind == KIND_PERF; /* perf signals once per batch */
}

size_t coz_sampler_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                         void *ctx) {
  if (s->kind == KIND_PERF)
    return coz_perf_drain(s, fn, ctx);
  if (s->kind == KIND_TIMER)
    return coz_timer_drain(s, fn, ctx);
  return 0;
}
