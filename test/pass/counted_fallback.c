// A library built with coz-cc works in a program built with plain clang,
// without the runtime, linked at start-up or loaded with dlopen: its
// allocation and stdio calls are kept, and its counting calls land in the
// library's own no-op fallbacks (weak, exported definitions).
// REQUIRES: coz-driver
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %coz-cc -O2 -fPIC -shared %inputs/counted_lib.c -o %t.d/libcounted.so
// RUN: nm -D %t.d/libcounted.so | FileCheck --check-prefix=LIB %s
// LIB-DAG: W __coz_count_heap
// LIB-DAG: W __coz_count_write
// LIB-DAG: U malloc
// LIB-DAG: U fprintf
// RUN: %clang -O2 %s %t.d/libcounted.so -Wl,-rpath,%t.d -o %t.linked
// RUN: nm %t.linked | FileCheck --check-prefix=PLAIN %s
// PLAIN: main
// PLAIN-NOT: __coz_
// RUN: %t.linked | FileCheck %s
// RUN: %clang -O2 -DUSE_DLOPEN %s -o %t.dlopen
// RUN: %t.dlopen %t.d/libcounted.so | FileCheck %s
// CHECK: lib heap=2176 written=2176 expected=2176
#include <stdio.h>
#ifdef USE_DLOPEN
#include <dlfcn.h>
#endif

typedef int work_fn(int, FILE *, long *, long *);
int counted_lib_work(int n, FILE *out, long *heap, long *written);

int main(int argc, char **argv) {
  work_fn *work = NULL;
#ifdef USE_DLOPEN
  void *lib = dlopen(argc > 1 ? argv[1] : "", RTLD_NOW);
  if (!lib || !(work = (work_fn *)dlsym(lib, "counted_lib_work"))) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
#else
  (void)argc, (void)argv;
  work = counted_lib_work;
#endif
  FILE *null = fopen("/dev/null", "w");
  long heap = 0, written = 0, expected = 0;
  if (!null || work(16, null, &heap, &written) != 0)
    return 1;
  for (long i = 1; i <= 16; i++) // i * 16 bytes each, written as a line
    expected += i * 16;
  printf("lib heap=%ld written=%ld expected=%ld\n", heap, written, expected);
  return 0;
}
