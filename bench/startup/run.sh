#!/bin/sh
# Times the line map's build on a synthetic ~250k-line C program compiled
# with clang -g -O2 (the issue's startup budget: well under 50 ms).
# Usage: bench/startup/run.sh [LINES] [RUNS]   (from anywhere)
# Needs clang, python3, libdwarf-dev, libelf-dev. Work dir: $TMPDIR or /tmp.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lines=${1:-250000}
runs=${2:-5}
cc=${CC:-clang}
work=${TMPDIR:-/tmp}/coz-bench-startup-$lines
mkdir -p "$work/src" "$work/obj"
python3 "$here/gen_program.py" "$work/src" "$lines"
echo "generated $(cat "$work"/src/*.c "$work"/src/*.h | wc -l) source lines in $work/src"
for f in "$work"/src/*.c; do
  o="$work/obj/$(basename "$f" .c).o"
  [ "$o" -nt "$f" ] || echo "$cc -g -O2 -c $f -o $o"
done | xargs -P "$(nproc)" -I{} sh -c '{}'
"$cc" -O2 -g -D_GNU_SOURCE -I/usr/include/libdwarf -I"$root/runtime/linemap" \
  "$root"/runtime/linemap/*.c "$here/bench_linemap.c" "$work"/obj/*.o \
  -Wl,--export-dynamic-symbol=__coz_register_module \
  -ldwarf -lelf -lz -o "$work/bench_linemap"
ls -l "$work/bench_linemap" | awk '{print "executable bytes:", $5}'
# Median by CPU time: wall time on a shared machine mostly measures others.
median() {
  sort -t= -k4 -n | awk -v s="$1" -v r="$runs" \
    '{ a[NR] = $0 } END { print s ", median of " r ": " a[int((NR + 1) / 2)] }'
}
for i in $(seq "$runs"); do "$work/bench_linemap" "$work/src"; done |
  median "default scope (pass files)"
for i in $(seq "$runs"); do "$work/bench_linemap" "$work/src" "%" MAIN; done |
  median "COZ_SOURCE_SCOPE=% COZ_BINARY_SCOPE=MAIN"
for i in $(seq "$runs"); do BENCH_NO_FILTER=1 "$work/bench_linemap" "$work/src"; done |
  median "default scope, no runtime filter (marker symbol test)"
for i in $(seq "$runs"); do "$work/bench_linemap" "$work/src" "" "%"; done |
  median "default files, COZ_BINARY_SCOPE=% (reads every object's DWARF)"
