/* sampler_context.c: a sample read out of the sample signal's context. The
 * signal is delivered to the sampled thread right at the sample (perf's
 * task-clock overflow and CPU-time timers both fire in user mode and are
 * delivered on the return to it), so the interrupted registers are the
 * sample's, and the live stack from sp up is the sampled call chain: the
 * core unwinds it in the handler (unwind/), before it changes, reading it
 * only through a view that cannot fault (unwind/stack.h). */
#include "sampler_context.h"

void coz_sampler_own_stack(struct coz_sampler_thread *s) {
  uint64_t lo, hi;
  coz_stack_own_range(&lo, &hi);
  s->stack_lo = (uintptr_t)lo;
  s->stack_hi = (uintptr_t)hi;
}

void coz_sample_from_context(const struct coz_sampler_thread *s,
                             const void *ucontext, struct coz_sample *out) {
  out->regs = coz_unwind_regs_of(ucontext);
  coz_stack_view_at(&out->stack, out->regs.sp, s->stack_lo, s->stack_hi);
}
