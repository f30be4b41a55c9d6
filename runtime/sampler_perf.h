/* sampler_perf.h: the perf back-end, called by sampler.c. */
#ifndef COZ_SAMPLER_PERF_H
#define COZ_SAMPLER_PERF_H

#include "sampler_thread.h"

/* For both perf events (sampler_kernel.c too): a task-clock event's
 * attributes (disabled, user and kernel time, no idle), and
 * perf_event_open on thread tid with close-on-exec. */
struct perf_event_attr;
void coz_perf_task_clock(struct perf_event_attr *attr, uint64_t period);
long coz_perf_open(struct perf_event_attr *attr, pid_t tid);

bool coz_perf_available(void);
bool coz_perf_start(struct coz_sampler_thread *s, pid_t tid);
uint64_t coz_perf_rearm(struct coz_sampler_thread *s);
void coz_perf_stop(struct coz_sampler_thread *s);
void coz_perf_suspend(struct coz_sampler_thread *s, bool suspend);

#endif /* COZ_SAMPLER_PERF_H */
