/* omitfp.c: two threads spend their time in omitfp_lib.c's loop, which
 * keeps changing data in %rbp. Prints the same built with coz-cc or plain
 * clang. */
#include <coz.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

uint64_t lib_mix(uint64_t n, uint64_t x);

static void *worker(void *arg) {
  uint64_t x = *(uint64_t *)arg;
  for (int r = 0; r < 150; r++) {
    x = lib_mix(1000000, x);
    COZ_PROGRESS;
  }
  *(uint64_t *)arg = x;
  return NULL;
}

int main(void) {
  uint64_t a = 1, b = 2;
  pthread_t ta, tb;
  pthread_create(&ta, NULL, worker, &a);
  pthread_create(&tb, NULL, worker, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  printf("%016llx %016llx\n", (unsigned long long)a, (unsigned long long)b);
  return 0;
}
