/* pipeline3.c: a three-stage pipeline joined by bounded queues (mutex +
 * condition variables) whose bottleneck stage s2 does its work on three
 * lines, 60%, 25% and 15% of it (600 + 250 + 150 per item, against 150 for
 * s1 and s3). Cutting s2a by s speeds the program up by about 0.6 s, s2b by
 * 0.25 s, s2c by 0.15 s (s2 stays the bottleneck: at least 400 > 150);
 * s1 and s3 have slack and gain nothing. The true ranking of the top 3 is
 * s2a, s2b, s2c (the convergence benchmark's three-line case). */
#include "../../accuracy/bench_common.h"
#include <coz.h>
#include <pthread.h>

#define QUEUE_CAP 4
#define END_OF_STREAM UINT64_MAX

struct queue {
  pthread_mutex_t lock;
  pthread_cond_t not_empty, not_full;
  uint64_t items[QUEUE_CAP];
  unsigned head, count;
};

static void queue_init(struct queue *q) {
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->not_empty, NULL);
  pthread_cond_init(&q->not_full, NULL);
  q->head = q->count = 0;
}

static void queue_push(struct queue *q, uint64_t item) {
  pthread_mutex_lock(&q->lock);
  while (q->count == QUEUE_CAP)
    pthread_cond_wait(&q->not_full, &q->lock);
  q->items[(q->head + q->count++) % QUEUE_CAP] = item;
  pthread_cond_signal(&q->not_empty);
  pthread_mutex_unlock(&q->lock);
}

static uint64_t queue_pop(struct queue *q) {
  pthread_mutex_lock(&q->lock);
  while (q->count == 0)
    pthread_cond_wait(&q->not_empty, &q->lock);
  uint64_t item = q->items[q->head];
  q->head = (q->head + 1) % QUEUE_CAP;
  q->count--;
  pthread_cond_signal(&q->not_full);
  pthread_mutex_unlock(&q->lock);
  return item;
}

static struct queue q12, q23;
static uint64_t n1, n2a, n2b, n2c, n3;
static long items;

static void *stage1(void *arg) {
  (void)arg;
  for (long i = 0; i < items; ++i) {
    uint64_t x = (uint64_t)i;
    BENCH_WORK(n1, x); /* REGION:s1 */
    queue_push(&q12, x & 0xffff);
  }
  queue_push(&q12, END_OF_STREAM);
  return NULL;
}

static void *stage2(void *arg) {
  (void)arg;
  for (;;) {
    uint64_t x = queue_pop(&q12);
    if (x == END_OF_STREAM)
      break;
    BENCH_WORK(n2a, x); /* REGION:s2a */
    BENCH_WORK(n2b, x); /* REGION:s2b */
    BENCH_WORK(n2c, x); /* REGION:s2c */
    queue_push(&q23, x & 0xffff);
  }
  queue_push(&q23, END_OF_STREAM);
  return NULL;
}

static void *stage3(void *arg) {
  (void)arg;
  for (;;) {
    uint64_t x = queue_pop(&q23);
    if (x == END_OF_STREAM)
      break;
    BENCH_WORK(n3, x); /* REGION:s3 */
    BENCH_USE(x);
    COZ_PROGRESS;
  }
  return NULL;
}

int main(void) {
  n1 = bench_iters("s1", 150);
  n2a = bench_iters("s2a", 600);
  n2b = bench_iters("s2b", 250);
  n2c = bench_iters("s2c", 150);
  n3 = bench_iters("s3", 150);
  items = bench_rounds(1000);
  queue_init(&q12);
  queue_init(&q23);
  uint64_t start = bench_now_ns();
  pthread_t t1, t2, t3;
  pthread_create(&t1, NULL, stage1, NULL);
  pthread_create(&t2, NULL, stage2, NULL);
  pthread_create(&t3, NULL, stage3, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  pthread_join(t3, NULL);
  bench_report(start, 0.0);
  return 0;
}
