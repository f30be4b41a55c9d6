// Direct calls to synchronization functions go to the runtime's
// checkpoints, with the call's attributes; the module gets a linkonce,
// noinline fallback that calls the real function.
// RUN: %clang %frontend-ir %s -o - | %opt-coz | FileCheck %s
#include <pthread.h>
#include <semaphore.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
sem_t s;

// CHECK-LABEL: define {{.*}} @locked_add(
int locked_add(int *x) {
  // CHECK: call i32 @__coz_pthread_mutex_lock({{.*}}@m{{.*}}) [[NOUNWIND:#[0-9]+]]
  pthread_mutex_lock(&m);
  ++*x;
  // CHECK: call i32 @__coz_pthread_mutex_unlock({{.*}}@m{{.*}}) [[NOUNWIND]]
  pthread_mutex_unlock(&m);
  // CHECK: call i32 @__coz_sem_post(
  sem_post(&s);
  // CHECK-NOT: call {{.*}} @pthread_mutex_
  return *x;
}
// CHECK: ret i32

// A function with a checkpoint's name defined in this module is not libc's
// (<threads.h> is not included here).
__attribute__((noinline)) static int mtx_lock(int *x) { return *x; }
// CHECK-LABEL: define {{.*}} @own_lock(
// CHECK: call i32 @mtx_lock(
int own_lock(int *x) { return mtx_lock(x); }

// CHECK-LABEL: define linkonce i32 @__coz_pthread_mutex_lock(
// CHECK-SAME: [[FALLBACK:#[0-9]+]] comdat
// CHECK-NEXT: entry:
// CHECK-NEXT: call i32 @pthread_mutex_lock(
// CHECK-NEXT: ret i32
// CHECK-LABEL: define linkonce i32 @__coz_pthread_mutex_unlock(
// CHECK-LABEL: define linkonce i32 @__coz_sem_post(
// CHECK-NOT: define {{.*}} @__coz_mtx_lock
// CHECK: attributes [[FALLBACK]] = { noinline {{.*}}uwtable
