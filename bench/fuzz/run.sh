#!/bin/bash
# Fuzzes coz-report's profile parser (and the analysis and renderers behind
# it) with libFuzzer for SECONDS (default 600 = 10 minutes, the release
# bar; CI runs 60).
#
# usage: bench/fuzz/run.sh [SECONDS] [FUZZER]
#   FUZZER   the coz-report-fuzz binary (default: $COZ_REPORT_FUZZER, else
#            the newest build*/bin/coz-report-fuzz of this checkout)
# The seed corpus is test/report/corpus (never written); new inputs go to
# $FUZZ_WORK (default: a fuzz-work/ folder next to the fuzzer's bin/), and
# a crashing input is saved there as crash-* and the script fails.
set -eu
secs=${1:-600}
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzzer=${2:-${COZ_REPORT_FUZZER:-}}
if [ -z "$fuzzer" ]; then
  fuzzer=$(ls -t "$root"/build*/bin/coz-report-fuzz 2>/dev/null | head -1 || true)
fi
if [ -z "$fuzzer" ] || [ ! -x "$fuzzer" ]; then
  echo "run.sh: no coz-report-fuzz binary; build the 'coz-report-fuzz' target" \
       "(cmake -DCOZ_COMPONENTS=\"report;test\") or pass its path" >&2
  exit 2
fi
work=${FUZZ_WORK:-$(dirname "$(dirname "$fuzzer")")/fuzz-work}
mkdir -p "$work/corpus"
echo "fuzzing $fuzzer for ${secs}s; corpus $work/corpus + $root/test/report/corpus"
# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a leak or
# an allocation blow-up is a failure too.
"$fuzzer" "$work/corpus" "$root/test/report/corpus" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$work/" -print_final_stats=1 2>"$work/fuzz.log" || {
  rc=$?
  tail -40 "$work/fuzz.log" >&2
  echo "run.sh: the fuzzer failed (exit $rc); the input is in $work/crash-*" >&2
  exit 1
}
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE" "$work/fuzz.log" || true
echo "run.sh: no crash in ${secs}s"
