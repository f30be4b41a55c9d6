/* Producer/consumer through a bounded queue; the producer is the
 * bottleneck. The queue uses one of three primitive sets:
 *   mutex  pthread_mutex + pthread_cond
 *   sem    POSIX semaphores (single producer, single consumer ring)
 *   c11    C11 mtx_t + cnd_t
 *   pc MODE ITEMS                        profiled run
 *   pc MODE ITEMS actual BLOCK           unprofiled: blocks of BLOCK items
 *                                        alternate full producer work and
 *                                        75% of it; prints pair=<full>,<cut>
 * The queue holds 8 items, or PC_QSIZE (1 to QSIZE_MAX). */
#include "spin.h"
#include <coz.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* ~100 us and ~50 us per item: the consumer's wait for each item stays well
 * under the ~200 us that a VM's host polls an idle vCPU before putting it
 * to sleep. Longer waits make each wake-up cost ~30 us more (measured on a
 * KVM guest: put() took 46 us per item at 400/200 us of work, 14 us once
 * the producer's work was cut by a quarter), a cost that depends on the
 * consumer's idle time, so the real effect of cutting the producer's work
 * becomes superlinear in a way no virtual speedup reproduces. */
#define WORK_PRODUCER 100000
#define WORK_CONSUMER 50000
#define QSIZE_MAX 64

enum mode { MUTEX, SEM, C11 };
static enum mode mode;
static long items, block;
static int actual;

static unsigned qsize = 8;
static long queue[QSIZE_MAX];
static unsigned head, tail, count;
static pthread_mutex_t pm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t p_not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t p_not_empty = PTHREAD_COND_INITIALIZER;
static sem_t s_free, s_full;
static mtx_t cm;
static cnd_t c_not_full, c_not_empty;

static void put(long v) {
  switch (mode) {
  case MUTEX:
    pthread_mutex_lock(&pm);
    while (count == qsize)
      pthread_cond_wait(&p_not_full, &pm);
    queue[tail++ % qsize] = v;
    count++;
    pthread_cond_signal(&p_not_empty);
    pthread_mutex_unlock(&pm);
    break;
  case SEM:
    sem_wait(&s_free);
    queue[tail++ % qsize] = v;
    sem_post(&s_full);
    break;
  case C11:
    mtx_lock(&cm);
    while (count == qsize)
      cnd_wait(&c_not_full, &cm);
    queue[tail++ % qsize] = v;
    count++;
    cnd_signal(&c_not_empty);
    mtx_unlock(&cm);
    break;
  }
}

static long get(void) {
  long v = 0;
  switch (mode) {
  case MUTEX:
    pthread_mutex_lock(&pm);
    while (count == 0)
      pthread_cond_wait(&p_not_empty, &pm);
    v = queue[head++ % qsize];
    count--;
    pthread_cond_signal(&p_not_full);
    pthread_mutex_unlock(&pm);
    break;
  case SEM:
    sem_wait(&s_full);
    v = queue[head++ % qsize];
    sem_post(&s_free);
    break;
  case C11:
    mtx_lock(&cm);
    while (count == 0)
      cnd_wait(&c_not_empty, &cm);
    v = queue[head++ % qsize];
    count--;
    cnd_signal(&c_not_full);
    mtx_unlock(&cm);
    break;
  }
  return v;
}

static void *producer(void *arg) {
  (void)arg;
  uint64_t x = 1;
  for (long i = 0; i < items; i++) {
    /* In actual mode, odd blocks get 75% of the producer's work. */
    long work =
        actual && (i / block) % 2 ? WORK_PRODUCER / 4 * 3 : WORK_PRODUCER;
    SPIN(work, x); /* LINE_PRODUCER */
    put(i);
  }
  return NULL;
}

static void *consumer(void *arg) {
  (void)arg;
  uint64_t x = 2;
  double block_start = now_s(), full = 0;
  for (long i = 0; i < items; i++) {
    long v = get();
    SPIN(WORK_CONSUMER, x); /* LINE_CONSUMER */
    COZ_PROGRESS;
    if (actual && (v + 1) % block == 0) {
      double t = now_s();
      if ((v / block) % 2 == 0) {
        full = t - block_start;
      } else {
        printf("pair=%.6f,%.6f\n", full, t - block_start);
      }
      block_start = t;
    }
  }
  return (void *)(uintptr_t)x;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pc mutex|sem|c11 ITEMS [actual BLOCK]\n");
    return 2;
  }
  mode = strcmp(argv[1], "sem") == 0   ? SEM
         : strcmp(argv[1], "c11") == 0 ? C11
                                       : MUTEX;
  items = atol(argv[2]);
  actual = argc > 4 && strcmp(argv[3], "actual") == 0;
  block = actual ? atol(argv[4]) : 1;
  const char *q = getenv("PC_QSIZE");
  if (q) {
    qsize = (unsigned)atoi(q);
    if (qsize < 1 || qsize > QSIZE_MAX) {
      fprintf(stderr, "pc: PC_QSIZE must be 1 to %d\n", QSIZE_MAX);
      return 2;
    }
  }
  sem_init(&s_free, 0, qsize);
  sem_init(&s_full, 0, 0);
  mtx_init(&cm, mtx_plain);
  cnd_init(&c_not_full);
  cnd_init(&c_not_empty);
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
