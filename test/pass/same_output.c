// A threaded C program prints the same thing built with and without the
// pass, at -O0 and -O2, with line points added, and without any runtime
// linked in: the checkpoints fall back to the real functions and the
// markers count into counters nobody reads.
// RUN: python3 %inputs/points.py %s > %t.args
// RUN: %clang -O0 %s -o %t.plain0 && %t.plain0 > %t.plain0.out
// RUN: %clang -O2 %s -o %t.plain2 && %t.plain2 > %t.plain2.out
// RUN: %clang -O0 -fpass-plugin=%plugin %s -o %t.pass0 && %t.pass0 > %t.pass0.out
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O2 -fpass-plugin=%plugin %s -o %t.pass2 && %t.pass2 > %t.pass2.out
// RUN: diff %t.plain0.out %t.plain2.out
// RUN: diff %t.plain0.out %t.pass0.out
// RUN: diff %t.plain0.out %t.pass2.out
// RUN: FileCheck --input-file=%t.pass2.out %s
// The pass did its work: checkpoints and no __coz_marker calls left.
// RUN: nm %t.pass2 | FileCheck --check-prefix=NM %s
// NM-DAG: W __coz_pthread_mutex_lock
// NM-DAG: W __coz_sem_wait
// NM-DAG: W __coz_mtx_lock
// NM-DAG: w __coz_register_module
// CHECK: produced=4000 consumed=4000 checksum=[[SUM:[0-9]+]]
// CHECK: rw readers=4 value=400
// CHECK: c11 total=3000
// CHECK: exited thread says 42
#include "coz.h"
#include "lcg.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <threads.h>

#define ITEMS 4000
#define SLOTS 16

static int ring[SLOTS];
static int head, tail;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static sem_t free_slots;
static unsigned long checksum;
static int consumed;

static void *producer(void *arg) {
  unsigned x = (unsigned)(long)arg;
  for (int i = 0; i < ITEMS / 2; i++) {
    x = lcg(x);
    sem_wait(&free_slots);
    pthread_mutex_lock(&lock);
    ring[head++ % SLOTS] = (int)(x % 1000); // coz-point: progress produced
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
    COZ_PROGRESS_NAMED("produced");
  }
  return NULL;
}

static void *consumer(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (tail == head && consumed < ITEMS)
      pthread_cond_wait(&not_empty, &lock);
    if (consumed == ITEMS) {
      pthread_cond_broadcast(&not_empty);
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    COZ_BEGIN("item");
    checksum += (unsigned long)ring[tail++ % SLOTS];
    consumed++; // coz-point: progress consumed
    COZ_END("item");
    if (consumed == ITEMS)
      pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&lock);
    sem_post(&free_slots);
  }
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t barrier;
static int shared_value;

static void *rw_user(void *arg) {
  long id = (long)arg;
  pthread_barrier_wait(&barrier);
  for (int i = 0; i < 100; i++) {
    pthread_rwlock_wrlock(&rw);
    shared_value++;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_rdlock(&rw);
    (void)shared_value;
    pthread_rwlock_unlock(&rw);
  }
  return (void *)id;
}

static mtx_t c11_lock;
static int c11_total;

static int c11_worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 1000; i++) {
    mtx_lock(&c11_lock);
    c11_total++;
    mtx_unlock(&c11_lock);
  }
  return 0;
}

static void *exiting(void *arg) {
  (void)arg;
  pthread_exit((void *)42L);
}

int main(void) {
  sem_init(&free_slots, 0, SLOTS);
  pthread_t p[2], c[3];
  for (long i = 0; i < 2; i++)
    pthread_create(&p[i], NULL, producer, (void *)(i + 1));
  for (long i = 0; i < 3; i++)
    pthread_create(&c[i], NULL, consumer, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(p[i], NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(c[i], NULL);
  printf("produced=%d consumed=%d checksum=%lu\n", head, consumed, checksum);

  pthread_barrier_init(&barrier, NULL, 4);
  pthread_t r[4];
  for (long i = 0; i < 4; i++)
    pthread_create(&r[i], NULL, rw_user, (void *)i);
  long ids = 0;
  for (int i = 0; i < 4; i++) {
    void *ret;
    pthread_join(r[i], &ret);
    ids += (long)ret;
  }
  printf("rw readers=%ld value=%d\n", ids - 2, shared_value);

  mtx_init(&c11_lock, mtx_plain);
  thrd_t t[3];
  for (int i = 0; i < 3; i++)
    thrd_create(&t[i], c11_worker, NULL);
  for (int i = 0; i < 3; i++)
    thrd_join(t[i], NULL);
  printf("c11 total=%d\n", c11_total);

  pthread_t e;
  void *said;
  pthread_create(&e, NULL, exiting, NULL);
  pthread_join(e, &said);
  printf("exited thread says %ld\n", (long)said);
  return 0;
}
