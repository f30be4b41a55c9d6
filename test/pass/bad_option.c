// A malformed option stops the compilation with one line saying what is
// expected, as a compilation error (no crash report), and no object file.
// RUN: rm -f %t.o
// RUN: %not env COZ_PASS_ARGS="--coz-progress=a.c" %clang -c -fpass-plugin=%plugin %s -o %t.o 2> %t.1
// RUN: FileCheck --check-prefix=LINE --input-file=%t.1 %s
// LINE: error: coz-cc: COZ_PASS_ARGS: bad option '--coz-progress=a.c': expected FILE:LINE
// RUN: %not env COZ_PASS_ARGS="--coz-begin=a.c:3" %clang -c -fpass-plugin=%plugin %s -o %t.o 2> %t.2
// RUN: FileCheck --check-prefix=NAME --input-file=%t.2 %s
// NAME: error: coz-cc: COZ_PASS_ARGS: bad option '--coz-begin=a.c:3': needs a name: FILE:LINE=NAME
// RUN: %not env COZ_PASS_ARGS="--coz-frobnicate" %clang -c -fpass-plugin=%plugin %s -o %t.o 2> %t.3
// RUN: FileCheck --check-prefix=UNKNOWN --input-file=%t.3 %s
// UNKNOWN: error: coz-cc: COZ_PASS_ARGS: bad option '--coz-frobnicate': expected --coz-progress=FILE:LINE[=NAME], --coz-begin=FILE:LINE=NAME, --coz-end=FILE:LINE=NAME, --coz-skip=FUNCTION or --coz-no-candidates
// RUN: %not env COZ_PASS_ARGS="--coz-progress=a.c:0" %clang -c -fpass-plugin=%plugin %s -o %t.o 2> %t.4
// RUN: FileCheck --check-prefix=ZERO --input-file=%t.4 %s
// ZERO: error: coz-cc: COZ_PASS_ARGS: bad option '--coz-progress=a.c:0': LINE must be a positive number
// RUN: grep -c coz-cc %t.4 | FileCheck --check-prefix=ONE %s
// ONE: {{^1$}}
// RUN: %not grep -q "PLEASE\|Stack dump" %t.4
// RUN: test ! -e %t.o
int main(void) { return 0; }
