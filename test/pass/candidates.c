// Candidate progress points (llvm-pass/Candidates.h): in a module without a
// progress point of its own, the pass counts the iterations of the
// outermost loops of thread entries, of main and of the functions main
// calls once, and the returns of callbacks handed to a library and of the
// functions those loops' bodies call; each gets a counter of its own flagged 2
// (contract/abi.h COZ_POINT_CANDIDATE) and named by its site.
// RUN: %clang %frontend-ir %s -o %t.ll
// RUN: %opt-coz %t.ll -o %t.out.ll
// RUN: FileCheck --check-prefix=NAME --input-file=%t.out.ll %s
// RUN: FileCheck --check-prefix=IR --input-file=%t.out.ll %s
// Exactly those five, all flagged candidates: nothing on a hot leaf loop,
// a loop of one cheap call, a loop calling a function with a short loop of
// constant bound (nor that function's returns), a function called only in
// an inner loop, a comparator handed to qsort, or a loop on one line.
// RUN: grep -o '__coz_name[.0-9]* = .*candidates.c:[0-9]*' %t.out.ll | %count 5
// RUN: grep -o 'i32 0, i32 2, [^,]*__coz_cand' %t.out.ll | %count 5
// The same at -O0 (optnone functions).
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | grep -o '__coz_name[.0-9]* = .*candidates.c:[0-9]*' | %count 5
// None in a module with a progress point of its own, in a build that asks
// for a point, or with --coz-no-candidates.
// RUN: %clang %frontend-ir -DWITH_MARKER %s -o - | %opt-coz | FileCheck --check-prefix=NONE %s
// RUN: COZ_PASS_ARGS=--coz-progress=candidates.c:%(line+40) %opt-coz %t.ll | FileCheck --check-prefix=NONE %s
// RUN: COZ_PASS_ARGS=--coz-no-candidates %opt-coz %t.ll | FileCheck --check-prefix=NONE %s
// NONE-NOT: __coz_cand
#include <pthread.h>
#include <stdlib.h>
#ifdef WITH_MARKER
#include "coz.h"
void own_point(void) { COZ_PROGRESS; }
#endif

// A library's functions: not defined in this module.
extern void register_handler(int (*fn)(int));
extern int fetch(void);

static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

// A callback handed to a library: its returns.
static int on_event(int fd) {
  int r = fetch() + fd;
  // NAME-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates.c:[[#@LINE+1]]\00"
  return r;
}

// Called in the body of the loops below: its returns.
static int handle(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += fetch();
  // NAME-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates.c:[[#@LINE+1]]\00"
  return s;
}

// Called only in an inner loop: may run per element, none.
static int per_item(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s ^= fetch();
  return s;
}

// A short loop of constant bound: little work per call, none.
static unsigned mix4(unsigned x) {
  for (int i = 0; i < 4; i++)
    x = x * 2654435761u + (unsigned)i;
  return x;
}

static void *worker(void *arg) {
  int acc = (int)(long)arg;
  for (int i = 0; i < 1000; i++) // a hot leaf loop: none
    acc += i * acc;
  for (int i = 0; i < acc; i++) { // an iteration of one cheap call: none
    acc ^= fetch();
  }
  for (int i = 0; i < acc; i++) { // calls a short function: none
    acc += (int)mix4((unsigned)i);
  }
  // NAME-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates.c:[[#@LINE+1]]\00"
  for (int round = 0; round < 100; round++) {
    acc += handle(round);
    for (int k = 0; k < 3; k++)
      acc += per_item(k);
  }
  while (acc > 7) acc = handle(acc); // on one line: none
  return (void *)(long)acc;
}

// main calls it once: its outermost loop.
static int serve(int n) {
  int total = 0;
  // NAME-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates.c:[[#@LINE+1]]\00"
  while (n-- > 0) {
    total += handle(n);
  }
  return total;
}

int main(int argc, char **argv) {
  (void)argv;
  int v[4] = {3, 1, 2, 0};
  qsort(v, 4, sizeof *v, cmp);
  register_handler(on_event);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  int n = 0;
  // NAME-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates.c:[[#@LINE+1]]\00"
  for (int i = 0; i < argc; i++) {
    n += handle(i);
  }
  return serve(n) + v[0];
}

// Candidate counters are apart from the program's own (their own symbol
// prefix), and their increment is the same inline sharded add.
// IR-DAG: @"__coz_cand.0.{{.*}}$2fcandidates.c$3a{{[0-9]+}}" = linkonce_odr hidden global [128 x i64] zeroinitializer
// IR-LABEL: define {{.*}} @worker(
// IR: getelementptr inbounds i8, {{.*}}@"__coz_cand.0.{{.*}}candidates.c$3a{{[0-9]+}}"
// IR: atomicrmw add {{.*}}, i64 1 monotonic
// IR-LABEL: define {{.*}} @serve(
// IR: getelementptr inbounds i8, {{.*}}@"__coz_cand.0.{{.*}}candidates.c$3a{{[0-9]+}}"
// IR: atomicrmw add {{.*}}, i64 1 monotonic
