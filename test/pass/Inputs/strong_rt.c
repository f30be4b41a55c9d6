/* A stand-in for the runtime's checkpoints, for tests only: strong
 * definitions of __coz_pthread_mutex_lock/unlock that count their calls and
 * forward to the real functions, and of the lock's try, which counts and
 * says busy, so every lock also reaches the full checkpoint. They must win
 * over the pass's linkonce fallbacks, in the executable and (exported) for
 * DSOs. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_long tries, locks, unlocks;

int __coz_try_pthread_mutex_lock(pthread_mutex_t *m) {
  (void)m;
  atomic_fetch_add(&tries, 1);
  return EBUSY;
}

int __coz_pthread_mutex_lock(pthread_mutex_t *m) {
  atomic_fetch_add(&locks, 1);
  return pthread_mutex_lock(m);
}

int __coz_pthread_mutex_unlock(pthread_mutex_t *m) {
  atomic_fetch_add(&unlocks, 1);
  return pthread_mutex_unlock(m);
}

__attribute__((destructor)) static void report(void) {
  printf("checkpoints try=%ld lock=%ld unlock=%ld\n", atomic_load(&tries),
         atomic_load(&locks), atomic_load(&unlocks));
}
