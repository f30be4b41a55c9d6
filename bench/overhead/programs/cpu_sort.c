/* CPU-bound: qsort of pseudo-random integers (calls through a comparator,
 * memory traffic). */
#define _POSIX_C_SOURCE 200809L
#include <coz.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int main(void) {
  enum { N = 1 << 18 };
  uint32_t *v = malloc(N * sizeof *v);
  if (!v)
    return 1;
  uint64_t rng = 42, check = 0;
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < N; ++i) {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      v[i] = (uint32_t)(rng >> 32);
    }
    qsort(v, N, sizeof *v, cmp);
    check += v[N / 2];
    COZ_PROGRESS;
  }
  printf("median sum %llu\n", (unsigned long long)check);
  free(v);
  return 0;
}
