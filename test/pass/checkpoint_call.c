// Direct calls to synchronization functions go to the runtime's
// checkpoints, with the call's attributes; the module gets a linkonce,
// noinline fallback that calls the real function. A lock of
// contract/try_first.def is tried first, and reaches its checkpoint only
// when the try says busy (EBUSY is 16).
// RUN: %clang %frontend-ir %s -o - | %opt-coz | FileCheck %s
#include <pthread.h>
#include <semaphore.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
sem_t s;

// CHECK-LABEL: define {{.*}} @locked_add(
int locked_add(int *x) {
  // CHECK: %[[TRY:[0-9a-z.]+]] = call i32 @__coz_try_pthread_mutex_lock({{.*}}@m{{.*}}) [[NOUNWIND:#[0-9]+]]
  // CHECK-NEXT: %[[BUSY:[0-9a-z.]+]] = icmp eq i32 %[[TRY]], 16
  // CHECK-NEXT: br i1 %[[BUSY]], label %[[FULL:[0-9a-z.]+]], label %[[JOIN:[0-9a-z.]+]],{{.*}} !prof
  // CHECK: {{^}}[[FULL]]:
  // CHECK-NEXT: %[[LOCKED:[0-9a-z.]+]] = call i32 @__coz_pthread_mutex_lock({{.*}}@m{{.*}}) [[NOUNWIND]]
  // CHECK-NEXT: br label %[[JOIN]]
  // CHECK: {{^}}[[JOIN]]:
  // CHECK-NEXT: phi i32 [ %[[TRY]], %{{[0-9a-z.]+}} ], [ %[[LOCKED]], %[[FULL]] ]
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
// CHECK-LABEL: define linkonce i32 @__coz_try_pthread_mutex_lock(
// CHECK-NEXT: entry:
// CHECK-NEXT: call i32 @pthread_mutex_trylock(
// CHECK-NEXT: ret i32
// CHECK-NOT: define {{.*}} @__coz_mtx_lock
// CHECK: attributes [[FALLBACK]] = { noinline {{.*}}uwtable
