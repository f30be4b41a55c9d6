#!/usr/bin/env bash
# test_llvm.sh: build coz-cc for other LLVM majors and run the suites that
# depend on the major: the pass's lit tests, the driver's and the call-path
# tests (ctest labels pass, driver, callpath).
#
# Usage: scripts/test_llvm.sh MAJOR...    e.g. scripts/test_llvm.sh 15 16 19
#   COZ_LLVM_LABELS   the ctest labels to run (default pass|driver|callpath)
#
# Each MAJOR (15, 16 or 19; 14 is scripts/test.sh's) gets a
# `COZ_LLVM_VERSION=MAJOR scripts/setup.sh` (which installs that major's
# packages) in its own build dir, <build>-llvmMAJOR next to COZ_BUILD_DIR
# (default <repo>/build), building only what those suites use. Not part of
# CI: the suite on 14 already takes 19-25 minutes of CI's 30, and LLVM 19's
# pass and driver tests alone add ~4 (packages, build, tests); the three
# majors take ~12. Run it by hand when the pass or the driver changes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_BASE="${COZ_BUILD_DIR:-$ROOT/build}"
# What the pass, driver and call-path tests run: the tools, both runtime
# archives and the call-path test programs.
LABELS="${COZ_LLVM_LABELS:-pass|driver|callpath}"
TARGETS="CozPass coz-cc coz-c++ coz-report coz-rt coz-rt-static"
case "$LABELS" in *callpath*) TARGETS="$TARGETS callpath_programs" ;; esac

if [ "$#" -eq 0 ]; then
  echo "test_llvm.sh: name the LLVM majors to test, e.g. scripts/test_llvm.sh 15 16 19" >&2
  exit 2
fi
for major in "$@"; do
  dir="$BUILD_BASE-llvm$major"
  echo "test_llvm.sh: LLVM $major in $dir"
  COZ_LLVM_VERSION="$major" COZ_BUILD_DIR="$dir" COZ_TARGETS="$TARGETS" \
    "$ROOT/scripts/setup.sh"
  ctest --test-dir "$dir" -j "${COZ_JOBS:-2}" --output-on-failure \
    -L "^($LABELS)\$"
done
