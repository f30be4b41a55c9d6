#!/bin/bash
# `coz-report suggest` on hand-made profiles: the ranking as options to
# paste, the preview, the JSON, exit codes and one-line errors; and the main
# report on a profile with only candidates. Usage: test_suggest_cli.sh
# PATH/TO/coz-report
set -u
REPORT=$1
T=$(mktemp -d /tmp/coz-suggest-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# 25 experiments on line /src/app/main.c:11, speedups 0..1 by 0.25, the
# duration shrinking by 40% of the speedup; candidate /src/app/main.c:10
# visited 1000 times per experiment, /src/app/other.c:4 from 1 to 25 times;
# 50 samples of work after each experiment.
candidates() {
  awk 'BEGIN {
    for (i = 0; i < 25; i++) {
      s = (i % 5) * 0.25
      printf "experiment\tselected=/src/app/main.c:11\tspeedup=%.2f\tduration=%d\tselected-samples=50\n", s, 1e9 * (1 - 0.4 * s)
      printf "throughput-point\tname=/src/app/main.c:10\tdelta=1000\tcandidate=1\n"
      printf "throughput-point\tname=/src/app/other.c:4\tdelta=%d\tcandidate=1\n", i + 1
      printf "samples\tlocation=/src/app/main.c:11\tcount=50\n"
    }
    printf "runtime\ttime=25000000000\n"
  }'
}
candidates >"$T/c.coz"

# 1. Text: the steadiest first as a ready-to-paste option, then the preview.
"$REPORT" suggest "$T/c.coz" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "suggest: exit $rc, expected 0"
[ ! -s "$T/err" ] || fail "suggest: stderr $(cat "$T/err")"
grep -q '^  1  --coz-progress=main.c:10 ' "$T/out" || fail "rank 1: $(cat "$T/out")"
grep -q '^  2  --coz-progress=other.c:4 ' "$T/out" || fail "rank 2: $(cat "$T/out")"
grep -q 'Rebuild with --coz-progress=main.c:10' "$T/out" || fail "no rebuild line"
grep -q '^  1  /src/app/main.c:11 .*+0.400' "$T/out" ||
  fail "preview: line 11 with slope 0.4 expected: $(cat "$T/out")"

# 2. JSON: the candidates and the preview (the main report's document).
"$REPORT" suggest --json --top 1 "$T/c.coz" >"$T/out.json" || fail "--json exit"
node -e '
  const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const c = d.candidates;
  if (d.schema !== "coz-report-suggest/1") throw new Error("schema " + d.schema);
  if (c.length !== 1) throw new Error("--top 1: " + c.length);
  if (c[0].option !== "--coz-progress=main.c:10" || c[0].line !== 10 ||
      c[0].file !== "/src/app/main.c" || c[0].experiments !== 25 ||
      c[0].advanced !== 25 || Math.abs(c[0].visits_per_s - 1250) > 1e-6)
    throw new Error("candidate " + JSON.stringify(c[0]));
  const p = d.preview;
  if (p.schema !== "coz-report/1" || p.point_filter !== "/src/app/main.c:10" ||
      p.lines[0].location !== "/src/app/main.c:11" ||
      Math.abs(p.lines[0].slope - 0.4) > 0.01)
    throw new Error("preview " + JSON.stringify(p.lines));
' "$T/out.json" || fail "suggest JSON"

# 3. The main report on it: nothing plotted, says to run suggest, exit 1.
"$REPORT" "$T/c.coz" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "report on candidates: exit not 1"
grep -q "no progress point.*run \`coz-report suggest\`" "$T/out" ||
  fail "report on candidates: $(cat "$T/out")"

# 4. No candidate in the profile: exit 1 and why; in JSON too.
printf 'experiment\tselected=a.c:1\tspeedup=0\tduration=1000\nthroughput-point\tname=p\tdelta=3\n' >"$T/r.coz"
"$REPORT" suggest "$T/r.coz" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "no candidates: exit not 1"
grep -q "no candidate progress point in the profile" "$T/out" || fail "no candidates: $(cat "$T/out")"
"$REPORT" suggest --json "$T/r.coz" | node -e '
  const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
  if (d.candidates.length !== 0 || d.preview !== null || d.real_points !== 1 ||
      !/no candidate/.test(d.message)) throw new Error(JSON.stringify(d));
' || fail "no candidates JSON"

# 5. Errors: one line on stderr, exit 2.
"$REPORT" suggest "$T/none.coz" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || fail "missing file: $(cat "$T/err")"
"$REPORT" suggest --top x "$T/c.coz" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "--top wants a whole number" "$T/err" ||
  fail "bad --top: $(cat "$T/err")"
"$REPORT" suggest --bogus "$T/c.coz" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || fail "unknown option: $(cat "$T/err")"
"$REPORT" suggest --help >"$T/out" || fail "--help exit"
grep -q "usage: coz-report suggest" "$T/out" || fail "--help text"

if [ $fails -eq 0 ]; then
  echo "suggest cli: all checks passed"
else
  echo "suggest cli: $fails check(s) failed"
fi
[ $fails -eq 0 ]
