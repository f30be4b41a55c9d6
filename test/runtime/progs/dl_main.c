/* Loads rt_cc_dl_lib.so (path in argv[1]) and runs its work for argv[2] ms. */
#include "spin.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: dl_main LIB MS\n");
    return 2;
  }
  uint64_t x = 1;
  double end0 = now_s() + 0.2;
  while (now_s() < end0) {
    SPIN(100000, x); /* LINE_MAIN */
  }
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  uint64_t (*work)(uint64_t) = (uint64_t(*)(uint64_t))dlsym(h, "dl_work");
  double end = now_s() + atof(argv[2]) / 1000;
  while (now_s() < end)
    x = work(x);
  printf("x=%d\n", (int)(x & 1));
  return 0;
}
