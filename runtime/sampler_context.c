/* sampler_context.c: a sample read out of the sample signal's context. The
 * signal is delivered to the sampled thread right at the sample (perf's
 * task-clock overflow and CPU-time timers both fire in user mode and are
 * delivered on the return to it), so the interrupted registers are the
 * sample's, and the live stack from sp up is the sampled call chain: the
 * core unwinds it in the handler (unwind/), before it changes. */
#include "sampler.h"

#include <pthread.h>
#include <ucontext.h>

/* How far above sp the stepper may read the live stack: deeper chains of
 * out-of-scope frames are not followed (and fall back to frame pointers). */
#define LIVE_STACK_LIMIT (256u << 10)

void coz_sampler_own_stack(struct coz_sampler_thread *s) {
  s->stack_lo = s->stack_hi = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  void *addr;
  size_t size;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
    s->stack_lo = (uintptr_t)addr;
    s->stack_hi = s->stack_lo + size;
  }
  pthread_attr_destroy(&attr);
}

/* Frame-pointer walk. A frame is trusted only if it lies above the previous
 * one and inside the thread's stack (or, when that is unknown, within 8 MiB
 * of sp), so a corrupt rbp (code built without frame pointers) ends the
 * walk instead of faulting. */
static size_t frame_pointer_chain(uintptr_t pc, uintptr_t sp, uintptr_t fp,
                                  uintptr_t hi, uint64_t *ips) {
  size_t n = 0;
  ips[n++] = pc;
  uintptr_t limit = hi ? hi : sp + (8u << 20);
  while (n < COZ_MAX_FRAMES && fp >= sp && fp + 16 <= limit && (fp & 7) == 0) {
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

void coz_sample_from_context(const struct coz_sampler_thread *s,
                             const void *ucontext, struct coz_sample *out,
                             uint64_t *ips) {
  const ucontext_t *uc = ucontext;
#if defined(__x86_64__)
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
  out->has_regs = true;
#elif defined(__aarch64__)
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.sp;
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.regs[29];
  out->has_regs = false;
#else
  uintptr_t pc = 0, sp = 0, fp = 0;
  out->has_regs = false;
  (void)uc;
#endif
  bool on_own_stack = s->stack_hi && sp >= s->stack_lo && sp < s->stack_hi;
  out->ips = ips;
  out->n = frame_pointer_chain(pc, sp, fp, on_own_stack ? s->stack_hi : 0, ips);
  out->regs = (struct coz_unwind_regs){pc, sp, fp, true, false};
  /* From sp to the top of the thread's stack all is mapped. A sample on
   * another stack (a coroutine's, a sigaltstack) gets no view. */
  uint64_t len = on_own_stack ? s->stack_hi - sp : 0;
  if (len > LIVE_STACK_LIMIT)
    len = LIVE_STACK_LIMIT;
  out->stack = (struct coz_stack_view){
      sp, len, len, {(const unsigned char *)sp, (const unsigned char *)sp}};
}
