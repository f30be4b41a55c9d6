/* sampler_period.h: the lengths of sampling periods (sampler_period.c),
 * for every back-end. Async-signal-safe. */
#ifndef COZ_SAMPLER_PERIOD_H
#define COZ_SAMPLER_PERIOD_H

#include "sampler_thread.h"

/* Length of a thread's first sampling period: uniform in (0, COZ_PERIOD].
 * A fresh thread would otherwise always be sampled at the same offsets
 * from its start, and a thread that lives a few periods would have its
 * samples (and so its virtual speedup) systematically under-counted. */
uint64_t coz_sampler_first_period(pid_t tid);
/* The next sampling period: uniform in [P/2, 3P/2), mean COZ_PERIOD. A
 * fixed period aliases with loops whose iterations last about a multiple of
 * it (samples then lock onto one part of the loop for long stretches);
 * jitter keeps every line's share of samples equal to its share of time. */
uint64_t coz_sampler_next_period(struct coz_sampler_thread *s);

#endif /* COZ_SAMPLER_PERIOD_H */
