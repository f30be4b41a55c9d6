/* omitfp_lib.c: a library built with plain clang -O3 -fomit-frame-pointer
 * (outside the profiled scope), whose hot loop uses %rbp as an ordinary
 * register holding data that changes every iteration. */
#include <stdint.h>

uint64_t lib_mix(uint64_t n, uint64_t x) {
  __asm__ volatile("1:\n\t"
                   "imulq %[m], %[x]\n\t"
                   "addq $12345, %[x]\n\t"
                   "movq %[x], %%rbp\n\t"
                   "rorq $7, %%rbp\n\t"
                   "xorq %%rbp, %[x]\n\t"
                   "decq %[n]\n\t"
                   "jnz 1b"
                   : [x] "+r"(x), [n] "+r"(n)
                   : [m] "r"(6364136223846793005ull)
                   : "rbp", "cc");
  return x;
}
