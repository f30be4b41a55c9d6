// The module descriptor's flags (contract/abi.h) say whether the module's
// functions omit frame pointers: the kernel's call chains (csw call paths)
// need them, and coz-cc leaves the choice to the user.
// RUN: %clang -O2 -g -fomit-frame-pointer -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OMIT
// RUN: %clang -O2 -g -fno-omit-frame-pointer -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=KEEP
// RUN: %clang -O2 -g -momit-leaf-frame-pointer -fno-omit-frame-pointer -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=KEEP
// The fields: abi_version, n_points, points, n_files, flags, files.
// OMIT: @__coz_module_desc = private {{.*}}{ i32 3, i32 {{[0-9]+}}, {{.*}}, i32 1, i32 1, {{.*}} }
// KEEP: @__coz_module_desc = private {{.*}}{ i32 3, i32 {{[0-9]+}}, {{.*}}, i32 1, i32 0, {{.*}} }
#include "coz.h"

int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += i * i;
    COZ_PROGRESS;
  }
  return s;
}
