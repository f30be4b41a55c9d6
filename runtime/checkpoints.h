/* checkpoints.h: declarations of the runtime's __coz_NAME checkpoints. */
#ifndef COZ_CHECKPOINTS_H
#define COZ_CHECKPOINTS_H

#include "abi.h"
#include "delays.h"
#include "real.h"
#include "runtime.h"
#include "thread_state.h"

/* By role, what the declarations and forwarders generated from the table
 * (checkpoints.def) differ in: an EXIT never returns, so it is declared
 * noreturn and its forwarders return nothing. */
#define COZ_CP_NORETURN_BLOCK
#define COZ_CP_NORETURN_WAKE
#define COZ_CP_NORETURN_CREATE
#define COZ_CP_NORETURN_EXIT __attribute__((noreturn))
#define COZ_CP_RETURN_BLOCK return
#define COZ_CP_RETURN_WAKE return
#define COZ_CP_RETURN_CREATE return
#define COZ_CP_RETURN_EXIT

#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  COZ_EXPORT COZ_CP_NORETURN_##ROLE RET __coz_##NAME PARAMS;
#include "checkpoints.def"
#undef COZ_CHECKPOINT

/* What the pass calls before LOCK (try_first.def): TRY's result, or BUSY
 * while TRY is not resolved. */
#define COZ_TRY_FIRST(LOCK, PARAMS, ARGS, TRY, BUSY)                          \
  COZ_EXPORT int __coz_try_##LOCK PARAMS;
#include "try_first.def"
#undef COZ_TRY_FIRST

/* FN, of NAME's prototype, calls __coz_NAME: the interposers (FN is NAME,
 * interpose_dynamic.c) and the --wrap targets (__wrap_NAME,
 * interpose_static.c). */
#define COZ_CP_FORWARD(ROLE, RET, FN, NAME, PARAMS, ARGS)                      \
  COZ_EXPORT COZ_CP_NORETURN_##ROLE RET FN PARAMS {                            \
    COZ_CP_RETURN_##ROLE __coz_##NAME ARGS;                                    \
  }

/* The calling thread is about to exit: execute owed delays (Table 1). */
void coz_checkpoint_exit_thread(void);

/* The blocking rules of §3.4.1 as two inline steps, for every family of
 * checkpoints (this table, the I/O calls). Both cost a few loads when the
 * thread owes nothing, so an uncontended lock stays cheap. */

/* Slow path (checkpoints.c); errno is preserved. */
void coz_checkpoint_settle(struct coz_thread *t);

/* Before a call that may wake another thread (Table 1) or block (Table 2):
 * execute every owed delay, so a thread it wakes has nothing left to wait
 * for on its behalf. Returns the thread's state, or NULL when the thread is
 * not profiled (then nothing is to be done after the call either).
 * Samples that wait for their batch are not drained here: outside
 * experiments they carry no delay, and during one each is processed when
 * its signal arrives. */
static inline struct coz_thread *coz_checkpoint_enter(void) {
  if (!atomic_load_explicit(&coz_active, memory_order_relaxed))
    return NULL;
  struct coz_thread *t = coz_thread_self_fast();
  if (!t || t->in_runtime)
    return NULL; /* in_runtime: a program handler interrupted the runtime */
  if (t->pending || t->local_delay < coz_delay_global())
    coz_checkpoint_settle(t);
  return t;
}

/* True when thread t (NULL when not bound) can skip coz_checkpoint_enter:
 * profiled, not inside the runtime, no sample pending, nothing owed. The
 * checkpoints' on path tests this before anything else. */
static inline bool coz_checkpoint_clear(const struct coz_thread *t) {
  return t && !t->in_runtime && !t->pending &&
         t->local_delay >= coz_delay_global();
}

/* hold/release bracket runtime work on a thread's state that a sample must
 * not interleave with (the handler then only queues the sample; release
 * processes the queue). A blocking checkpoint holds it from before the real
 * call until its wake-up is credited: a sample processed after the call
 * returned but before the credit would execute the delays the thread owes,
 * which are the very delays its waker executed, so a thread woken after a
 * long wait paid them all again (docs/results.md, "A lost wake-up credit";
 * test runtime.wake_credit). */
static inline void coz_checkpoint_hold(struct coz_thread *t) {
  t->in_runtime = 1;
}
/* While held, after a blocking call returned because another thread acted:
 * that thread executed its delays before waking this one
 * (coz_checkpoint_enter), so this one's owed delays up to `upto` are done. */
static inline void coz_checkpoint_absorb(struct coz_thread *t, uint64_t upto) {
  if (t->local_delay < upto)
    t->local_delay = upto;
}
void coz_checkpoint_drain(struct coz_thread *t); /* errno is preserved */
static inline void coz_checkpoint_release(struct coz_thread *t) {
  atomic_signal_fence(memory_order_seq_cst); /* the held work first */
  t->in_runtime = 0;
  if (t->pending)
    coz_checkpoint_drain(t);
}

/* At a call that waits (the blocking checkpoints; the I/O calls that wait
 * whatever the descriptor), outside any hold: every COZ_CHECK_BLOCKS such
 * calls the thread's sampler looks at how often the thread switches
 * (sampler.h): a thread that mostly waits takes too few samples to be
 * looked at by them. The look holds the state itself: a move unmaps the
 * perf ring, which runtime code the look interrupted might be reading,
 * and which an I/O call from a program's signal handler arriving during
 * the move would read (held, that call leaves the state alone). */
void coz_checkpoint_review(struct coz_thread *t); /* errno is preserved */
static inline void coz_checkpoint_count_wait(struct coz_thread *t) {
  if (__builtin_expect(++t->sampler.blocking_calls >= COZ_CHECK_BLOCKS, 0))
    coz_checkpoint_review(t);
}

#endif /* COZ_CHECKPOINTS_H */
