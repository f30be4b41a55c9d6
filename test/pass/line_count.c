// --coz-progress/begin/end=FILE:LINE count once per execution of the line.
// The program counts the same executions itself and prints them; the test
// runtime prints the counters' totals at exit; FileCheck wants them equal,
// at -O0 and -O2. Lines are picked by their `coz-point:` comments.
//
// RUN: python3 %inputs/points.py %s > %t.args
// RUN: %clang -O2 -c %inputs/coz_test_rt.c -o %t.rt.o
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O0 -fpass-plugin=%plugin %s %t.rt.o -o %t.O0 2> %t.O0.err
// RUN: %count 0 < %t.O0.err
// RUN: %t.O0 | FileCheck %s
// RUN: %t.O0 7 | FileCheck %s
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O2 -fpass-plugin=%plugin %s %t.rt.o -o %t.O2 2> %t.O2.err
// RUN: %count 0 < %t.O2.err
// RUN: %t.O2 | FileCheck %s
// RUN: %t.O2 7 | FileCheck %s
//
// The rewritten IR passes the verifier (opt verifies its output; clang
// release builds do not), from -O0 and -O2 front-end IR.
// RUN: %clang %frontend-ir %s -o %t.O2.ll && %clang -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %opt-coz %t.O2.ll -o /dev/null
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %opt-coz %t.O0.ll -o /dev/null
// In the IR, the loop body's counter is bumped in the loop body block.
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O0 -S -emit-llvm -fno-discard-value-names -fpass-plugin=%plugin %s -o - | FileCheck --check-prefix=IR %s
#include "lcg.h"

#include <stdio.h>
#include <stdlib.h>

static int f(int v) { return v + 1; }
static int g(int v) { return v - 1; }

static int n_body, n_header, n_split, n_calls, n_oneline, n_dowhile, n_rec,
    n_if, n_switch, n_goto, n_multi, n_begin, n_end, n_ifelse, n_cont, n_and,
    n_entry;

static int depth_sum(int d) { // coz-point: progress entry
  n_entry++;
  if (d == 0)
    return 0;
  return d + depth_sum(d - 1); // coz-point: progress rec
}

static unsigned round_of_work(unsigned x, int n) {
  n_header += n + 1; // the header runs once on entry and after each pass
  for (int i = 0; i < n; i++) { // coz-point: progress header
    x = lcg(x); n_body++; // coz-point: progress body
  }
  x += (x & 1) ? (unsigned)f((int)x) : (unsigned)g((int)x); n_split++; // coz-point: progress split
  x = lcg(x) + lcg(x + 1); n_calls++; // coz-point: progress calls
  while (x % 3 != 0) x = lcg(x); n_oneline++; // coz-point: progress oneline
  do {
    x = lcg(x);
    n_dowhile++;
  } while (x % 5 != 0); // coz-point: progress dowhile
  n_if++;
  if ((x & 3) == 0 || (x & 12) == 4) x ^= 0x55u; // coz-point: progress if
  n_switch++;
  switch (x % 4) { case 0: x += 3; break; case 1: x ^= 9; break; default: x = lcg(x); } // coz-point: progress switch
  n_goto++;
again: x = lcg(x); if (x % 2) goto again; // coz-point: progress goto
  n_multi++;
  x = lcg(x + // coz-point: progress multi
          (unsigned)f((int)lcg(x)));
  if (x & 1) x = lcg(x); else x ^= 3u; n_ifelse++; // coz-point: progress ifelse
  for (int k = 0; k < (int)(x % 5); k++) {
    n_cont++; if (k == 1) continue; x += 2; // coz-point: progress cont
  }
  n_and++;
  while (x % 7 != 0 && (x & 8) == 0) { // coz-point: progress and
    n_and++;
    x = lcg(x);
  }
  n_rec += (int)(x % 6);
  x += (unsigned)depth_sum((int)(x % 6));
  return x;
}

static void request(unsigned x) {
  n_begin++; // coz-point: begin req
  if (x % 7 == 0)
    return;
  n_end++; // coz-point: end req
}

int main(int argc, char **argv) {
  unsigned x = (unsigned)argc + (argc > 1 ? (unsigned)atoi(argv[1]) : 4u);
  int rounds = 3 + (int)(lcg(x) % 5);
  for (int r = 0; r < rounds; r++) {
    x = round_of_work(x, 2 + (int)(lcg(x + (unsigned)r) % 9));
    request(x);
  }
  printf("x=%u\n", x);
  printf("expect body=%d header=%d split=%d calls=%d oneline=%d dowhile=%d "
         "rec=%d if=%d switch=%d goto=%d multi=%d begin=%d end=%d\n",
         n_body, n_header, n_split, n_calls, n_oneline, n_dowhile, n_rec,
         n_if, n_switch, n_goto, n_multi, n_begin, n_end);
  printf("expect ifelse=%d cont=%d and=%d entry=%d\n", n_ifelse, n_cont, n_and,
         n_entry);
  return 0;
}

// CHECK: expect body=[[BODY:[0-9]+]] header=[[HEADER:[0-9]+]] split=[[SPLIT:[0-9]+]] calls=[[CALLS:[0-9]+]] oneline=[[ONELINE:[0-9]+]] dowhile=[[DOWHILE:[0-9]+]] rec=[[REC:[0-9]+]] if=[[IF:[0-9]+]] switch=[[SWITCH:[0-9]+]] goto=[[GOTO:[0-9]+]] multi=[[MULTI:[0-9]+]] begin=[[BEGIN:[0-9]+]] end=[[END:[0-9]+]]
// CHECK: expect ifelse=[[IFELSE:[0-9]+]] cont=[[CONT:[0-9]+]] and=[[AND:[0-9]+]] entry=[[ENTRY:[0-9]+]]
// CHECK: coz-module abi=3 points=17 files={{[23]}}
// CHECK-DAG: coz-file {{/.*}}/Inputs/lcg.h
// CHECK-DAG: coz-file {{/.*}}/line_count.c
// CHECK-DAG: coz-point kind=0 flags=1 name=body total=[[BODY]] site={{/.*}}line_count.c:{{[0-9]+}}
// CHECK-DAG: coz-point kind=0 flags=1 name=header total=[[HEADER]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=split total=[[SPLIT]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=calls total=[[CALLS]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=oneline total=[[ONELINE]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=dowhile total=[[DOWHILE]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=rec total=[[REC]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=if total=[[IF]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=switch total=[[SWITCH]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=goto total=[[GOTO]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=multi total=[[MULTI]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=ifelse total=[[IFELSE]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=cont total=[[CONT]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=and total=[[AND]] site=
// CHECK-DAG: coz-point kind=0 flags=1 name=entry total=[[ENTRY]] site=
// CHECK-DAG: coz-point kind=1 flags=1 name=req total=[[BEGIN]] site=
// CHECK-DAG: coz-point kind=2 flags=1 name=req total=[[END]] site=

// IR-LABEL: define {{.*}} @round_of_work(
// IR: {{^}}for.body:
// IR-NOT: {{^[a-z.0-9]+:}}
// IR: getelementptr inbounds i8, {{.*}}@__coz_ctr.0.body
// IR-NOT: {{^[a-z.0-9]+:}}
// IR: atomicrmw add {{.*}}, i64 1 monotonic
