// A requested line with no code gets one warning naming it; a warning, not
// an error, even under -Werror. A matched line and a line of a header whose
// function this file does not compile stay silent.
// RUN: echo "--coz-progress=unmatched.c:2" > %t.args
// RUN: echo "--coz-begin=unmatched.c:%(line+17)=tx" >> %t.args
// RUN: echo "--coz-progress=Inputs/lcg.h:6" >> %t.args
// RUN: echo "--coz-progress=unmatched.c:%(line+16)" >> %t.args
// RUN: COZ_PASS_ARGS="$(cat %t.args)" %clang -O2 -Werror -c -fpass-plugin=%plugin %s -o %t.o 2> %t.err
// RUN: FileCheck --input-file=%t.err %s
// CHECK: coz-cc: warning: --coz-progress=unmatched.c:2: no code on that line
// CHECK-NEXT: coz-cc: warning: --coz-begin=unmatched.c:{{[0-9]+}}=tx: no code on that line
// CHECK-NOT: warning
//
// Without -g there is no line information: say so.
// RUN: COZ_PASS_ARGS="--coz-progress=unmatched.c:%(line+9)" %clang -g0 -c -fpass-plugin=%plugin %s -o %t.nog.o 2> %t.nog.err
// RUN: FileCheck --check-prefix=NOG --input-file=%t.nog.err %s
// NOG: coz-cc: warning: --coz-progress=unmatched.c:{{[0-9]+}}: no line information: compile with -g
#include "lcg.h" // not used: its lines are not compiled here
int work(int x) {
  int y = x * 3;

  // (this comment line is the one the begin point asks for)
  return y + 1;
}
