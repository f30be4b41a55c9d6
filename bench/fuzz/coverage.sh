#!/bin/bash
# Which source lines a fuzz target's corpus reaches: builds FUZZER-cov (the
# target with clang's source-based coverage, cmake/CozFuzz.cmake), runs
# every input of the corpora once and prints llvm-cov's per-file report
# for the project's own sources (not the harness's).
#
# usage: bench/fuzz/coverage.sh FUZZER [CORPUS_DIR...]
#   FUZZER      a fuzz target's name (coz-lines-fuzz, ...), built in the
#               newest build*/ of this checkout
#   CORPUS_DIR  inputs to run (default: the corpus bench/fuzz/run.sh grew
#               in <build>/fuzz-work/FUZZER/corpus and the fuzzer's seeds)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: coverage.sh FUZZER [CORPUS_DIR...]}
shift
bin=$(dirname "$(ls -t "$root"/build*/bin/"$name" 2>/dev/null | head -1)")
if [ ! -x "$bin/$name" ]; then
  echo "coverage.sh: no $name in build*/bin; build the tree first" >&2
  exit 2
fi
build=$(dirname "$bin")
ninja -C "$build" "$name-cov" >/dev/null
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
  for d in "$build/fuzz-work/$name/corpus" "$build/fuzz-seeds/$name"; do
    [ -d "$d" ] && corpora+=("$d")
  done
fi
llvm=$(dirname "$(readlink -f "$(grep -m1 '^COZ_CLANG:' "$build/CMakeCache.txt" | cut -d= -f2)")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LLVM_PROFILE_FILE="$tmp/%p.profraw" "$bin/$name-cov" -runs=0 \
  "${corpora[@]}" >"$tmp/run.log" 2>&1 || {
  tail -20 "$tmp/run.log" >&2
  exit 1
}
"$llvm/llvm-profdata" merge -o "$tmp/all.profdata" "$tmp"/*.profraw
"$llvm/llvm-cov" report "$bin/$name-cov" -instr-profile="$tmp/all.profdata" \
  -ignore-filename-regex='/test/|/usr/' 
