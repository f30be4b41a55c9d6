// FILE names a source file by whole trailing path components, or by its
// absolute path; a partial component does not match (and, naming no file of
// this module, draws no warning).
// RUN: echo "--coz-progress=pass/path_suffix.c:%(line+7)=dir" > %t.args
// RUN: echo "--coz-progress=ass/path_suffix.c:%(line+6)=partial" >> %t.args
// RUN: echo "--coz-progress=%s:%(line+5)=absolute" >> %t.args
// RUN: echo "--coz-progress=./path_suffix.c:%(line+4)=dot" >> %t.args
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - 2> %t.err | FileCheck %s
// RUN: %count 0 < %t.err
int f(int x) {
  return x * 7;
}
// CHECK-DAG: @__coz_ctr.0.dir = linkonce_odr
// CHECK-DAG: @__coz_ctr.0.absolute = linkonce_odr
// CHECK-DAG: @__coz_ctr.0.dot = linkonce_odr
// CHECK-NOT: __coz_ctr.0.partial
