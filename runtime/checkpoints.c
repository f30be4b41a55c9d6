/* checkpoints.c: the blocking rules of §3.4.1 (Tables 1-2) around every
 * WAKE and BLOCK function of checkpoints.def, as __coz_NAME (what the pass's
 * rewritten calls reach; the interposers forward here too).
 *
 *  - Before a call that may wake another thread (Table 1) or block (Table
 *    2), the thread executes the delays it owes, so a thread it wakes has
 *    nothing left to wait for on its behalf (checkpoints.h: the inline
 *    fast path; the slow paths are here).
 *  - After a blocking call returned because another thread acted (success),
 *    the thread is credited with the delays it owes: its waker executed them.
 *    After a timeout, EBUSY, EAGAIN or EINTR it is not: it still owes them.
 *  - A new thread inherits its parent's delay count (threads.c). */
#include "checkpoints.h"
#include "abi.h"
#include "callpath/callpath.h"
#include "delays.h"
#include "direct_calls.h"
#include "real.h"
#include "runtime.h"
#include "thread_state.h"

#include <errno.h>

#define ACTIVE() atomic_load_explicit(&coz_active, memory_order_relaxed)

void coz_checkpoint_drain(struct coz_thread *t) {
  int saved_errno = errno;
  coz_process_now(t);
  errno = saved_errno;
}

void coz_checkpoint_settle(struct coz_thread *t) {
  int saved_errno = errno;
  t->in_wait = 0; /* a COZ_PRE_BLOCK without its COZ_POST_BLOCK ends here */
  coz_process_now(t);
  coz_checkpoint_hold(t);
  coz_delays_catch_up(t);
  coz_checkpoint_release(t);
  errno = saved_errno;
}

void coz_checkpoint_review(struct coz_thread *t) {
  int saved_errno = errno;
  coz_checkpoint_hold(t);
  coz_sampler_review_blocking(&t->sampler);
  coz_checkpoint_release(t);
  errno = saved_errno;
}

void coz_checkpoint_exit_thread(void) {
  struct coz_thread *t = coz_checkpoint_enter();
  if (t)
    coz_checkpoint_settle(t); /* also processes the samples still queued */
}

/* --- coz.h hooks for custom primitives. --- */
/* Between the two, samples pay no owed delay (thread_state.h, in_wait):
 * woken by another thread, the thread owes nothing its waker did not
 * execute, and paying first would make it execute them again
 * (docs/results.md, "A lost wake-up credit"; runtime.wake_credit's hooks). */
COZ_EXPORT void __coz_pre_block(void) {
  struct coz_thread *t = coz_checkpoint_enter();
  if (t)
    t->in_wait = 1;
}
COZ_EXPORT void __coz_post_block(int woken_by_other) {
  struct coz_thread *t = coz_thread_self_fast();
  if (!t || t->in_runtime)
    return;
  coz_checkpoint_hold(t);
  t->in_wait = 0;
  if (woken_by_other && ACTIVE())
    coz_checkpoint_absorb(t, coz_delay_global());
  coz_checkpoint_release(t);
  if (!woken_by_other)
    coz_checkpoint_enter(); /* a timeout: the thread still owes its delays */
}
COZ_EXPORT void __coz_catch_up(void) { coz_checkpoint_enter(); }

/* --- The table. --- */
/* Each __coz_NAME first tests its row of the direct table
 * (direct_calls.h) and, when set, tail-calls it: the path while profiling
 * is off or the program has one thread. Else it tests the real function's
 * pointer and one flag (two for a blocking call) and tail-calls the real
 * function: the off path before the runtime has started. With
 * profiling on, a thread that owes nothing and has no sample pending (the
 * usual case) takes the on path: a wake-up call is tail-called too, a
 * blocking call goes through on_NAME, which keeps the thread's state in one
 * register across the call to credit a wake-up. Everything else (paying
 * delays, the wall-clock call path, resolving the pointer) is slow_NAME,
 * which makes the call itself through on_NAME.
 * Each path is a separate function so that none saves registers it does
 * not use: with all of it in one body the compiler saved registers before
 * the first test, which an uncontended lock pays on every call, profiling
 * on or off (docs/results.md, "Design figures"). */
#define COZ_UNPAREN(...) __VA_ARGS__

/* A WOKEN condition anywhere but in a BLOCK row would be ignored. */
#define NO_WOKEN(NAME, ...)                                                    \
  _Static_assert(sizeof #__VA_ARGS__ == 1,                                     \
                 #NAME ": only a BLOCK row has a WOKEN condition")

#define WAKE(RET, NAME, PARAMS, ARGS, ...)                                     \
  NO_WOKEN(NAME, __VA_ARGS__);                                                 \
  static __attribute__((noinline)) RET slow_##NAME PARAMS {                    \
    coz_checkpoint_enter();                                                    \
    return COZ_REAL(NAME) ARGS;                                                \
  }                                                                            \
  COZ_EXPORT RET __coz_##NAME PARAMS {                                         \
    __typeof__(coz_real.NAME) real = COZ_DIRECT(NAME);                         \
    if (__builtin_expect(real != NULL, 1))                                     \
      return real ARGS;                                                        \
    real = coz_real.NAME;                                                      \
    if (__builtin_expect(real != NULL, 1) &&                                   \
        (__builtin_expect(!ACTIVE(), 1) ||                                     \
         coz_checkpoint_clear(coz_self_tls)))                                  \
      return real ARGS;                                                        \
    return slow_##NAME ARGS;                                                   \
  }

