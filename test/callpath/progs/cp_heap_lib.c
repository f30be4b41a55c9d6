/* The library half of the heap DSO test (cp_heap_dso.c): built with coz-cc
 * as a shared library, its allocations reach the executable's runtime. */
#include <stdlib.h>

void *volatile lib_sink;

__attribute__((noinline)) void lib_allocate(int n) {
  for (int i = 0; i < 3; i++) { /* 3n bytes: the executable's part is n */
    lib_sink = malloc((size_t)n);
    free(lib_sink);
  }
  __asm__ volatile("");
}
