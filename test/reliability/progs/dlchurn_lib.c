/* dlchurn_lib.c: a library that dlchurn.c loads and unloads over and over
 * while its code is sampled; built with plain clang (out of scope). */
#include <stdint.h>

uint64_t churn_work(uint64_t x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}
