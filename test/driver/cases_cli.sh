# cases_cli.sh CASE: the driver's command-line contract: its own options,
# errors, exit status, clang selection and pass-through modes.
. "$(dirname "$0")/lib.sh"

# expect_one_line_error FILE: exactly one line on stderr, naming the tool.
expect_one_line_error() {
  local lines
  lines="$(wc -l <"$1")"
  [ "$lines" -eq 1 ] || fail "expected one line of error, got $lines: $(cat "$1")"
  grep -q "^coz-c" "$1" || fail "error line does not name the tool: $(cat "$1")"
}

case_coz_help() {
  fresh_workdir
  run "$DRIVER_CC" --coz-help >help.txt
  for opt in --coz-progress=FILE:LINE --coz-begin=FILE:LINE=NAME \
    --coz-end=FILE:LINE=NAME --coz-skip=FUNCTION --coz-help COZ_CC COZ_PASS_ARGS; do
    grep -qF -- "$opt" help.txt || fail "--coz-help does not list $opt"
  done
  run "$DRIVER_CXX" --coz-help >help_cxx.txt
  grep -q "^usage: coz-c++" help_cxx.txt || fail "coz-c++ --coz-help does not name coz-c++"
}

case_bad_option() {
  fresh_workdir
  echo 'int main(void) { return 0; }' >ok.c
  local status=0
  "$DRIVER_CC" --coz-bogus -c ok.c 2>err.txt || status=$?
  [ "$status" -ne 0 ] || fail "an unknown --coz- option was accepted"
  expect_one_line_error err.txt
  grep -qF -- "--coz-bogus" err.txt && grep -qF -- "--coz-help" err.txt ||
    fail "the error does not name the option and --coz-help: $(cat err.txt)"
  for bad in --coz-progress=nocolon --coz-progress=a.c:0 --coz-progress=a.c:12= \
    --coz-begin=a.c:3 --coz-skip= --coz-help=x; do
    status=0
    "$DRIVER_CC" "$bad" -c ok.c 2>err.txt || status=$?
    [ "$status" -ne 0 ] || fail "$bad was accepted"
    expect_one_line_error err.txt
  done
  [ ! -e ok.o ] || fail "a rejected command still compiled"
}

# coz-cc becomes clang: a failing compile returns clang's status and
# diagnostics, a good one returns 0.
case_exit_status() {
  fresh_workdir
  echo 'int main(void) { return undeclared; }' >bad.c
  local want=0 got=0
  "$COZ_TEST_CLANG" -c bad.c -o bad.o 2>clang.err || want=$?
  "$DRIVER_CC" -c bad.c -o bad.o 2>driver.err || got=$?
  [ "$want" -ne 0 ] || fail "plain clang compiled bad.c"
  [ "$got" -eq "$want" ] || fail "coz-cc returned $got, clang returned $want"
  grep -q "undeclared" driver.err || fail "clang's diagnostic did not come through"
  got=0
  "$DRIVER_CC" missing.c -o prog 2>/dev/null || got=$?
  [ "$got" -ne 0 ] || fail "coz-cc returned 0 for a missing input"
  echo 'int main(void) { return 3; }' >three.c
  run "$DRIVER_CC" three.c -o three
  got=0
  ./three || got=$?
  [ "$got" -eq 3 ] || fail "the program's own exit status changed: $got"
}

