#!/bin/bash
# Runs one of the tree's libFuzzer targets (ASan + UBSan builds, see
# cmake/CozFuzz.cmake) for SECONDS (default 600 = 10 minutes, the release
# bar; CI runs each for 60).
#
# usage: bench/fuzz/run.sh [SECONDS] [FUZZER [SEED_DIR...]]
#   FUZZER    a fuzzer binary, or the name of one in the newest build*/bin
#             of this checkout (default: $COZ_REPORT_FUZZER, else
#             coz-report-fuzz). The targets:
#               coz-report-fuzz      coz-report's profile parser and renderers
#               coz-lines-fuzz       the DWARF line-program decoder, path
#                                    normalization and the line table builder
#               coz-dwarf-open-fuzz  whole ELF files: libelf/libdwarf opening,
#                                    .gnu_debuglink and build-ID following,
#                                    then the line tables
#               coz-eh-frame-fuzz    .eh_frame_hdr, CIE/FDE parsing and the
#                                    CFA program interpreter
#   SEED_DIR  seed corpora, never written. Default: the fuzzer's checked-in
#             corpus (hand-made seeds and every past finding) and the seeds
#             its build extracted from real objects (<build>/fuzz-seeds/NAME).
# New inputs go to $FUZZ_WORK/corpus (default <build>/fuzz-work/NAME); a
# crashing input is saved there as crash-* (or leak-*, timeout-*, oom-*)
# and the script fails. FUZZ_MAX_LEN (default 65536) caps an input's size.
set -eu
secs=${1:-600}
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzzer=${2:-${COZ_REPORT_FUZZER:-coz-report-fuzz}}
shift $(($# < 2 ? $# : 2))
wanted=$fuzzer
if [ "${fuzzer#*/}" = "$fuzzer" ]; then # a name: the newest build's
  fuzzer=$(ls -t "$root"/build*/bin/"$fuzzer" 2>/dev/null | head -1 || true)
fi
if [ -z "$fuzzer" ] || [ ! -x "$fuzzer" ]; then
  echo "run.sh: no fuzzer binary $wanted; build the tree (scripts/setup.sh)" \
       "or pass the binary's path" >&2
  exit 2
fi
name=$(basename "$fuzzer")
bin=$(dirname "$fuzzer")
seeds=("$@")
if [ ${#seeds[@]} -eq 0 ]; then
  case "$name" in
  coz-report-fuzz) seeds=("$root/test/report/corpus") ;;
  coz-lines-fuzz) seeds=("$root/test/linemap/fuzz-corpus/lines") ;;
  coz-dwarf-open-fuzz) seeds=("$root/test/linemap/fuzz-corpus/open") ;;
  coz-eh-frame-fuzz) seeds=("$root/test/unwind/fuzz-corpus") ;;
  esac
  if [ -d "$bin/../fuzz-seeds/$name" ]; then
    seeds+=("$bin/../fuzz-seeds/$name")
  fi
fi
work=${FUZZ_WORK:-$(dirname "$bin")/fuzz-work/$name}
mkdir -p "$work/corpus"
echo "fuzzing $fuzzer for ${secs}s; corpus $work/corpus + ${seeds[*]}"
# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a leak or
# an allocation blow-up is a failure too.
"$fuzzer" "$work/corpus" "${seeds[@]}" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
  -max_len="${FUZZ_MAX_LEN:-65536}" \
  -artifact_prefix="$work/" -print_final_stats=1 2>"$work/fuzz.log" || {
  rc=$?
  tail -40 "$work/fuzz.log" >&2
  echo "run.sh: the fuzzer failed (exit $rc); the input is in $work/" >&2
  exit 1
}
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+[[:space:]]+DONE" "$work/fuzz.log" || true
echo "run.sh: no crash in ${secs}s"
