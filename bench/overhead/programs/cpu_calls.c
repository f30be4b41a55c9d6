/* CPU-bound: many small calls (naive recursive Fibonacci), where the frame
 * pointer coz-cc keeps costs the most. */
#define _POSIX_C_SOURCE 200809L
#include <coz.h>
#include <stdio.h>

__attribute__((noinline)) static long fib(long n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void) {
  long sum = 0;
  for (int i = 0; i < 200; ++i) {
    sum += fib(31 + (i & 1));
    COZ_PROGRESS;
  }
  printf("fib sum %ld\n", sum);
  return 0;
}
