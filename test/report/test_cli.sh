#!/bin/bash
# coz-report's command line: inputs, exit codes, one-line errors, filters,
# and the JSON and HTML outputs. Usage: test_cli.sh PATH/TO/coz-report
set -u
REPORT=$1
T=$(mktemp -d /tmp/coz-report-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# profile LINE POINT: speedups 0 .25 .5 .75 1 with y = 0.4 s (delta 1000,
# duration_s = 1e9 (1 - 0.4 s)); a second point q advances identically.
profile() {
  for k in 0 1 2 3 4; do
    printf 'experiment\tselected=%s\tspeedup=%s\tduration=%d\n' "$1" \
      "$(echo "$k" | awk '{printf "%.2f", $1 * 0.25}')" \
      "$(echo "$k" | awk '{printf "%d", 1e9 * (1 - 0.1 * $1)}')"
    printf 'throughput-point\tname=%s\tdelta=1000\n' "$2"
    printf 'throughput-point\tname=q\tdelta=1000\n'
  done
}

# 1. A missing file: exactly one line on stderr, nothing on stdout, exit 2.
"$REPORT" "$T/none.coz" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "missing file: exit $rc, expected 2"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "missing file: $(wc -l <"$T/err") stderr lines"
grep -q "cannot read '$T/none.coz': No such file or directory" "$T/err" ||
  fail "missing file message: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "missing file: stdout not empty"

# 2. A directory is not a profile: one line.
"$REPORT" "$T" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "directory: wrong exit"
[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "Is a directory" "$T/err" ||
  fail "directory message: $(cat "$T/err")"

# 3. The default input is ./profile.coz; a plot exits 0.
profile "a.c:3" p >"$T/profile.coz"
(cd "$T" && "$REPORT" >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 0 ] || fail "default profile.coz: exit $rc"
grep -q "a.c:3" "$T/out" || fail "default profile.coz: no a.c:3 in $(cat "$T/out")"
grep -q "+10.0%" "$T/out" || fail "text: +10.0% at 25% expected"

# 4. A malformed record is reported FILE:LINE and skipped; rest analysed.
{ profile "a.c:3" p; printf 'experiment\tselected=a.c:3\tspeedup=2\tduration=1\n'; } >"$T/bad.coz"
"$REPORT" "$T/bad.coz" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] || fail "malformed: exit not 0"
grep -q "^$T/bad.coz:16: speedup= must be a number between 0 and 1; record skipped$" "$T/err" ||
  fail "malformed message: $(cat "$T/err")"

# 5. --json is valid JSON and carries predicted speedups per line.
"$REPORT" --json "$T/profile.coz" >"$T/out.json" 2>"$T/err" || fail "--json exit"
node -e '
  const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const l = d.lines.find(x => x.location === "a.c:3" && x.point === "p");
  if (d.schema !== "coz-report/1") throw new Error("schema " + d.schema);
  if (!l) throw new Error("no a.c:3/p line");
  // y = 0.4 s exactly: 0.1 at 25%, 0.2 at 50%.
  if (Math.abs(l.predicted["0.25"] - 0.1) > 1e-9) throw new Error("pred .25 " + l.predicted["0.25"]);
  if (Math.abs(l.predicted["0.5"] - 0.2) > 1e-9) throw new Error("pred .5 " + l.predicted["0.5"]);
  if (l.points.length !== 5 || !Array.isArray(l.points[2].ci)) throw new Error("points");
  if (!(l.points[2].ci[0] <= 0.2 && 0.2 <= l.points[2].ci[1])) throw new Error("ci");
  if (d.lines.length !== 2) throw new Error("expected 2 rows (points p and q)");
' "$T/out.json" || fail "--json content"

# 6. --point keeps one progress point.
"$REPORT" --json --point q "$T/profile.coz" >"$T/q.json" || fail "--point exit"
node -e '
  const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (d.lines.length !== 1 || d.lines[0].point !== "q") throw new Error("filter");
' "$T/q.json" || fail "--point filter"

# 7. --min-points above the data: nothing to plot, exit 1, the reason.
"$REPORT" --min-points 6 "$T/profile.coz" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "--min-points 6: exit not 1"
grep -q "too few speedups were tried" "$T/out" || fail "guidance: $(cat "$T/out")"

# 8. Bad options: one line each, exit 2.
for args in "--sort area" "--min-points -1" "--frobnicate" "--bootstrap x"; do
  # shellcheck disable=SC2086
  "$REPORT" $args "$T/profile.coz" >"$T/out" 2>"$T/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': exit $rc"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "'$args': $(cat "$T/err")"
done

# 9. --html writes a page; the explicit `report` subcommand is the default.
"$REPORT" report --html "$T/page.html" "$T/profile.coz" >/dev/null || fail "report subcommand"
[ "$(grep -o '<svg class="plot"' "$T/page.html" | wc -l)" -eq 2 ] || fail "html plots"

# 10. An unwritable --html target: one line, exit 2.
"$REPORT" --html "$T/no/such/dir/page.html" "$T/profile.coz" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || fail "unwritable html: $(cat "$T/err")"

# 11. Output is deterministic (fixed bootstrap seed).
"$REPORT" --json "$T/profile.coz" >"$T/again.json"
cmp -s "$T/out.json" "$T/again.json" || fail "JSON differs between two runs"

[ $fails -eq 0 ] && echo "test_cli: all checks passed"
exit $((fails > 0))
