/* sampler_kernel.h: the perf back-end's samples of system-call time,
 * called by sampler.c. */
#ifndef COZ_SAMPLER_KERNEL_H
#define COZ_SAMPLER_KERNEL_H

#include "sampler_thread.h"

bool coz_perf_kernel_init(void);
void coz_perf_kernel_start(struct coz_sampler_thread *s);
void coz_perf_kernel_stop(struct coz_sampler_thread *s);
void coz_perf_kernel_forget(struct coz_sampler_thread *s);
void coz_perf_kernel_suspend(struct coz_sampler_thread *s, bool suspend);
bool coz_perf_kernel_next(struct coz_sampler_thread *s, struct coz_sample *out);

#endif /* COZ_SAMPLER_KERNEL_H */
