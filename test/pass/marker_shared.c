// Sites sharing a point name share one counter: one global per module, and
// one per program once the linker merges the linkonce_odr copies. The
// total equals the visits the program counts itself, at -O0 and -O2.
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang -O2 -c %inputs/coz_test_rt.c -o %t.rt.o
// RUN: %clang -O0 -fpass-plugin=%plugin %s %inputs/shared_other.c %t.rt.o -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %t.O0 a b c | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s %inputs/shared_other.c %t.rt.o -o %t.O2
// RUN: %t.O2 | FileCheck %s
// RUN: %t.O2 a b c | FileCheck %s
// The two modules' symbols are one: nm lists one definition.
// RUN: nm %t.O2 | grep -c "__coz_ctr.0.shared$" | FileCheck --check-prefix=NM %s
#include "coz.h"
#include "lcg.h"

#include <stdio.h>

int other_sites(int n);

// IR-COUNT-1: @__coz_ctr.0.shared = linkonce_odr
// IR-NOT: @__coz_ctr.0.shared =

static int first(unsigned x) {
  if (x & 1) {
    COZ_PROGRESS_NAMED("shared");
    return 1;
  }
  return 0;
}

static int second(unsigned x) {
  if (x & 2) {
    COZ_PROGRESS_NAMED("shared");
    return 1;
  }
  return 0;
}
// IR-LABEL: define {{.*}} @first(
// IR: atomicrmw add
// IR-LABEL: define {{.*}} @second(
// IR: atomicrmw add

int main(int argc, char **argv) {
  (void)argv;
  unsigned x = (unsigned)argc * 77u;
  int visits = 0;
  for (int i = 0; i < 1000 + argc; i++) {
    x = lcg(x);
    visits += first(x >> 7);
    visits += second(x >> 9);
  }
  visits += other_sites(argc * 5);
  printf("expect shared=%d\n", visits);
  return 0;
}
// CHECK: expect shared=[[N:[0-9]+]]
// CHECK: coz-point kind=0 flags=0 name=shared total=[[N]] site=
// CHECK-NOT: name=shared
// NM: 1
