// An invoke of a checkpoint function stays an invoke with the same unwind
// edge, so exceptions (and cancellation's forced unwinding) still reach the
// cleanup. sem_wait and pthread_cond_wait are cancellation points: glibc
// declares them without noexcept, so clang emits invokes for them.
// RUN: %clangxx %frontend-ir %s -o - | %opt-coz | FileCheck %s
#include "coz.h"
#include <pthread.h>
#include <semaphore.h>

struct Guard {
  ~Guard();
};

// CHECK-LABEL: define {{.*}} @_Z4waitP5sem_t(
void wait(sem_t *s) {
  Guard g;
  // CHECK: invoke i32 @__coz_sem_wait(
  // CHECK-NEXT: to label %{{[0-9a-z.]+}} unwind label %[[LPAD:[0-9a-z.]+]]
  sem_wait(s);
  // CHECK: {{^}}[[LPAD]]:
  // CHECK-NEXT: landingpad
}

// CHECK-LABEL: define {{.*}} @_Z6condwtP14pthread_cond_tP15pthread_mutex_t(
void condwt(pthread_cond_t *c, pthread_mutex_t *m) {
  Guard g;
  // CHECK: invoke i32 @__coz_pthread_cond_wait(
  // CHECK-NEXT: unwind label
  pthread_cond_wait(c, m);
}

// A marker call inside a cleanup scope is an invoke too; the counter bump
// cannot throw, so it becomes straight-line code.
// CHECK-LABEL: define {{.*}} @_Z6markedv(
void marked() {
  Guard g;
  // CHECK-NOT: invoke {{.*}}@__coz_marker
  // CHECK: atomicrmw add
  // CHECK-NOT: invoke {{.*}}@__coz_marker
  COZ_PROGRESS_NAMED("in-scope");
  // CHECK: ret void
}

// The fallback keeps the function's own attributes: no nounwind here, and
// an unwind table so unwinding can pass through it.
// CHECK-LABEL: define linkonce i32 @__coz_sem_wait(
// CHECK-SAME: [[ATTRS:#[0-9]+]] comdat
// CHECK: attributes [[ATTRS]] = {
// CHECK-NOT: nounwind
// CHECK-SAME: uwtable
