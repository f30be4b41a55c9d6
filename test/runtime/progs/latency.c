/* Two workers each run items between COZ_BEGIN and COZ_END and measure
 * the items' latency directly; prints latency_ns=<mean>, first_done=<unix
 * ns when the first worker finished> and one line `item <start, unix ns>
 * <latency ns>` per item, so that the test can take the mean over the
 * experiments' windows alone. */
#include "spin.h"
#include <coz.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long items;
static uint64_t *starts[2], *latencies[2], finished[2];

static uint64_t unix_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker(void *arg) {
  int id = (int)(uintptr_t)arg;
  uint64_t x = 3;
  for (long i = 0; i < items; i++) {
    COZ_BEGIN("item");
    starts[id][i] = unix_ns();
    double t0 = now_s();
    SPIN(300000 + (i % 7) * 50000, x); /* LINE_WORK */
    latencies[id][i] = (uint64_t)((now_s() - t0) * 1e9);
    COZ_END("item");
  }
  finished[id] = unix_ns();
  return (void *)(uintptr_t)x;
}

int main(int argc, char **argv) {
  items = argc > 1 ? atol(argv[1]) : 2000;
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    starts[i] = calloc((size_t)items, sizeof *starts[i]);
    latencies[i] = calloc((size_t)items, sizeof *latencies[i]);
    if (!starts[i] || !latencies[i])
      return 1;
  }
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  double total_ns = 0;
  for (int i = 0; i < 2; i++)
    for (long k = 0; k < items; k++)
      total_ns += (double)latencies[i][k];
  printf("latency_ns=%.0f\n", total_ns / (2.0 * items));
  uint64_t first_done = finished[0] < finished[1] ? finished[0] : finished[1];
  printf("first_done=%llu\n", (unsigned long long)first_done);
  for (int i = 0; i < 2; i++)
    for (long k = 0; k < items; k++)
      printf("item %llu %llu\n", (unsigned long long)starts[i][k],
             (unsigned long long)latencies[i][k]);
  return 0;
}
