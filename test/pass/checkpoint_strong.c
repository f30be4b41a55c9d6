// The runtime's strong __coz_* definitions win over the pass's linkonce
// fallbacks (which are noinline, so -O2 cannot inline them away): every
// lock, its try and unlock in the program reach them, at -O0 and -O2, from the
// executable and from a DSO built with the pass. Without the runtime, the
// same DSO works through its fallbacks.
// RUN: %clang -O2 -c %inputs/strong_rt.c -o %t.rt.o
// RUN: %clang -O0 -fpass-plugin=%plugin %s %t.rt.o -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s %t.rt.o -o %t.O2
// RUN: %t.O2 | FileCheck %s
// RUN: %t.O2 x y | FileCheck %s
//
// RUN: %clang -O2 -fPIC -shared -fpass-plugin=%plugin %inputs/dso_lib.c -o %t.dir.libdso.so
// RUN: %clang -O2 -fpass-plugin=%plugin -DUSE_DSO %s %t.rt.o %t.dir.libdso.so -Wl,--export-dynamic-symbol=__coz_* -Wl,-rpath,$(dirname %t) -o %t.dso
// RUN: %t.dso a | FileCheck --check-prefixes=CHECK,DSO %s
// RUN: %clang -O2 -fpass-plugin=%plugin -DUSE_DSO %s %t.dir.libdso.so -Wl,-rpath,$(dirname %t) -o %t.nort
// RUN: %t.nort a | FileCheck --check-prefix=NORT %s
#include "lcg.h"

#include <pthread.h>
#include <stdio.h>

long dso_add(long v);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long sum;

static void *worker(void *arg) {
  unsigned x = (unsigned)(long)arg;
  for (int i = 0; i < 500; i++) {
    x = lcg(x);
    pthread_mutex_lock(&m);
    sum += x & 7;
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  pthread_t t[3];
  int n = argc; // threads: unknown to the optimizer
  for (long i = 0; i < n; i++)
    pthread_create(&t[i], NULL, worker, (void *)(i + 1));
  for (long i = 0; i < n; i++)
    pthread_join(t[i], NULL);
  long expected = 500L * n;
#ifdef USE_DSO
  for (int i = 0; i < 10 * argc; i++)
    dso_add(i);
  expected += 10L * argc;
  printf("dso total=%ld\n", dso_add(0));
  expected += 1;
#endif
  printf("expect lock=%ld sum=%ld\n", expected, sum);
  return 0;
}
// DSO: dso total=190
// CHECK: expect lock=[[N:[0-9]+]]
// CHECK: checkpoints try=[[N]] lock=[[N]] unlock=[[N]]
// NORT: dso total=190
// NORT: expect lock=
// NORT-NOT: checkpoints
