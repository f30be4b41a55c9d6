/* two_stages.c: the coz-cc demo. Which line should you optimize?
 *
 * Each round, two threads work in parallel and meet at a barrier: `mix`
 * does about 1.0 ms of work, `scramble` about 0.6 ms. One round is one unit
 * of progress. A conventional profiler shows both loops as hot (about 60%
 * and 40% of the CPU time). The causal profile tells the real story:
 * speeding up the `mix` loop speeds the program up (until it is as fast as
 * `scramble`), while speeding up the `scramble` loop does nothing at all.
 *
 *   coz-cc -O2 two_stages.c -o two_stages && ./two_stages && coz-report
 */
#include <coz.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MIX_STEPS = 1000000, SCRAMBLE_STEPS = 600000 };

static pthread_barrier_t round_end;
static int rounds = 6000;
static uint64_t results[2];

/* Register-only work: an LCG step the compiler cannot fold away. */
static uint64_t mix(uint64_t x) {
  for (int i = 0; i < MIX_STEPS; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

static uint64_t scramble(uint64_t x) {
  for (int i = 0; i < SCRAMBLE_STEPS; i++) {
    x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

static void *stage(void *arg) {
  int which = (int)(intptr_t)arg;
  uint64_t x = (uint64_t)which + 1;
  for (int r = 0; r < rounds; r++) {
    x = which == 0 ? mix(x) : scramble(x);
    pthread_barrier_wait(&round_end);
    if (which == 0)
      COZ_PROGRESS_NAMED("round");
  }
  results[which] = x;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1)
    rounds = atoi(argv[1]);
  pthread_barrier_init(&round_end, NULL, 2);
  pthread_t threads[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&threads[i], NULL, stage, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(threads[i], NULL);
  printf("%d rounds, result %016llx\n", rounds,
         (unsigned long long)(results[0] ^ results[1]));
  return 0;
}
