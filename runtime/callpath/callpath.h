/* callpath.h: call-path profiles of monotonic resources (docs/callpath.md).
 * The rest of the runtime calls only this: a thread that starts gets its
 * own resource clocks. Everything else (start-up, exit, the I/O
 * interposers) is self-contained in this folder. */
#ifndef COZ_CALLPATH_H
#define COZ_CALLPATH_H

/* Arms the calling thread's per-thread clocks (CPU time, page faults,
 * context switches) when COZ_CALLPATH asks for them. Safe to call from any
 * thread, any number of times; does nothing when call paths are off. */
void coz_callpath_thread_start(void);

/* Adds the call-path profiler's sample signal to *mask when call paths
 * are on: for handlers that run on an alternate signal stack, where a
 * second signal frame could overflow a small stack (runtime/signal_guard.c
 * does the same for the causal sampler's signal). */
#include <signal.h>
void coz_callpath_mask_signal(sigset_t *mask);

#endif /* COZ_CALLPATH_H */
