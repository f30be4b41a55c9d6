// Functions annotated coz_skip, named by --coz-skip, or named __coz_* are
// left alone: no checkpoint, marker calls stay runtime calls, no line
// points, and their files are not recorded.
// RUN: echo "--coz-skip=by_option" > %t.args
// RUN: echo "--coz-progress=skip.c:%(line+15)=p" >> %t.args
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
// Blank-separated options work too.
// RUN: COZ_PASS_ARGS="--coz-skip=by_option --coz-progress=skip.c:%(line+12)=p" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
#include "coz.h"
#include <pthread.h>

#define SKIP __attribute__((annotate("coz_skip")))

// CHECK-LABEL: define {{.*}} @annotated(
// CHECK-NOT: @__coz_ctr
// CHECK: call i32 @pthread_mutex_lock(
// CHECK: call void @__coz_marker(
SKIP void annotated(pthread_mutex_t *m) { pthread_mutex_lock(m); COZ_PROGRESS; }
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @by_option(
// CHECK-NOT: @__coz_ctr
// CHECK: call i32 @pthread_mutex_lock(
// CHECK: call void @__coz_marker(
void by_option(pthread_mutex_t *m) { pthread_mutex_lock(m); COZ_PROGRESS; }
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @__coz_mine(
// CHECK-NOT: @__coz_ctr
// CHECK: call i32 @pthread_mutex_lock(
void __coz_mine(pthread_mutex_t *m) { pthread_mutex_lock(m); }
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @kept(
// CHECK: call i32 @__coz_pthread_mutex_lock(
void kept(pthread_mutex_t *m) { pthread_mutex_lock(m); }

// Naked functions hold only inline assembly: a line point on one is not
// inserted (there is no frame to run it in).
// RUN: COZ_PASS_ARGS="--coz-progress=skip.c:%(line+3)=naked" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefix=NAKED %s
// NAKED-NOT: __coz_ctr.0.naked
__attribute__((naked)) void bare(void) {
  __asm__("ret");
}
