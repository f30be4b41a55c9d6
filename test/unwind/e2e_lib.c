/* e2e_lib.c: the out-of-scope library of the end-to-end test, built with
 * plain clang -O2 -g (no frame pointers: clang's default on x86-64 Linux)
 * and never with the pass, so its code is outside the profiling scope.
 * e2e_leaf is a frameless leaf; e2e_chain reaches its work through two
 * frames that push registers and keep arrays on the stack. */
#include <stdint.h>

#define SPIN(iters, x)                                                         \
  do {                                                                         \
    for (uint64_t i_ = 0; i_ < (iters); i_++) {                                \
      (x) = (x)*6364136223846793005ull + 1442695040888963407ull;               \
      __asm__ volatile("" : "+r"(x));                                          \
    }                                                                          \
  } while (0)

uint64_t e2e_leaf(uint64_t iters, uint64_t x);
uint64_t e2e_chain(uint64_t iters, uint64_t x);

uint64_t e2e_leaf(uint64_t iters, uint64_t x) {
  SPIN(iters, x);
  return x;
}

__attribute__((noinline)) static uint64_t inner(uint64_t iters, uint64_t x) {
  volatile uint64_t pad[12];
  for (int i = 0; i < 12; i++)
    pad[i] = x + (uint64_t)i;
  uint64_t a = x * 3, b = x ^ 0x77, c = x >> 2;
  SPIN(iters, x);
  return x + a + b + c + pad[5];
}

__attribute__((noinline)) static uint64_t middle(uint64_t iters, uint64_t x) {
  volatile uint64_t pad[20];
  for (int i = 0; i < 20; i++)
    pad[i] = x ^ (uint64_t)i;
  uint64_t a = x + 11, b = x * 5, c = x - 3, d = x << 1;
  uint64_t r = inner(iters, a ^ b);
  return r + a + b + c + d + pad[7];
}

uint64_t e2e_chain(uint64_t iters, uint64_t x) {
  uint64_t r = middle(iters, x);
  return r ^ 0x1234;
}
