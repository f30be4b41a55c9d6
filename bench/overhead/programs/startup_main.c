/* main() for the synthetic large program of bench/startup/gen_program.py:
 * calls every generated function once, so the run itself is short and what
 * is measured is mostly process start-up and exit (with coz-cc: the
 * runtime's set-up, its line map over ~250k lines, and the profile write). */
#include <coz.h>
#include <stdio.h>

typedef long (*fn)(long, long);
extern fn bench_functions[];
extern unsigned long bench_n_functions;

int main(void) {
  long acc = 0;
  for (unsigned long i = 0; i < bench_n_functions; ++i) {
    acc += bench_functions[i]((long)i, acc & 1023);
    COZ_PROGRESS;
  }
  printf("checksum %ld\n", acc);
  return 0;
}
