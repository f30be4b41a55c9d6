/* sampler_timer.c: the fallback sampler for when perf_event_open is denied
 * (perf_event_paranoid >= 3, seccomp) or missing. A POSIX timer on the
 * thread's own CPU-time clock fires COZ_SAMPLE_SIGNAL at that thread
 * (SIGEV_THREAD_ID) every COZ_PERIOD ns of its CPU time; the handler records
 * the pc and a frame-pointer call chain into a per-thread buffer, and hands
 * the buffer over every COZ_BATCH samples. The signal is synchronous with
 * the sample, so on x86-64 the handler also keeps the interrupted rip, rsp
 * and rbp and copies the top COZ_STACK_SNAPSHOT bytes of the live stack
 * (bounded by the thread's stack) for CFI unwinding when the samples are
 * processed, possibly after the stack has changed. */
#include "config.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* The CPU-time clock of thread tid (the kernel's encoding, as glibc's
 * pthread_getcpuclockid builds it): usable for any thread of the process. */
static clockid_t thread_cpu_clock(pid_t tid) {
  return (clockid_t)((~(unsigned)tid << 3) | 6u /* CPUCLOCK_SCHED|THREAD */);
}

/* The calling thread's stack, [*lo, *hi); both 0 if unknown. */
static void own_stack_range(uintptr_t *lo, uintptr_t *hi) {
  *lo = *hi = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  void *addr;
  size_t size;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
    *lo = (uintptr_t)addr;
    *hi = *lo + size;
  }
  pthread_attr_destroy(&attr);
}

/* Maps the stack copies of the thread's sample slots. Only for the calling
 * thread, whose stack range can be asked for: threads adopted at start-up
 * (sampled from another thread's call) get frame-pointer chains only. The
 * copies are not inherited by fork children, which stop profiling. */
static void map_stack_copies(struct coz_sampler_thread *s, pid_t tid) {
  s->timer_stacks = NULL;
  s->stack_lo = s->stack_hi = 0;
#if defined(__x86_64__)
  if (tid != coz_gettid())
    return;
  own_stack_range(&s->stack_lo, &s->stack_hi);
  if (s->stack_hi == 0)
    return;
  size_t bytes = (size_t)COZ_TIMER_BUFFER * COZ_STACK_SNAPSHOT;
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return;
  madvise(m, bytes, MADV_DONTFORK);
  s->timer_stacks = m;
#else
  (void)tid;
#endif
}

static void unmap_stack_copies(struct coz_sampler_thread *s) {
  if (s->timer_stacks)
    munmap(s->timer_stacks, (size_t)COZ_TIMER_BUFFER * COZ_STACK_SNAPSHOT);
  s->timer_stacks = NULL;
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
  s->timer_head = s->timer_tail = 0;
  s->last_cpu_ns = 0;
  map_stack_copies(s, tid);
  if (timer_settime(s->timer, 0, &its, NULL) != 0) {
    timer_delete(s->timer);
    unmap_stack_copies(s);
    return false;
  }
  return true;
}

void coz_timer_stop(struct coz_sampler_thread *s) {
  timer_delete(s->timer);
  unmap_stack_copies(s);
}

/* Frame-pointer walk of the interrupted thread's stack. A frame is trusted
 * only if it lies above the previous one and within 8 MiB of the stack
 * pointer, so a corrupt rbp (code built without frame pointers) ends the walk
 * instead of faulting. */
static uint32_t frame_pointer_chain(const ucontext_t *uc, uint64_t *ips) {
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
    slot->n = frame_pointer_chain((const ucontext_t *)ucontext, slot->ips);
    slot->stack_bytes = 0;
#if defined(__x86_64__)
    const ucontext_t *uc = ucontext;
    uint64_t sp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
    slot->regs = (struct coz_unwind_regs){
        (uint64_t)uc->uc_mcontext.gregs[REG_RIP], sp,
        (uint64_t)uc->uc_mcontext.gregs[REG_RBP], true, false};
    /* From sp up to the top of the thread's stack, all mapped. A sample on
     * another stack (a coroutine's, a sigaltstack) copies nothing. */
    if (s->timer_stacks && sp >= s->stack_lo && sp < s->stack_hi) {
      uint64_t len = s->stack_hi - sp;
      if (len > COZ_STACK_SNAPSHOT)
        len = COZ_STACK_SNAPSHOT;
      memcpy(s->timer_stacks +
                 (size_t)(head % COZ_TIMER_BUFFER) * COZ_STACK_SNAPSHOT,
             (const void *)sp, len);
      slot->stack_bytes = (uint32_t)len;
    }
#endif
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
    uint32_t at = s->timer_tail % COZ_TIMER_BUFFER;
    const struct coz_timer_sample *slot = &s->timer_buf[at];
    struct coz_sample sample = {slot->ips, slot->n, slot->weight_ns,
                                false,     {0},     {0}};
    if (slot->stack_bytes) {
      const unsigned char *copy =
          s->timer_stacks + (size_t)at * COZ_STACK_SNAPSHOT;
      sample.has_regs = true;
      sample.regs = slot->regs;
      sample.stack = (struct coz_stack_view){
          slot->regs.sp, slot->stack_bytes, slot->stack_bytes, {copy, NULL}};
    }
    fn(ctx, &sample);
    s->timer_tail++;
    n++;
  }
  return n;
}
