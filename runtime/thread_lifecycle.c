/* thread_lifecycle.c: a registered thread's start and end, and the EXIT
 * checkpoints. A thread starts with its pre-allocated state bound and its
 * sampler started (the creating side is thread_create.c's); it ends,
 * however it ends, by executing its owed delays first (an exit may wake a
 * joiner) and freeing its slot. */
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

void coz_thread_begin(struct coz_thread *t) {
  coz_thread_bind(t);
  coz_callpath_thread_start(); /* docs/callpath.md */
  pthread_setspecific(exit_key, t);
}

void coz_thread_end(void) {
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
  coz_thread_end();
}

bool coz_threads_init(void) {
  if (pthread_key_create(&exit_key, on_thread_exit) != 0)
    return false;
  struct coz_thread *t = coz_thread_reserve(coz_delay_global());
  if (!t)
    return false;
  coz_thread_begin(t);
  coz_threads_adopt(coz_delay_global()); /* threads of earlier constructors */
  return true;
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
