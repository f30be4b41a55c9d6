/* profiler_host.h: where the profiler (experiment.c) runs: a thread of its
 * own, or the program's only thread. */
#ifndef COZ_PROFILER_HOST_H
#define COZ_PROFILER_HOST_H

#include <stdbool.h>
#include <stdint.h>

/* Starts the profiler `body` (experiment.c's), once (main thread, normal
 * context: the late constructor). While the program has one thread it
 * runs in that thread until it first waits; otherwise in a thread of its
 * own. False when neither could start (a notice says why). */
bool coz_host_start(void *(*body)(void *));
/* The profiler's wait (profiler only). In the program's thread: suspends
 * the profiler until `until` (monotonic ns) has passed and returns true
 * once it runs again. False in a thread of its own, which waits itself. */
bool coz_host_yield(uint64_t until);
/* From the sample handler, with the thread's in_runtime set: runs the
 * profiler if its wait is over and the sample interrupted the program's own
 * code at pc (never one of its signal handlers: signal_guard.h), or moves
 * it to a thread of its own there when the program's own code came too
 * rarely. Async-signal-safe to call; what the profiler then does is safe
 * there because of that. */
void coz_host_on_sample(uintptr_t pc);
/* Before the program creates a thread (normal context): the profiler moves
 * to a thread of its own and goes on there. */
void coz_host_before_thread_create(void);
/* A library built with the pass registered its module (its constructor,
 * normal context): in the program's thread the profiler runs now and reads
 * its lines, for a sample can only run it from lines in scope. */
void coz_host_scope_grew(void);
/* At exit, once the stop was requested (normal context): runs the profiler
 * in this thread until it ends, if it runs in the program's thread. */
void coz_host_finish(void);

#endif /* COZ_PROFILER_HOST_H */
