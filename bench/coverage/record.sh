#!/usr/bin/env bash
# Records the experiments coverage.py draws its real-noise profiles from:
# accuracy-suite programs built with coz-cc, one line sped up
# (COZ_FIXED_LINE), each nonzero speedup in its own runs alternating with
# speedup 0 (COZ_FIXED_SPEEDUP), short experiments, appended to one profile
# per program: rec-pipeline.coz (the bottleneck stage s2), rec-serial.coz
# (region a).
#
# usage: bench/coverage/record.sh BIN OUTDIR [EXPERIMENTS_PER_SPEEDUP]
#   BIN  a build tree's bin/ (coz-cc); EXPERIMENTS_PER_SPEEDUP default 300
set -euo pipefail
bin=${1:?usage: record.sh BIN OUTDIR [EXPERIMENTS_PER_SPEEDUP]}
out=${2:?usage: record.sh BIN OUTDIR [EXPERIMENTS_PER_SPEEDUP]}
want=${3:-300}
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/../accuracy/cases
mkdir -p "$out"
out=$(cd "$out" && pwd)

region_line() { grep -n "REGION:$2 " "$cases/$1" | cut -d: -f1; }

record() { # NAME SOURCE REGION
  local name=$1 src=$2 region=$3
  local exe=$out/$name line
  "$bin/coz-cc" -O2 -g -std=c11 -I"$here/../accuracy" "$cases/$src" -o "$exe"
  line=$(region_line "$src" "$region")
  rm -f "$out/rec-$name.coz"
  for s in 25 50 75 100; do
    local have=0
    while [ "$have" -lt "$want" ]; do
      COZ_OUTPUT=$out/rec-$name.coz COZ_FIXED_LINE=$src:$line \
        COZ_FIXED_SPEEDUP=$s COZ_EXPERIMENT=100 COZ_COOLOFF=5 \
        BENCH_SCALE=8 "$exe" >/dev/null
      have=$(grep -c "speedup=$(printf '%.2f' "$(echo "$s/100" | bc -l)")" \
        "$out/rec-$name.coz" || true)
    done
    echo "record.sh: $name at $s%: $have experiments"
  done
}

record pipeline pipeline.c s2
record serial serial.c a
