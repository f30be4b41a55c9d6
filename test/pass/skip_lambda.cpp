// --coz-skip takes a lambda by the name coz-report prints for it (libstdc++'s
// demangler: {lambda(int)#1}), whole or without its parameters; the value
// holds a blank, so it is given by lines, as coz-cc writes it.
// RUN: COZ_PASS_ARGS=$'--coz-skip=ns::run(int)::{lambda(int)#1}::operator()(int) const\n' %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,SKIP %s
// RUN: COZ_PASS_ARGS="--coz-skip=ns::run(int)::{lambda(int)#1}::operator()" %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,SKIP %s
// RUN: COZ_PASS_ARGS="--coz-skip=other" %clangxx -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefixes=CHECK,KEEP %s
#include <pthread.h>

namespace ns {
pthread_mutex_t m;
// Inline: its lambda gets an external name, _ZZN2ns3runEiENKUliE_clEi.
inline int run(int v) {
  auto lock = [](int x) { return pthread_mutex_lock(&m) + x; };
  return lock(v) + pthread_mutex_lock(&m);
}
} // namespace ns

int use(int v) { return ns::run(v); }

// CHECK-LABEL: define {{.*}} @_ZN2ns3runEi(
// CHECK: call {{.*}} @__coz_pthread_mutex_lock(
// CHECK-LABEL: define {{.*}} @_ZZN2ns3runEiENKUliE_clEi(
// SKIP: call {{.*}} @pthread_mutex_lock(
// KEEP: call {{.*}} @__coz_pthread_mutex_lock(
// CHECK-LABEL: define {{.*}} @__coz_pthread_mutex_lock(
