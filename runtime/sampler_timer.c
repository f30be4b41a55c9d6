/* sampler_timer.c: the fallback sampler for when perf_event_open is denied
 * (perf_event_paranoid >= 3, seccomp) or missing. A POSIX timer on the
 * thread's own CPU-time clock fires COZ_SAMPLE_SIGNAL at that thread
 * (SIGEV_THREAD_ID) every COZ_PERIOD ns of its CPU time; the handler records
 * the pc and a frame-pointer call chain into a per-thread buffer, and hands
 * the buffer over every COZ_BATCH samples. */
#include "config.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <ucontext.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* The CPU-time clock of thread tid (the kernel's encoding, as glibc's
 * pthread_getcpuclockid builds it): usable for any thread of the process. */
static clockid_t thread_cpu_clock(pid_t tid) {
  return (clockid_t)((~(unsigned)tid << 3) | 6u /* CPUCLOCK_SCHED|THREAD */);
}

bool coz_timer_start(struct coz_sampler_thread *s, pid_t tid) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = COZ_SAMPLE_SIGNAL;
  sev.sigev_notify_thread_id = tid;
  if (timer_create(thread_cpu_clock(tid), &sev, &s->timer) != 0) {
    coz_log_verbose(1, "timer_create for thread %d: %s", (int)tid,
                    strerror(errno));
    return false;
  }
  struct itimerspec its;
  its.it_interval.tv_sec = (time_t)(coz_config.PERIOD / 1000000000u);
  its.it_interval.tv_nsec = (long)(coz_config.PERIOD % 1000000000u);
  uint64_t first = coz_sampler_first_period(tid);
  its.it_value.tv_sec = (time_t)(first / 1000000000u);
  its.it_value.tv_nsec = (long)(first % 1000000000u);
  if (timer_settime(s->timer, 0, &its, NULL) != 0) {
    timer_delete(s->timer);
    return false;
  }
  s->timer_head = s->timer_tail = 0;
  s->last_cpu_ns = 0;
  return true;
}

void coz_timer_stop(struct coz_sampler_thread *s) { timer_delete(s->timer); }

/* Frame-pointer walk of the interrupted thread's stack. A frame is trusted
 * only if it lies above the previous one and within 8 MiB of the stack
 * pointer, so a corrupt rbp (code built without frame pointers) ends the walk
 * instead of faulting. */
static uint32_t unwind(const ucontext_t *uc, uint64_t *ips) {
  uint32_t n = 0;
#if defined(__x86_64__)
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#elif defined(__aarch64__)
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.sp;
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.regs[29];
#else
  uintptr_t pc = 0, sp = 0, fp = 0;
#endif
  ips[n++] = pc;
  uintptr_t limit = sp + (8u << 20);
  while (n < COZ_MAX_FRAMES && fp >= sp && fp < limit && (fp & 7) == 0) {
    const uintptr_t *frame = (const uintptr_t *)fp;
    uintptr_t ret = frame[1];
    uintptr_t next = frame[0];
    if (ret < 4096)
      break;
    ips[n++] = ret;
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}

bool coz_timer_on_signal(struct coz_sampler_thread *s, void *ucontext) {
  /* Jitter the next expiry (see coz_sampler_next_period). */
  uint64_t next = coz_sampler_next_period(s);
  struct itimerspec its;
  its.it_interval.tv_sec = (time_t)(coz_config.PERIOD / 1000000000u);
  its.it_interval.tv_nsec = (long)(coz_config.PERIOD % 1000000000u);
  its.it_value.tv_sec = (time_t)(next / 1000000000u);
  its.it_value.tv_nsec = (long)(next % 1000000000u);
  timer_settime(s->timer, 0, &its, NULL);
  uint32_t head = s->timer_head;
  if (head - s->timer_tail < COZ_TIMER_BUFFER) {
    struct coz_timer_sample *slot = &s->timer_buf[head % COZ_TIMER_BUFFER];
    slot->n = unwind((const ucontext_t *)ucontext, slot->ips);
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    uint64_t cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    slot->weight_ns = s->last_cpu_ns && cpu > s->last_cpu_ns
                          ? cpu - s->last_cpu_ns
                          : coz_config.PERIOD;
    s->last_cpu_ns = cpu;
    atomic_signal_fence(memory_order_release);
    s->timer_head = head + 1;
  }
  uint32_t queued = s->timer_head - s->timer_tail;
  return queued >= coz_config.BATCH || queued >= COZ_TIMER_BUFFER ||
         coz_sampler_urgent();
}

size_t coz_timer_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                       void *ctx) {
  size_t n = 0;
  for (;;) {
    uint32_t head = s->timer_head;
    atomic_signal_fence(memory_order_acquire);
    if (s->timer_tail == head)
      break;
    const struct coz_timer_sample *slot =
        &s->timer_buf[s->timer_tail % COZ_TIMER_BUFFER];
    fn(ctx, slot->ips, slot->n, slot->weight_ns);
    s->timer_tail++;
    n++;
  }
  return n;
}
