/* Case 7: producer/consumer over a ring guarded by POSIX semaphores. The
 * producer is the bottleneck: cutting it speeds the program up by about the
 * cut; cutting the consumer gains nothing. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>
#include <semaphore.h>

#define RING 8

static sem_t slots, filled;
static uint64_t ring[RING];
static uint64_t n_produce, n_consume;
static long items;

static void *producer(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  for (long i = 0; i < items; ++i) {
    BENCH_WORK(n_produce, x); /* REGION:produce */
    sem_wait(&slots);
    ring[i % RING] = x;
    sem_post(&filled);
  }
  return NULL;
}

static void *consumer(void *arg) {
  uint64_t y = (uint64_t)(uintptr_t)arg;
  for (long i = 0; i < items; ++i) {
    sem_wait(&filled);
    y ^= ring[i % RING];
    sem_post(&slots);
    BENCH_WORK(n_consume, y); /* REGION:consume */
    COZ_PROGRESS;
  }
  BENCH_USE(y);
  return NULL;
}

int main(void) {
  n_produce = bench_iters("produce", 1000);
  n_consume = bench_iters("consume", 500);
  items = bench_rounds(1000);
  sem_init(&slots, 0, RING);
  sem_init(&filled, 0, 0);
  uint64_t start = bench_now_ns();
  pthread_t p, c;
  pthread_create(&p, NULL, producer, (void *)(uintptr_t)1);
  pthread_create(&c, NULL, consumer, (void *)(uintptr_t)2);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  bench_report(start, 0.0);
  return 0;
}
