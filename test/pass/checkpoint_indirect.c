// Calls through a function pointer are left alone (the runtime interposes
// them); taking the address of a checkpoint function is not a call.
// RUN: %clang %frontend-ir -O0 %s -o - | %opt-coz | FileCheck %s
#include <pthread.h>

int (*lock_fn)(pthread_mutex_t *) = pthread_mutex_lock;

// CHECK-LABEL: define {{.*}} @via_pointer(
int via_pointer(pthread_mutex_t *m, int (*unlock)(pthread_mutex_t *)) {
  // CHECK: [[FN:%[0-9a-z.]+]] = load {{.*}} @lock_fn
  // CHECK: call i32 [[FN]](
  lock_fn(m);
  // CHECK: call i32 %{{[0-9a-z.]+}}(
  // CHECK-NOT: @__coz_pthread
  return unlock(m);
}
// CHECK-LABEL: define internal void @__coz_module_ctor(
// CHECK-NOT: define {{.*}}@__coz_pthread
