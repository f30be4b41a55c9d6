/* thread_lifecycle.c: the CREATE and EXIT checkpoints. Every thread created
 * through pthread_create or thrd_create starts in a trampoline that binds
 * its pre-allocated state and starts its sampler before the user's function
 * runs; exits execute owed delays first (an exit may wake a joiner). */
#include "thread_lifecycle.h"
#include "callpath/callpath.h"
#include "checkpoints.h"
#include "delays.h"
#include "runtime.h"
#include "thread_state.h"

#include <pthread.h>

/* Its destructor ends a thread however the thread ends: return,
 * pthread_exit from uninstrumented code, cancellation. */
static pthread_key_t exit_key;

static void thread_begin(struct coz_thread *t) {
  coz_thread_bind(t);
  coz_callpath_thread_start(); /* docs/callpath.md */
  pthread_setspecific(exit_key, t);
}

/* Safe to call twice (the key's destructor after an explicit end). */
static void thread_end(void) {
  struct coz_thread *t = coz_self_tls;
  if (!t)
    return;
  /* A thread cancelled inside a blocking checkpoint unwinds with its state
   * held (coz_checkpoint_hold), and so does one that exits from a
   * signal handler that interrupted the runtime: nothing that held it will
   * resume. */
  t->in_runtime = 0;
  /* Table 1: exiting may wake a joiner, so execute the owed delays first. */
  coz_checkpoint_exit_thread();
  pthread_setspecific(exit_key, NULL);
  if (coz_thread_release(t) == 0)
    coz_profiler_poke(); /* the last one: the profiler thread stops */
}

static void on_thread_exit(void *arg) {
  (void)arg;
  thread_end();
}

bool coz_threads_init(void) {
  if (pthread_key_create(&exit_key, on_thread_exit) != 0)
    return false;
  struct coz_thread *t = coz_thread_reserve(coz_delay_global());
  if (!t)
    return false;
  thread_begin(t);
  coz_threads_adopt(coz_delay_global()); /* threads of earlier constructors */
  return true;
}

/* A slot for a thread the caller is about to create. §3.4: the child
 * inherits the parent's delay count: the delays the parent has not
 * executed yet also delayed the child's creation. */
static struct coz_thread *reserve_child(void) {
  struct coz_thread *parent = coz_thread_self();
  return coz_thread_reserve(parent ? parent->local_delay : coz_delay_global());
}

static void *pthread_trampoline(void *arg) {
  struct coz_thread *t = arg;
  void *(*fn)(void *) = t->start_fn;
  void *fn_arg = t->start_arg;
  thread_begin(t);
  void *ret = fn(fn_arg);
  thread_end();
  return ret;
}

COZ_EXPORT int __coz_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                                    void *(*fn)(void *), void *arg) {
  coz_init(); /* threads created by constructors that ran before ours */
  struct coz_thread *t = reserve_child();
  if (!t)
    return COZ_REAL(pthread_create)(th, attr, fn, arg);
  t->start_fn = fn;
  t->start_arg = arg;
  int r = COZ_REAL(pthread_create)(th, attr, pthread_trampoline, t);
  if (r != 0)
    coz_thread_unreserve(t);
  return r;
}

static int thrd_trampoline(void *arg) {
  struct coz_thread *t = arg;
  int (*fn)(void *) = t->thrd_fn;
  void *fn_arg = t->start_arg;
  thread_begin(t);
  int ret = fn(fn_arg);
  thread_end();
  return ret;
}

COZ_EXPORT int __coz_thrd_create(thrd_t *th, thrd_start_t fn, void *arg) {
  coz_init();
  struct coz_thread *t = reserve_child();
  if (!t)
    return COZ_REAL(thrd_create)(th, fn, arg);
  t->thrd_fn = fn;
  t->start_arg = arg;
  int r = COZ_REAL(thrd_create)(th, thrd_trampoline, t);
  if (r != thrd_success)
    coz_thread_unreserve(t);
  return r;
}

COZ_EXPORT void __coz_pthread_exit(void *ret) {
  thread_end();
  COZ_REAL(pthread_exit)(ret);
  __builtin_unreachable();
}

COZ_EXPORT void __coz_thrd_exit(int res) {
  thread_end();
  COZ_REAL(thrd_exit)(res);
  __builtin_unreachable();
}
