# lib.sh: helpers shared by the coz-cc driver tests (sourced by cases_*.sh).
#
# CTest provides, in the environment:
#   COZ_BUILD     top of the coz-cc build tree (bin/, lib/coz-cc, lib/pkgconfig)
#   COZ_TEST_SRC  this folder (test/driver)
#   COZ_WORK      a scratch folder for this test (emptied first)
#   COZ_TEST_CLANG, COZ_TEST_CLANGXX   the plain clang pair coz-cc drives
#   COZ_OTHER_CLANG  a clang of another LLVM major (for the refusal test)
#   COZ_TEST_CMAKE, COZ_TEST_GENERATOR, COZ_TEST_MAKE_PROGRAM  for nested builds
set -euo pipefail

# The environment of the caller must not pick another clang or pass options.
unset COZ_CC COZ_CXX COZ_PASS_ARGS
DRIVER_CC="$COZ_BUILD/bin/coz-cc"
DRIVER_CXX="$COZ_BUILD/bin/coz-c++"
PROGRAMS="$COZ_TEST_SRC/programs"
EXPECTED_WORK="$(cat "$PROGRAMS/work.expected")"
# coz.h for reference builds with plain clang (the macros are no-ops there).
COZ_INCLUDE="$COZ_BUILD/include/coz-cc"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Runs a command, failing the test with its output if it fails.
run() {
  echo "+ $*" >&2
  "$@" || fail "command failed (status $?): $*"
}

fresh_workdir() {
  rm -rf "$COZ_WORK"
  mkdir -p "$COZ_WORK"
  cd "$COZ_WORK"
}

# Short experiments so that a run of a few tenths of a second holds several.
export COZ_EXPERIMENT=50 COZ_COOLOFF=5

# run_profiled NAME CMD...: runs CMD with its profile going to NAME.coz and
# its stdout to NAME.out.
run_profiled() {
  local name="$1"
  shift
  rm -f "$COZ_WORK/$name.coz"
  echo "+ COZ_OUTPUT=$COZ_WORK/$name.coz $*" >&2
  COZ_OUTPUT="$COZ_WORK/$name.coz" "$@" >"$COZ_WORK/$name.out" ||
    fail "$* exited with status $?"
}

# check_output NAME EXPECTED: NAME.out must be exactly EXPECTED.
check_output() {
  local got
  got="$(cat "$COZ_WORK/$1.out")"
  [ "$got" = "$2" ] || fail "$1 printed '$got', expected '$2'"
}

# check_profile NAME: the run wrote a profile with its startup record and at
# least one experiment.
check_profile() {
  local file="$COZ_WORK/$1.coz"
  [ -s "$file" ] || fail "no profile written to $file (is the runtime linked?)"
  grep -q "^startup" "$file" || fail "$file has no startup record"
  grep -q "^experiment" "$file" || fail "$file has no experiment record"
}

# check_visits NAME POINT N: the profile counted N visits of progress POINT.
check_visits() {
  local file="$COZ_WORK/$1.coz"
  grep -qP "^runtime\tpoint=$2\t(.*\t)?visits=$3(\t|$)" "$file" ||
    fail "$file does not count $3 visits of '$2': $(grep -P "^runtime\tpoint=" "$file" | tr '\t' ' ')"
}

# nm_has FILE REGEX [NM-OPTIONS...]: nm's output for FILE matches REGEX.
# (nm's output goes through a variable: `nm | grep -q` fails under pipefail
# when grep stops reading early.)
nm_has() {
  local file="$1" regex="$2" symbols
  shift 2
  symbols="$(nm "$@" "$file")" || fail "nm $file failed"
  grep -qE "$regex" <<<"$symbols"
}

# reference_output SRC...: what the program prints built by plain clang -O2.
reference_output() {
  local src="$1" compiler="$COZ_TEST_CLANG"
  case "$src" in *.cpp | *.cc) compiler="$COZ_TEST_CLANGXX" ;; esac
  run "$compiler" -O2 -pthread -I"$COZ_INCLUDE" "$@" -o "$COZ_WORK/reference"
  "$COZ_WORK/reference" || fail "reference build of $src failed to run"
}

# check_matches_reference NAME SRC...: NAME.out equals the plain clang -O2
# build's output, which must also be the known result.
check_matches_reference() {
  local name="$1"
  shift
  local want
  want="$(reference_output "$@")"
  [ "$want" = "$EXPECTED_WORK" ] || fail "plain clang build printed '$want'"
  check_output "$name" "$want"
}
