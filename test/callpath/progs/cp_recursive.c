/* A recursive function with known CPU use per call path: every level of
 * rec() does the same work W, then recurses. walk_a runs rec(12) (12 W),
 * walk_b runs rec(4) (4 W). So, by construction:
 *   function rec 1.0 of the pair, walk_a 0.75, walk_b 0.25;
 *   samples with two or more rec frames: (11 + 3) / 16 = 0.875. */
#include <stdint.h>

enum { WORK = 4000000 };

__attribute__((noinline)) static uint64_t work(uint64_t x) {
  for (int i = 0; i < WORK; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

__attribute__((noinline)) uint64_t rec(int n, uint64_t x) {
  x = work(x);
  if (n > 1)
    x = rec(n - 1, x) ^ 1; /* used after the call: no tail call */
  __asm__ volatile("" : "+r"(x));
  return x;
}

/* The asm after each call keeps it out of tail position (a tail call would
 * replace walk_a's frame with rec's). */
__attribute__((noinline)) uint64_t walk_a(uint64_t x) {
  x = rec(12, x);
  __asm__ volatile("" : "+r"(x));
  return x;
}
__attribute__((noinline)) uint64_t walk_b(uint64_t x) {
  x = rec(4, x);
  __asm__ volatile("" : "+r"(x));
  return x;
}

int main(void) {
  uint64_t x = 1;
  for (int r = 0; r < 6; r++) {
    x = walk_a(x);
    x = walk_b(x);
  }
  return (int)(x & 1) * 0;
}