/* A blocking call is also a wait for COZ_CALLPATH=wall (cp_wall.c). */
#define WALL_ON() atomic_load_explicit(&coz_callpath_wall, memory_order_relaxed)
static void wait_begin(uintptr_t ra) { coz_callpath_block_begin(ra); }
static void wait_end(uintptr_t ra) {
  int saved_errno = errno;
  coz_callpath_block_end(ra);
  errno = saved_errno;
}
#define CALLER_RA ((uintptr_t)__builtin_return_address(0))

/* WOKEN is the row's condition on r (checkpoints.def). `ra` is the
 * program's call site (the wall-clock call path's leaf). */
#define BLOCK(RET, NAME, PARAMS, ARGS, WOKEN)                                  \
  static __attribute__((noinline)) RET on_##NAME(                              \
      struct coz_thread *t, __typeof__(coz_real.NAME) real,                    \
      COZ_UNPAREN PARAMS) {                                                    \
    coz_checkpoint_hold(t);                                                    \
    RET r = real ARGS;                                                         \
    if (WOKEN)                                                                 \
      coz_checkpoint_absorb(t, coz_delay_global());                            \
    coz_checkpoint_release(t);                                                 \
    coz_checkpoint_count_wait(t);                                              \
    return r;                                                                  \
  }                                                                            \
  static __attribute__((noinline)) RET slow_##NAME(uintptr_t ra,               \
                                                   COZ_UNPAREN PARAMS) {       \
    struct coz_thread *t = coz_checkpoint_enter();                             \
    bool wall = WALL_ON();                                                     \
    if (wall)                                                                  \
      wait_begin(ra);                                                          \
    RET r = t ? on_##NAME(t, COZ_REAL(NAME), COZ_UNPAREN ARGS)                 \
              : COZ_REAL(NAME) ARGS;                                           \
    if (wall)                                                                  \
      wait_end(ra);                                                            \
    return r;                                                                  \
  }                                                                            \
  COZ_EXPORT RET __coz_##NAME PARAMS {                                         \
    __typeof__(coz_real.NAME) real = COZ_DIRECT(NAME);                         \
    if (__builtin_expect(real != NULL, 1))                                     \
      return real ARGS;                                                        \
    real = coz_real.NAME;                                                      \
    if (__builtin_expect(real && !WALL_ON(), 1)) {                             \
      if (__builtin_expect(!ACTIVE(), 1))                                      \
        return real ARGS;                                                      \
      struct coz_thread *t = coz_self_tls;                                     \
      if (coz_checkpoint_clear(t))                                             \
        return on_##NAME(t, real, COZ_UNPAREN ARGS);                           \
    }                                                                          \
    return slow_##NAME(CALLER_RA, COZ_UNPAREN ARGS);                           \
  }

/* Their bodies are thread_create.c's and thread_lifecycle.c's. */
#define CREATE(RET, NAME, PARAMS, ARGS, ...) NO_WOKEN(NAME, __VA_ARGS__);
#define EXIT(RET, NAME, PARAMS, ARGS, ...) NO_WOKEN(NAME, __VA_ARGS__);
#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  ROLE(RET, NAME, PARAMS, ARGS, __VA_ARGS__)
#include "checkpoints.def"
#undef COZ_CHECKPOINT

/* With profiling on, TRY when the thread is clear (owes no delay, has no
 * sample pending): a try that took the lock did not block, so nothing was
 * to be paid before it or credited after it; one that did not returns BUSY,
 * and so does a thread that is not clear, on which the pass's call site
 * makes the full checkpoint's call. A thread that owes delays pays them
 * before the lock as before, not at its unlock inside the critical section,
 * where the pause held up the sped-up thread (test runtime.cc_pc: -7.4 pp).
 * While its direct row is set or profiling is off, LOCK itself: no
 * checkpoint is needed, and the process may have one thread, where glibc
 * takes a free mutex without an atomic instruction but its try with one.
 * LOCK never returns BUSY; were it to, the call site's second call would
 * only retry a lock not taken. */
#define COZ_TRY_FIRST(LOCK, PARAMS, ARGS, TRY, BUSY)                          \
  COZ_EXPORT int __coz_try_##LOCK PARAMS {                                     \
    __typeof__(coz_real.LOCK) direct = COZ_DIRECT(LOCK);                       \
    if (__builtin_expect(direct != NULL, 1))                                   \
      return direct ARGS;                                                      \
    if (__builtin_expect(!ACTIVE(), 1)) {                                      \
      __typeof__(coz_real.LOCK) lock = coz_real.LOCK;                          \
      if (__builtin_expect(lock != NULL, 1))                                   \
        return lock ARGS;                                                      \
    } else {                                                                   \
      __typeof__(coz_real.TRY) try_lock = coz_real.TRY;                        \
      if (__builtin_expect(try_lock != NULL, 1) &&                             \
          coz_checkpoint_clear(coz_self_tls))                                  \
        return try_lock ARGS;                                                  \
    }                                                                          \
    return BUSY; /* the full checkpoint pays, resolves, blocks */              \
  }
#include "try_first.def"
#undef COZ_TRY_FIRST
