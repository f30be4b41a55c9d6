/* thread_state.h: per-thread state and the registry of all sampled threads. */
#ifndef COZ_THREAD_STATE_H
#define COZ_THREAD_STATE_H

#include "sampler.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define COZ_SAMPLE_QUEUE 16
struct coz_line;

struct coz_thread {
  _Atomic int slot_state; /* SLOT_FREE, SLOT_RESERVED, SLOT_LIVE */
  _Atomic pid_t tid;      /* set once the thread runs */
  /* Virtual delay (ns) this thread has executed or absorbed; compared with
   * the global count in delays.c. Touched only by the thread itself (and by
   * its creator before it starts). */
  uint64_t local_delay;
  /* Time pauses overran; taken off the next pauses. */
  uint64_t excess_ns;
  /* Set while the thread runs runtime code that touches the fields above:
   * a sample signal arriving then only sets `pending`, and the interrupted
   * code processes the samples before it returns. */
  volatile sig_atomic_t in_runtime;
  volatile sig_atomic_t pending;
  /* Set from coz.h's COZ_PRE_BLOCK to COZ_POST_BLOCK (or the thread's next
   * settle): its samples then pay no owed delay, as a wake-up may credit
   * them. The state cannot be held across the program's own wait, as the
   * table's blocking checkpoints hold it, and the kernel delivers a sample
   * that fired during a wait's wake-up as the wait returns. */
  volatile sig_atomic_t in_wait;
  /* Samples attributed by the handler while in_runtime was set, for the
   * interrupted runtime code to process: written by the handler only
   * (queue_head), read by the thread's runtime code only (queue_tail). */
  struct coz_queued_sample {
    struct coz_line *line;
    uint64_t weight_ns;
  } queue[COZ_SAMPLE_QUEUE];
  volatile uint32_t queue_head;
  uint32_t queue_tail;
  uint32_t queue_dropped;
  /* Start routine for the pthread_create/thrd_create trampoline. */
  void *(*start_fn)(void *);
  int (*thrd_fn)(void *);
  void *start_arg;
  uint64_t samples; /* samples processed by this thread (statistics) */
  struct coz_sampler_thread sampler;
};

/* The calling thread's state, or NULL if it is not sampled (runtime off,
 * profiler thread, thread exited). Async-signal-safe. */
struct coz_thread *coz_thread_self(void);

/* The same, inline, for the checkpoints' fast paths: one TLS load for
 * threads the runtime started or bound, coz_thread_self otherwise. */
extern __thread struct coz_thread *coz_self_tls
    __attribute__((tls_model("initial-exec")));
static inline struct coz_thread *coz_thread_self_fast(void) {
  struct coz_thread *t = coz_self_tls;
  return t ? t : coz_thread_self();
}

/* The registry (threads.c) knows slots; what a thread's start and exit
 * mean for delays is thread_create.c's and thread_lifecycle.c's.
 *
 * Reserves a slot, with local_delay as its delay count, for a thread about
 * to be created or for the calling one. NULL if the runtime is off or out
 * of memory. Not async-signal-safe. */
struct coz_thread *coz_thread_reserve(uint64_t local_delay);
/* Returns a reserved slot whose thread could not be created. */
void coz_thread_unreserve(struct coz_thread *t);
/* In the thread itself: makes t its state and starts sampling it. */
void coz_thread_bind(struct coz_thread *t);
/* In the thread itself, t being its state: stops sampling it and frees the
 * slot. Returns the number of threads still live. */
long coz_thread_release(struct coz_thread *t);
/* COZ_VERBOSE=2: one line of t's sampling counts (at its release, and for
 * the thread that runs the exit). Not async-signal-safe. */
void coz_thread_log_counts(const struct coz_thread *t);
/* Gives every other thread that exists already (started before the runtime)
 * a slot with local_delay and a sampler, once, at initialisation. */
void coz_threads_adopt(uint64_t local_delay);
/* After fork, in the child: forget every slot without touching the
 * parent's perf events (they stay owned by the parent). */
void coz_threads_forget_all(void);
/* Number of application threads alive (the profiler thread exits when this
 * reaches zero so that pthread_exit from main ends the process). */
long coz_threads_live(void);

#endif /* COZ_THREAD_STATE_H */
