// clang -O0 marks every function optnone; the pass is required, so it
// instruments them anyway (pipeline-start registration, no opt needed).
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin -DEXPLICIT %s -o - | FileCheck %s
#include "coz.h"
#include <pthread.h>

#ifdef EXPLICIT
__attribute__((optnone, noinline))
#endif
// CHECK-LABEL: define {{.*}} @slow(
// CHECK-SAME: [[ATTRS:#[0-9]+]]
// CHECK: call i32 @__coz_pthread_mutex_lock(
// CHECK: atomicrmw add
// CHECK: call i32 @__coz_pthread_mutex_unlock(
void slow(pthread_mutex_t *m) {
  pthread_mutex_lock(m);
  COZ_PROGRESS;
  pthread_mutex_unlock(m);
}
// CHECK: attributes [[ATTRS]] = {{{.*}}optnone
