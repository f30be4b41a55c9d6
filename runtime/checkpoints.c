/* checkpoints.c: the blocking rules of §3.4.1 (Tables 1-2) around every
 * function of checkpoints.def, as __coz_NAME (what the pass's rewritten
 * calls reach; the interposers forward here too).
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
/* Each __coz_NAME tests the real function's pointer and one flag (two for
 * a blocking call) and tail-calls the real function: the off path. With
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

#define WAKE(NAME, PARAMS, ARGS)                                               \
  static __attribute__((noinline)) int slow_##NAME PARAMS {                    \
    coz_checkpoint_enter();                                                    \
    return COZ_REAL(NAME) ARGS;                                                \
  }                                                                            \
  COZ_EXPORT int __coz_##NAME PARAMS {                                         \
    __typeof__(coz_real.NAME) real = coz_real.NAME;                            \
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

/* WOKEN is an expression of the result r (and errno) saying the call
 * returned because another thread acted. `ra` is the program's call site
 * (the wall-clock call path's leaf). */
#define BLOCK(NAME, PARAMS, ARGS, WOKEN)                                       \
  static __attribute__((noinline)) int on_##NAME(                              \
      struct coz_thread *t, __typeof__(coz_real.NAME) real,                    \
      COZ_UNPAREN PARAMS) {                                                    \
    coz_checkpoint_hold(t);                                                    \
    int r = real ARGS;                                                         \
    if (WOKEN)                                                                 \
      coz_checkpoint_absorb(t, coz_delay_global());                            \
    coz_checkpoint_release(t);                                                 \
    return r;                                                                  \
  }                                                                            \
  static __attribute__((noinline)) int slow_##NAME(uintptr_t ra,               \
                                                   COZ_UNPAREN PARAMS) {       \
    struct coz_thread *t = coz_checkpoint_enter();                             \
    bool wall = WALL_ON();                                                     \
    if (wall)                                                                  \
      wait_begin(ra);                                                          \
    int r = t ? on_##NAME(t, COZ_REAL(NAME), COZ_UNPAREN ARGS)                 \
              : COZ_REAL(NAME) ARGS;                                           \
    if (wall)                                                                  \
      wait_end(ra);                                                            \
    return r;                                                                  \
  }                                                                            \
  COZ_EXPORT int __coz_##NAME PARAMS {                                         \
    __typeof__(coz_real.NAME) real = coz_real.NAME;                            \
    if (__builtin_expect(real && !WALL_ON(), 1)) {                             \
      if (__builtin_expect(!ACTIVE(), 1))                                      \
        return real ARGS;                                                      \
      struct coz_thread *t = coz_self_tls;                                     \
      if (coz_checkpoint_clear(t))                                             \
        return on_##NAME(t, real, COZ_UNPAREN ARGS);                           \
    }                                                                          \
    return slow_##NAME(CALLER_RA, COZ_UNPAREN ARGS);                           \
  }

BLOCK(pthread_mutex_lock, (pthread_mutex_t * m), (m), r == 0)
BLOCK(pthread_mutex_trylock, (pthread_mutex_t * m), (m), r == 0)
BLOCK(pthread_mutex_timedlock, (pthread_mutex_t * m, const struct timespec *ts),
      (m, ts), r == 0)
BLOCK(pthread_mutex_clocklock,
      (pthread_mutex_t * m, clockid_t clk, const struct timespec *ts),
      (m, clk, ts), r == 0)
WAKE(pthread_mutex_unlock, (pthread_mutex_t * m), (m))
BLOCK(pthread_cond_wait, (pthread_cond_t * c, pthread_mutex_t *m), (c, m),
      r == 0)
BLOCK(pthread_cond_timedwait,
      (pthread_cond_t * c, pthread_mutex_t *m, const struct timespec *ts),
      (c, m, ts), r == 0)
BLOCK(pthread_cond_clockwait,
      (pthread_cond_t * c, pthread_mutex_t *m, clockid_t clk,
       const struct timespec *ts),
      (c, m, clk, ts), r == 0)
WAKE(pthread_cond_signal, (pthread_cond_t * c), (c))
WAKE(pthread_cond_broadcast, (pthread_cond_t * c), (c))
BLOCK(pthread_rwlock_rdlock, (pthread_rwlock_t * l), (l), r == 0)
BLOCK(pthread_rwlock_wrlock, (pthread_rwlock_t * l), (l), r == 0)
BLOCK(pthread_rwlock_tryrdlock, (pthread_rwlock_t * l), (l), r == 0)
BLOCK(pthread_rwlock_trywrlock, (pthread_rwlock_t * l), (l), r == 0)
BLOCK(pthread_rwlock_timedrdlock,
      (pthread_rwlock_t * l, const struct timespec *ts), (l, ts), r == 0)
BLOCK(pthread_rwlock_timedwrlock,
      (pthread_rwlock_t * l, const struct timespec *ts), (l, ts), r == 0)
WAKE(pthread_rwlock_unlock, (pthread_rwlock_t * l), (l))
/* Both tables: the last arrival wakes the others, the others block. */
BLOCK(pthread_barrier_wait, (pthread_barrier_t * b), (b),
      r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD)
BLOCK(pthread_join, (pthread_t th, void **ret), (th, ret), r == 0)
BLOCK(pthread_timedjoin_np,
      (pthread_t th, void **ret, const struct timespec *ts), (th, ret, ts),
      r == 0)
BLOCK(pthread_tryjoin_np, (pthread_t th, void **ret), (th, ret), r == 0)
WAKE(pthread_kill, (pthread_t th, int sig), (th, sig))
BLOCK(sem_wait, (sem_t * s), (s), r == 0)
BLOCK(sem_timedwait, (sem_t * s, const struct timespec *ts), (s, ts), r == 0)
BLOCK(sem_clockwait, (sem_t * s, clockid_t clk, const struct timespec *ts),
      (s, clk, ts), r == 0)
BLOCK(sem_trywait, (sem_t * s), (s), r == 0)
WAKE(sem_post, (sem_t * s), (s))
BLOCK(mtx_lock, (mtx_t * m), (m), r == thrd_success)
BLOCK(mtx_timedlock, (mtx_t * m, const struct timespec *ts), (m, ts),
      r == thrd_success)
BLOCK(mtx_trylock, (mtx_t * m), (m), r == thrd_success)
WAKE(mtx_unlock, (mtx_t * m), (m))
BLOCK(cnd_wait, (cnd_t * c, mtx_t *m), (c, m), r == thrd_success)
BLOCK(cnd_timedwait, (cnd_t * c, mtx_t *m, const struct timespec *ts),
      (c, m, ts), r == thrd_success)
WAKE(cnd_signal, (cnd_t * c), (c))
WAKE(cnd_broadcast, (cnd_t * c), (c))
BLOCK(thrd_join, (thrd_t th, int *res), (th, res), r == thrd_success)
/* A signal another thread sent (pthread_kill executed its delays first). */
BLOCK(sigwait, (const sigset_t *set, int *sig), (set, sig), r == 0)
BLOCK(sigwaitinfo, (const sigset_t *set, siginfo_t *info), (set, info), r > 0)
BLOCK(sigtimedwait,
      (const sigset_t *set, siginfo_t *info, const struct timespec *ts),
      (set, info, ts), r > 0)
BLOCK(sigsuspend, (const sigset_t *set), (set), errno == EINTR)
