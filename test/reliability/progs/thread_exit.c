/* thread_exit.c: thousands of short threads, each running a millisecond
 * or two of work and ending (half by returning, half by pthread_exit from
 * deep in a call chain), several alive at once, while they are sampled:
 * samples land as threads end and their slots are reused. Prints the same
 * built with coz-cc or plain clang. */
#include <coz.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

enum { BATCHES = 80, PER_BATCH = 8 };

__attribute__((noinline)) static uint64_t spin(uint64_t x, int n) {
  for (int i = 0; i < n; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

__attribute__((noinline)) static void deep_exit(uint64_t *slot, int depth) {
  *slot = spin(*slot, 100000);
  if (depth == 0)
    pthread_exit(NULL);
  deep_exit(slot, depth - 1);
  __asm__ volatile("" ::: "memory");
}

static void *worker(void *arg) {
  uint64_t *slot = arg;
  *slot = spin(*slot, 1000000);
  COZ_PROGRESS;
  if (*slot & 1)
    deep_exit(slot, 5);
  return NULL;
}

int main(void) {
  uint64_t sum = 0;
  for (int b = 0; b < BATCHES; b++) {
    pthread_t t[PER_BATCH];
    uint64_t v[PER_BATCH];
    for (int i = 0; i < PER_BATCH; i++) {
      v[i] = (uint64_t)(b * PER_BATCH + i);
      pthread_create(&t[i], NULL, worker, &v[i]);
    }
    for (int i = 0; i < PER_BATCH; i++) {
      pthread_join(t[i], NULL);
      sum = sum * 31 + v[i];
    }
  }
  printf("%016llx\n", (unsigned long long)sum);
  return 0;
}
