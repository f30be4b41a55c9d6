/* Case 5: latency. A client keeps MAX_IN_FLIGHT requests outstanding; a pool
 * of two workers serves them. COZ_BEGIN marks a request's submission and
 * COZ_END its completion; the program measures the mean latency itself.
 * Cutting the handler shortens both the service and the queueing time. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>

#define MAX_IN_FLIGHT 4
#define WORKERS 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t has_request = PTHREAD_COND_INITIALIZER;
static pthread_cond_t has_room = PTHREAD_COND_INITIALIZER;
static uint64_t submitted_at[MAX_IN_FLIGHT];
static unsigned head, queued, in_flight;
static int closing;
static uint64_t n_handle;
static uint64_t latency_sum_ns;
static long completed;

static void *worker(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (queued == 0 && !closing)
      pthread_cond_wait(&has_request, &lock);
    if (queued == 0) {
      pthread_mutex_unlock(&lock);
      break;
    }
    uint64_t t0 = submitted_at[head];
    head = (head + 1) % MAX_IN_FLIGHT;
    queued--;
    pthread_mutex_unlock(&lock);

    BENCH_WORK(n_handle, x); /* REGION:handle */
    COZ_END("request");
    uint64_t t1 = bench_now_ns();

    pthread_mutex_lock(&lock);
    latency_sum_ns += t1 - t0;
    completed++;
    in_flight--;
    pthread_cond_signal(&has_room);
    pthread_mutex_unlock(&lock);
  }
  BENCH_USE(x);
  return NULL;
}

int main(void) {
  n_handle = bench_iters("handle", 1000);
  long requests = bench_rounds(2000);
  uint64_t start = bench_now_ns();
  pthread_t pool[WORKERS];
  for (int i = 0; i < WORKERS; ++i)
    pthread_create(&pool[i], NULL, worker, (void *)(uintptr_t)(i + 1));
  for (long r = 0; r < requests; ++r) {
    pthread_mutex_lock(&lock);
    while (in_flight == MAX_IN_FLIGHT)
      pthread_cond_wait(&has_room, &lock);
    COZ_BEGIN("request");
    submitted_at[(head + queued) % MAX_IN_FLIGHT] = bench_now_ns();
    queued++;
    in_flight++;
    pthread_cond_signal(&has_request);
    pthread_mutex_unlock(&lock);
  }
  pthread_mutex_lock(&lock);
  closing = 1;
  pthread_cond_broadcast(&has_request);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < WORKERS; ++i)
    pthread_join(pool[i], NULL);
  bench_report(start, (double)latency_sum_ns / (double)completed);
  return 0;
}
