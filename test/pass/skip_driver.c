// coz-cc adds its --coz-skip options to a COZ_PASS_ARGS the user set, whether
// that one lists options by blanks or by lines: every name arrives whole.
// REQUIRES: coz-driver
// RUN: COZ_PASS_ARGS="--coz-skip=one --coz-skip=two" %coz-cc -O0 -S -emit-llvm --coz-skip=three %s -o - | FileCheck %s
// RUN: COZ_PASS_ARGS=$'--coz-skip=one\n--coz-skip=two' %coz-cc -O0 -S -emit-llvm --coz-skip=three %s -o - | FileCheck %s
#include <pthread.h>

// CHECK-LABEL: define {{.*}} @one(
// CHECK: call i32 @pthread_mutex_lock(
int one(pthread_mutex_t *m) { return pthread_mutex_lock(m); }
// CHECK-LABEL: define {{.*}} @two(
// CHECK: call i32 @pthread_mutex_lock(
int two(pthread_mutex_t *m) { return pthread_mutex_lock(m); }
// CHECK-LABEL: define {{.*}} @three(
// CHECK: call i32 @pthread_mutex_lock(
int three(pthread_mutex_t *m) { return pthread_mutex_lock(m); }
// CHECK-LABEL: define {{.*}} @four(
// CHECK: call i32 @__coz_pthread_mutex_lock(
int four(pthread_mutex_t *m) { return pthread_mutex_lock(m); }
// CHECK-LABEL: define {{.*}} @__coz_pthread_mutex_lock(
