/* Heap bytes counted in a shared library built with coz-cc: every round
 * the executable allocates n bytes in exe_allocate and the library 3n in
 * lib_allocate, so the profile splits 0.25 / 0.75 only if the library's
 * counting calls reach the executable's runtime rather than the
 * library's no-op fallbacks. */
#include <stdlib.h>

void lib_allocate(int n);
void *volatile exe_sink;

__attribute__((noinline)) void exe_allocate(int n) {
  exe_sink = malloc((size_t)n);
  free(exe_sink);
  __asm__ volatile("");
}

int main(void) {
  for (int round = 0; round < 4000; round++) {
    exe_allocate(1000);
    lib_allocate(1000);
  }
  return 0;
}
