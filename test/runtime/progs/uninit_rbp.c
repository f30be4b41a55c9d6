/* uninit_rbp.c: for runtime.valgrind. A hot loop outside the profiled
 * scope (the test scopes this file only; the loop: uninit_rbp.S) whose
 * unwinding ends in a frame-pointer walk from a word the program never
 * wrote, a value valgrind's memcheck calls undefined (as the dynamic
 * loader's saved rbp was when CI failed). The runtime checks such words
 * before any use; memcheck must not report those checks.
 *   uninit_rbp N   N rounds of the loop; prints 1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t spin_saved_rbp(uint64_t n, uint64_t word);

int main(int argc, char **argv) {
  unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
  uint64_t *never_written = malloc(sizeof *never_written);
  if (!never_written)
    return 1;
  uint64_t x = 0;
  for (unsigned long i = 0; i < rounds; i++)
    x += spin_saved_rbp(1000000, *never_written) | 1;
  free(never_written);
  printf("%d\n", x != 0);
  return 0;
}
