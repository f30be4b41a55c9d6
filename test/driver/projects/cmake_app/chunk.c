/* chunk.c: see chunk.h. */
#include "chunk.h"

enum { STEPS = 1000000 };

uint64_t chunk_work(uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < STEPS; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x)); /* keep the loop: register-only work */
  }
  return x;
}
