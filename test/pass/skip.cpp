// --coz-skip takes a C++ function by its mangled name, its demangled name,
// or its demangled name without parameters.
// RUN: COZ_PASS_ARGS="--coz-skip=ns::Queue::pop" %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,POP %s
// RUN: COZ_PASS_ARGS="--coz-skip=ns::Queue::pop(int)" %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,POP %s
// RUN: COZ_PASS_ARGS="--coz-skip=_ZN2ns5Queue4pushEi" %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,PUSH %s
#include <pthread.h>

namespace ns {
struct Queue {
  pthread_mutex_t m;
  int push(int v);
  int pop(int v);
};
int Queue::push(int v) { return pthread_mutex_lock(&m) + v; }
int Queue::pop(int v) { return pthread_mutex_lock(&m) - v; }
} // namespace ns

// CHECK-LABEL: define {{.*}} @_ZN2ns5Queue4pushEi(
// POP: call {{.*}} @__coz_pthread_mutex_lock(
// PUSH: call {{.*}} @pthread_mutex_lock(
// CHECK-LABEL: define {{.*}} @_ZN2ns5Queue3popEi(
// POP: call {{.*}} @pthread_mutex_lock(
// PUSH: call {{.*}} @__coz_pthread_mutex_lock(