# COZ_CC/COZ_CXX pointing at a clang of another LLVM major is refused with
# one line; one of the plugin's major is used.
case_cc_mismatch() {
  fresh_workdir
  [ -x "$COZ_OTHER_CLANG" ] ||
    fail "no clang of another LLVM major found ($COZ_OTHER_CLANG): run scripts/setup.sh"
  echo 'int main(void) { return 0; }' >ok.c
  local status=0
  COZ_CC="$COZ_OTHER_CLANG" "$DRIVER_CC" -c ok.c 2>err.txt || status=$?
  [ "$status" -ne 0 ] || fail "COZ_CC=$COZ_OTHER_CLANG was accepted"
  expect_one_line_error err.txt
  grep -q "LLVM" err.txt || fail "the refusal does not say why: $(cat err.txt)"
  [ ! -e ok.o ] || fail "the refused command still compiled"
  status=0
  COZ_CXX="$COZ_OTHER_CLANG" "$DRIVER_CXX" -c ok.c 2>err.txt || status=$?
  [ "$status" -ne 0 ] || fail "COZ_CXX=$COZ_OTHER_CLANG was accepted"
  expect_one_line_error err.txt
  # COZ_CC pointing back at a coz driver is refused, not an endless loop.
  status=0
  COZ_CC="$DRIVER_CXX" timeout 60 "$DRIVER_CC" -c ok.c 2>err.txt || status=$?
  [ "$status" -eq 1 ] || fail "COZ_CC=coz-c++ gave status $status, not a refusal"
  expect_one_line_error err.txt
  # The same major through COZ_CC works, and is the clang that runs.
  COZ_CC="$COZ_TEST_CLANG" run "$DRIVER_CC" -c ok.c -o ok.o --coz-verbose 2>verbose.txt
  grep -qF "running: $COZ_TEST_CLANG " verbose.txt || fail "COZ_CC was not used: $(cat verbose.txt)"
}

