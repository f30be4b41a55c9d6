/* sampler_context.h: a sample read out of a signal's context
 * (sampler_context.c). */
#ifndef COZ_SAMPLER_CONTEXT_H
#define COZ_SAMPLER_CONTEXT_H

#include "sampler_thread.h"

/* sampler_context.c: the calling thread's stack range into s (start-up of
 * a thread's sampler, in that thread); and a sample from a signal's
 * context. */
void coz_sampler_own_stack(struct coz_sampler_thread *s);
void coz_sample_from_context(const struct coz_sampler_thread *s,
                             const void *ucontext, struct coz_sample *out);

#endif /* COZ_SAMPLER_CONTEXT_H */
