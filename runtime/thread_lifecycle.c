/* thread_lifecycle.c: the CREATE and EXIT checkpoints. Every thread created
 * through pthread_create or thrd_create starts in a trampoline that binds
 * its pre-allocated state and starts its sampler before the user's function
 * runs; exits execute owed delays first (an exit may wake a joiner). */
#include "checkpoints.h"
#include "runtime.h"
#include "thread_state.h"

static void *pthread_trampoline(void *arg) {
  struct coz_thread *t = arg;
  void *(*fn)(void *) = t->start_fn;
  void *fn_arg = t->start_arg;
  coz_thread_begin(t);
  void *ret = fn(fn_arg);
  coz_thread_end();
  return ret;
}

COZ_EXPORT int __coz_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                                    void *(*fn)(void *), void *arg) {
  coz_init(); /* threads created by constructors that ran before ours */
  struct coz_thread *t = coz_thread_reserve();
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
  coz_thread_begin(t);
  int ret = fn(fn_arg);
  coz_thread_end();
  return ret;
}

COZ_EXPORT int __coz_thrd_create(thrd_t *th, thrd_start_t fn, void *arg) {
  coz_init();
  struct coz_thread *t = coz_thread_reserve();
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
  coz_thread_end();
  COZ_REAL(pthread_exit)(ret);
  __builtin_unreachable();
}

COZ_EXPORT void __coz_thrd_exit(int res) {
  coz_thread_end();
  COZ_REAL(thrd_exit)(res);
  __builtin_unreachable();
}
