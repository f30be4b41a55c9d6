/* Two workers each run items between COZ_BEGIN and COZ_END and measure
 * the items' mean latency directly; prints latency_ns=<mean>. */
#include "spin.h"
#include <coz.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long items;
static double total[2];

static void *worker(void *arg) {
  int id = (int)(uintptr_t)arg;
  uint64_t x = 3;
  for (long i = 0; i < items; i++) {
    COZ_BEGIN("item");
    double t0 = now_s();
    SPIN(300000 + (i % 7) * 50000, x); /* LINE_WORK */
    total[id] += now_s() - t0;
    COZ_END("item");
  }
  return (void *)(uintptr_t)x;
}

int main(int argc, char **argv) {
  items = argc > 1 ? atol(argv[1]) : 2000;
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  printf("latency_ns=%.0f\n", (total[0] + total[1]) / (2.0 * items) * 1e9);
  return 0;
}
