// A module is instrumented once: running the pass again (clang's pipeline,
// then opt -passes=coz-instrument) adds nothing.
// RUN: COZ_PASS_ARGS="--coz-progress=idempotent.c:%(line+10)=again" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o %t.ll
// RUN: COZ_PASS_ARGS="--coz-progress=idempotent.c:%(line+9)=again" %opt-coz %t.ll -o - | FileCheck %s
// The line that opens a function counts each call (its prologue has no
// location of its own), the marker counts too: two increments, one ctor.
// CHECK: @llvm.global_ctors = appending global [1 x
// CHECK-COUNT-2: atomicrmw add
// CHECK-NOT: atomicrmw add
// CHECK: define internal void @__coz_module_ctor
// CHECK-NOT: define internal void @__coz_module_ctor
#include "coz.h"
int twice(int x) {
  COZ_PROGRESS;
  return x + 1;
}
