// The locks the pass tries first (contract/try_first.def) keep their
// results: the same lines built plain, and with coz-cc run with profiling on
// and off, dynamic and -static. Relocking an error-checking mutex, a
// recursive one, a read lock under a write lock, a C11 recursive mutex; and
// a lock held by another thread, which the try reports busy, so the full
// checkpoint blocks and is woken.
// REQUIRES: coz-driver
// RUN: %clang -O2 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: FileCheck --input-file=%t.plain.out %s
// RUN: %coz-cc -O2 %s -o %t.coz
// RUN: env COZ_OUTPUT=%t.on.coz COZ_QUIET=1 %t.coz > %t.on.out
// RUN: diff %t.plain.out %t.on.out
// RUN: env COZ_OFF=1 COZ_QUIET=1 %t.coz > %t.off.out
// RUN: diff %t.plain.out %t.off.out
// RUN: %coz-cc -O2 -static %s -o %t.static
// RUN: env COZ_OUTPUT=%t.static.coz COZ_QUIET=1 %t.static > %t.static.out
// RUN: diff %t.plain.out %t.static.out
// The calls did go through the try (and the full checkpoint when busy).
// RUN: nm %t.coz | FileCheck --check-prefix=NM %s
// NM-DAG: T __coz_try_pthread_mutex_lock
// NM-DAG: T __coz_try_pthread_rwlock_rdlock
// NM-DAG: T __coz_try_pthread_rwlock_wrlock
// NM-DAG: T __coz_try_mtx_lock
// CHECK: errorcheck: 0 EDEADLK 0
// CHECK-NEXT: recursive: 0 0 0 0
// CHECK-NEXT: rwlock: 0 0 0 0 EDEADLK 0 0 EDEADLK 0
// CHECK-NEXT: c11 recursive: ok ok ok ok
// CHECK-NEXT: held by another thread: 0 after the holder let go
// CHECK-NEXT: counted: 200000 200000
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>
#include <time.h>

static const char *err(int r) {
  return r == EDEADLK ? "EDEADLK" : r == EBUSY ? "EBUSY" : r ? "other" : "0";
}

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static sem_t taken;
static volatile int let_go;

static void *holder(void *arg) {
  (void)arg;
  pthread_mutex_lock(&held);
  sem_post(&taken);
  struct timespec ms50 = {0, 50 * 1000 * 1000};
  nanosleep(&ms50, NULL);
  let_go = 1;
  pthread_mutex_unlock(&held);
  return NULL;
}

// One counter a lock: a lost increment is a lock that did not exclude.
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t count_rw = PTHREAD_RWLOCK_INITIALIZER;
static long count_m, count_w;

static void *counter(void *arg) {
  (void)arg;
  for (int i = 0; i < 100000; i++) {
    pthread_mutex_lock(&count_lock);
    count_m++;
    pthread_mutex_unlock(&count_lock);
    pthread_rwlock_wrlock(&count_rw);
    count_w++;
    pthread_rwlock_unlock(&count_rw);
    pthread_rwlock_rdlock(&count_rw);
    pthread_rwlock_unlock(&count_rw);
  }
  return NULL;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutex_t m;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  int r1 = pthread_mutex_lock(&m), r2 = pthread_mutex_lock(&m);
  printf("errorcheck: %s %s %s\n", err(r1), err(r2),
         err(pthread_mutex_unlock(&m)));

  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_t rec;
  pthread_mutex_init(&rec, &a);
  r1 = pthread_mutex_lock(&rec);
  r2 = pthread_mutex_lock(&rec);
  int r3 = pthread_mutex_unlock(&rec), r4 = pthread_mutex_unlock(&rec);
  printf("recursive: %s %s %s %s\n", err(r1), err(r2), err(r3), err(r4));

  pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
  r1 = pthread_rwlock_rdlock(&rw);
  r2 = pthread_rwlock_rdlock(&rw); // a second read lock is granted
  r3 = pthread_rwlock_unlock(&rw);
  r4 = pthread_rwlock_unlock(&rw);
  int w1 = pthread_rwlock_wrlock(&rw), w2 = pthread_rwlock_wrlock(&rw),
      w3 = pthread_rwlock_unlock(&rw);
  int w4 = pthread_rwlock_wrlock(&rw), w5 = pthread_rwlock_rdlock(&rw);
  printf("rwlock: %s %s %s %s %s %s %s %s %s\n", err(r1), err(r2), err(r3),
         err(r4), err(w2), err(w3), err(w1), err(w5), err(w4));
  pthread_rwlock_unlock(&rw);

  mtx_t c11;
  mtx_init(&c11, mtx_plain | mtx_recursive);
  const char *ok[4];
  for (int i = 0; i < 2; i++)
    ok[i] = mtx_lock(&c11) == thrd_success ? "ok" : "failed";
  for (int i = 2; i < 4; i++)
    ok[i] = mtx_unlock(&c11) == thrd_success ? "ok" : "failed";
  printf("c11 recursive: %s %s %s %s\n", ok[0], ok[1], ok[2], ok[3]);

  pthread_t t;
  sem_init(&taken, 0, 0);
  pthread_create(&t, NULL, holder, NULL);
  sem_wait(&taken);
  r1 = pthread_mutex_lock(&held);
  printf("held by another thread: %s %s\n", err(r1),
         let_go ? "after the holder let go" : "while it held it");
  pthread_mutex_unlock(&held);
  pthread_join(t, NULL);

  pthread_t c[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&c[i], NULL, counter, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(c[i], NULL);
  printf("counted: %ld %ld\n", count_m, count_w);
  return 0;
}
