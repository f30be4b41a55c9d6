/* The paper's Figure 1 as rounds: each round starts threads a and b, a()
 * slightly longer than b(), joins both and reaches a progress point.
 *   fig1 ROUNDS                      profiled run
 *   fig1 ROUNDS actual a|b BLOCK     unprofiled: blocks of BLOCK rounds
 *                                    alternate full work and the chosen
 *                                    function's work halved; prints each
 *                                    block's time as pair=<full>,<halved> */
#include "spin.h"
#include <coz.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK_A 2000000
#define WORK_B 1800000
static int scale_a = 100, scale_b = 100;

static void *a(void *arg) {
  uint64_t x = (uintptr_t)arg;
  SPIN(WORK_A / 100 * scale_a, x); /* LINE_A */
  return (void *)(uintptr_t)x;
}

static void *b(void *arg) {
  uint64_t x = (uintptr_t)arg;
  SPIN(WORK_B / 100 * scale_b, x); /* LINE_B */
  return (void *)(uintptr_t)x;
}

static void round_once(void) {
  pthread_t ta, tb;
  pthread_create(&ta, NULL, a, (void *)1);
  pthread_create(&tb, NULL, b, (void *)2);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  COZ_PROGRESS;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 300;
  if (argc > 4 && strcmp(argv[2], "actual") == 0) {
    int *scale = strcmp(argv[3], "a") == 0 ? &scale_a : &scale_b;
    long block = atol(argv[4]);
    for (long done = 0; done + 2 * block <= rounds; done += 2 * block) {
      double t[2];
      for (int v = 0; v < 2; v++) {
        *scale = v ? 50 : 100;
        double t0 = now_s();
        for (long i = 0; i < block; i++)
          round_once();
        t[v] = now_s() - t0;
      }
      printf("pair=%.6f,%.6f\n", t[0], t[1]);
    }
    return 0;
  }
  for (long i = 0; i < rounds; i++)
    round_once();
  return 0;
}
