/* sampler_timer.h: the CPU-time timer back-end, called by sampler.c. */
#ifndef COZ_SAMPLER_TIMER_H
#define COZ_SAMPLER_TIMER_H

#include "sampler_thread.h"

bool coz_timer_start(struct coz_sampler_thread *s, pid_t tid);
uint64_t coz_timer_rearm(struct coz_sampler_thread *s);
void coz_timer_stop(struct coz_sampler_thread *s);
void coz_timer_suspend(struct coz_sampler_thread *s);
void coz_timer_resume(struct coz_sampler_thread *s);

#endif /* COZ_SAMPLER_TIMER_H */