# Pass-through modes give what clang gives: -E output, --version, -v, -###,
# -M; assembly compiles without unused-flag warnings (even with -Werror).
case_passthrough() {
  fresh_workdir
  printf '#define TWICE(x) ((x) * 2)\nint f(int x) { return TWICE(x); }\n' >pp.c
  "$COZ_TEST_CLANG" -E pp.c >clang.i
  run "$DRIVER_CC" -E pp.c >driver.i
  cmp -s clang.i driver.i || fail "-E output differs from clang's"
  "$COZ_TEST_CLANG" --version >clang.version
  run "$DRIVER_CC" --version >driver.version
  cmp -s clang.version driver.version || fail "--version differs from clang's"
  run "$DRIVER_CC" -v 2>v.txt
  grep -q "clang version" v.txt || fail "-v printed no clang version"
  run "$DRIVER_CC" -M pp.c >deps.txt
  grep -q "pp.o: pp.c" deps.txt || fail "-M output is wrong: $(cat deps.txt)"
  run "$DRIVER_CC" -Werror -fsyntax-only pp.c
  printf '.globl f\nf:\n  ret\n' >asm.s
  run "$DRIVER_CC" -Werror -c asm.s -o asm.o
  echo 'int main(void) { return 0; }' >main.c
  run "$DRIVER_CC" -### main.c -o prog 2>hash.txt
  grep -q "libCozPass.so" hash.txt || fail "-### shows no plugin"
  grep -q "libcoz-rt.a" hash.txt || fail "-### shows no runtime on the link line"
  [ ! -e prog ] || fail "-### ran the commands"
  # -MD still links, and writes the dependency file.
  run "$DRIVER_CC" -MD main.c -o prog
  [ -x prog ] && ls ./*.d >/dev/null 2>&1 || fail "-MD did not link or write a .d file"
  nm_has prog " T __coz_register_module$" || fail "-MD link has no runtime"
  # A header is precompiled, not linked, with or without -x.
  echo 'int f(int x);' >api.h
  run "$DRIVER_CC" -x c-header api.h -o api1.pch
  run "$DRIVER_CC" api.h -o api2.pch
  [ -s api1.pch ] && [ -s api2.pch ] || fail "no precompiled header written"
  # -c, -S, -shared and -r never get the runtime.
  run "$DRIVER_CC" -S pp.c -o pp.s
  run "$DRIVER_CC" -c pp.c -o pp.o
  run "$DRIVER_CC" -r pp.o -o partial.o
  nm_has partial.o " T __coz_register_module$" && fail "-r got the runtime"
  run "$DRIVER_CC" -fPIC -shared pp.c -o libpp.so
  nm_has libpp.so " T __coz_register_module$" && fail "-shared got the runtime"
  return 0
}

# What the driver adds, mode by mode, read from --coz-verbose with -### (so
# clang only prints its jobs). Columns: plugin, runtime, static runtime,
# -gline-tables-only; then the arguments.
case_modes() {
  fresh_workdir
  echo 'int main(void) { return 0; }' >a.c
  cp a.c b.c
  printf '.globl f\nf:\n  ret\n' >s.s
  run "$COZ_TEST_CLANG" -c a.c -o a.o
  local table='
    y y n y | a.c
    y y n y | a.c b.c -o prog
    y n n y | -c a.c
    y n n y | -S a.c
    y n n y | -E a.c
    y n n y | -M a.c
    y n n y | -MM a.c
    y y n y | -MD a.c
    y y n y | -MMD -MF deps.d a.c
    y n n y | -fsyntax-only a.c
    y n n y | -shared -fPIC a.c
    y n n y | -Wl,-shared a.c
    y n n y | -Wl,--as-needed,--shared a.c
    y n n y | -Xlinker -shared a.c
    y n n y | -r a.o
    y n n y | -nostdlib a.c
    y n y y | -static a.c
    y n y y | -static-pie a.c
    y y n n | -g a.c
    y y n n | -g3 -O2 a.c
    y y n n | -ggdb a.c
    y y n y | -gz a.c
    y y n y | -o -c a.c
    y n n y | -MT -E -c a.c
    y n n y | -c -MT x a.c
    y y n y | -x c a.c
    y y n y | a.o
    n n n n | -c s.s
    n n n n | --version
    n n n n | -v
    n n n n | -dumpversion
  '
  local expect args out want
  while IFS='|' read -r expect args; do
    [ -n "${expect// /}" ] || continue
    # shellcheck disable=SC2086
    "$DRIVER_CC" --coz-verbose -### $args 2>out.txt >/dev/null || true
    out="$(grep "^coz-cc: running:" out.txt)" || fail "no command shown for: $args"
    local got=""
    for pattern in "-fpass-plugin=" "libcoz-rt.a" "libcoz-rt-static.a" "-gline-tables-only"; do
      if grep -qF -- "$pattern" <<<"$out"; then got+="y "; else got+="n "; fi
    done
    read -ra want <<<"$expect"
    expect="${want[*]} "
    [ "$got" = "$expect" ] ||
      fail "coz-cc $args: plugin/runtime/static/line-tables expected '$expect', got '$got': $out"
  done <<<"$table"
  # -x pinned at the end: the runtime archive must not be read as C.
  "$DRIVER_CC" --coz-verbose -### -x c a.c 2>out.txt >/dev/null || true
  grep -q -- "-x none -Wl,--whole-archive" out.txt || fail "no -x none before the runtime: $(cat out.txt)"
  # The user's arguments come through unchanged and in order.
  "$DRIVER_CC" --coz-verbose -### -DA=1 -O1 -UA -DB a.c -o 'out file' 2>out.txt >/dev/null || true
  grep -qF -- "-DA=1 -O1 -UA -DB a.c -o 'out file'" out.txt || fail "arguments reordered: $(cat out.txt)"
  # A response file with a --coz- option is inlined, GNU quoting kept.
  printf '%s\n' '--coz-skip=helper "-DLABEL=two words" -DQ=\"q\" '"'"'a.c'"'"' -c' >inl.rsp
  "$DRIVER_CC" --coz-verbose -### @inl.rsp 2>out.txt >/dev/null || true
  grep -qF -- "'-DLABEL=two words' '-DQ=\"q\"' a.c -c" out.txt || fail "response file misread: $(cat out.txt)"
  grep -qF -- "COZ_PASS_ARGS='--coz-skip=helper'" out.txt || fail "--coz-skip not passed on: $(cat out.txt)"
  grep -qF -- "@inl.rsp" out.txt && fail "a response file with --coz- options was forwarded as is"
  # -static: --wrap for every checkpoint of contract/checkpoints.def.
  "$DRIVER_CC" --coz-verbose -### -static a.c 2>out.txt >/dev/null || true
  local name count=0
  for name in $(sed -n 's/^COZ_CHECKPOINT([A-Z]*, *[^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' "$COZ_TEST_SRC/../../contract/checkpoints.def"); do
    grep -qF -- "-Wl,--wrap=$name " out.txt || fail "-static link lacks -Wl,--wrap=$name"
    count=$((count + 1))
  done
  [ "$count" -gt 10 ] || fail "read only $count checkpoints from checkpoints.def"
}

"case_$1"
