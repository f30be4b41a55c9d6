/* thread_create.c: the CREATE checkpoints. A thread created through
 * pthread_create or thrd_create starts in a trampoline that binds the slot
 * its creator reserved before the user's function runs
 * (thread_lifecycle.c), and inherits its creator's owed delays. The
 * runtime's initialisation starts here when another library's constructor
 * creates a thread before ours ran. */
#include "checkpoints.h"
#include "profiler_host.h"
#include "thread_lifecycle.h"

#include <pthread.h>

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
  coz_thread_begin(t);
  void *ret = fn(fn_arg);
  coz_thread_end();
  return ret;
}

COZ_EXPORT int __coz_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                                    void *(*fn)(void *), void *arg) {
  coz_init(); /* threads created by constructors that ran before ours */
  coz_host_before_thread_create();
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
  coz_thread_begin(t);
  int ret = fn(fn_arg);
  coz_thread_end();
  return ret;
}

COZ_EXPORT int __coz_thrd_create(thrd_t *th, thrd_start_t fn, void *arg) {
  coz_init();
  coz_host_before_thread_create();
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
