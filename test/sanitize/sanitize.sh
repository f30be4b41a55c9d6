#!/bin/bash
# The runtime's tests under AddressSanitizer and UndefinedBehaviorSanitizer
# (ctest label "sanitize", test/sanitize/CMakeLists.txt).
#
# usage: sanitize.sh build SRC TREE CC CXX LLVM_MAJOR
#          configures TREE from SRC with COZ_SANITIZE=address,undefined
#          (the runtime, the report and their tests; not the pass or the
#          driver) with the outer tree's compilers, and builds it
#        sanitize.sh test TREE REGEX [CTEST_ARGS...]
#          runs TREE's tests matching REGEX (fuzz and accuracy tests left
#          out); fails when none matches
# A sanitizer report aborts the program that made it (exit status != 0),
# leaks included, which fails its test.
set -euo pipefail
mode=$1
shift
case "$mode" in
build)
  src=$1 tree=$2 cc=$3 cxx=$4 llvm=$5
  cmake -S "$src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS=-O1 \
    -DCOZ_LLVM_VERSION="$llvm" -DCOZ_SANITIZE=address,undefined \
    >"$tree.configure.log" 2>&1 || {
    cat "$tree.configure.log" >&2
    exit 1
  }
  ninja -C "$tree" -j "${COZ_JOBS:-2}"
  ;;
test)
  tree=$1 regex=$2
  shift 2
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
  ctest --test-dir "$tree" -R "$regex" -E fuzz -LE accuracy \
    --no-tests=error --output-on-failure "$@"
  ;;
*)
  echo "sanitize.sh: unknown mode '$mode' (build or test)" >&2
  exit 2
  ;;
esac
