// The options also exist as LLVM command-line flags, for builds that load
// the plugin early enough to parse them: opt -load, clang -Xclang -load
// with -mllvm. They add to COZ_PASS_ARGS.
// RUN: %clang %frontend-ir %s -o %t.ll
// RUN: %opt-coz -load %plugin -coz-progress=cl_options.c:%(line+8)=viaopt %t.ll -o - | FileCheck %s
// RUN: %clang -O0 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -mllvm -coz-progress=cl_options.c:%(line+7)=viaopt %s -o - | FileCheck %s
// RUN: COZ_PASS_ARGS="--coz-skip=other" %clang -O0 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -mllvm -coz-progress=cl_options.c:%(line+6)=viaopt %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @count_me(
// CHECK: @__coz_ctr.0.viaopt
// CHECK: atomicrmw add
int count_me(int x) {
  int y = x + 1;
  return y * 2;
}
