/* callpath.h: call-path profiles of monotonic resources (docs/callpath.md).
 * The rest of the runtime calls only this: a thread that starts gets its
 * own resource clocks; the runtime's interposed calls report bytes and
 * waits. Everything else (start-up, exit) is self-contained in this
 * folder. */
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

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The runtime's interposed calls (runtime/io_checkpoints.c, the blocking
 * synchronization checkpoints) feed two resources. They test these flags
 * first: both stay false unless COZ_CALLPATH asks for the resource. */
extern _Atomic bool coz_callpath_bytes; /* read or write */
extern _Atomic bool coz_callpath_wall;  /* wall */

/* n bytes were read (written = false) or written by a call whose return
 * address into the program is caller_ra. */
void coz_callpath_io_bytes(bool written, uint64_t n, uintptr_t caller_ra);

/* The calling thread enters / leaves a call that may block: the wait is
 * wall-clock time spent at that call's stack (cp_wall.c). */
void coz_callpath_block_begin(uintptr_t caller_ra);
void coz_callpath_block_end(uintptr_t caller_ra);

#endif /* COZ_CALLPATH_H */
