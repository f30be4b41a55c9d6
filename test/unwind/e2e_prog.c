/* e2e_prog.c: built with coz-cc; its work is done by calls into
 * e2e_lib.c, a frameless library outside the scope. The samples taken in
 * the library belong to the call sites (paper 3.4.2), the lines marked
 * LINE:leaf and LINE:chain, not to the caller of do_round (LINE:loop),
 * which is where a frame-pointer walk from a frameless leaf lands. */
#include <coz.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t e2e_leaf(uint64_t iters, uint64_t x);
uint64_t e2e_chain(uint64_t iters, uint64_t x);

/* A macro, so that the whole loop carries the line that expands it. */
#define OWN_WORK(iters, x)                                                     \
  do {                                                                         \
    for (int i_ = 0; i_ < (iters); i_++) {                                     \
      (x) = (x)*3 + 1;                                                         \
      __asm__ volatile("" : "+r"(x));                                          \
    }                                                                          \
  } while (0)

__attribute__((noinline)) static uint64_t do_round(uint64_t x) {
  x = e2e_leaf(400000, x);  /* LINE:leaf */
  x = e2e_chain(400000, x); /* LINE:chain */
  OWN_WORK(40000, x);       /* LINE:own */
  return x;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 1200;
  uint64_t x = 1;
  for (long r = 0; r < rounds; r++) {
    x = do_round(x); /* LINE:loop */
    COZ_PROGRESS;
  }
  printf("%llu\n", (unsigned long long)x);
  return 0;
}
