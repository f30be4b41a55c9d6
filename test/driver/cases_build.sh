# cases_build.sh CASE: compile-and-run tests of coz-cc / coz-c++. Each builds
# a test program, runs it, and checks its output against the plain clang -O2
# build and that the run wrote a profile with experiments.
. "$(dirname "$0")/lib.sh"

# build_and_check NAME DRIVER FLAGS... -- SRC...
one_step() {
  local name="$1" driver="$2" opt="$3" src="$4"
  fresh_workdir
  run "$driver" "$opt" "$PROGRAMS/$src" -o "$name"
  run_profiled "$name" "./$name"
  check_matches_reference "$name" "$PROGRAMS/$src"
  check_profile "$name"
  check_visits "$name" chunk 400
}

case_c_O0() { one_step c_O0 "$DRIVER_CC" -O0 work.c; }
case_c_O2() { one_step c_O2 "$DRIVER_CC" -O2 work.c; }
case_cxx_O0() { one_step cxx_O0 "$DRIVER_CXX" -O0 work.cpp; }
case_cxx_O2() { one_step cxx_O2 "$DRIVER_CXX" -O2 work.cpp; }

# -c, then a separate link step (as make does): the link step alone must add
# the runtime.
case_separate_link() {
  fresh_workdir
  run "$DRIVER_CC" -O2 -c "$PROGRAMS/work.c" -o work.o
  nm_has work.o "__coz_register_module" ||
    fail "work.o is not instrumented (no __coz_register_module reference)"
  nm_has work.o " [TDB] __coz_register_module$" &&
    fail "work.o defines the runtime's __coz_register_module: the runtime went into an object file"
  run "$DRIVER_CC" -O2 work.o -o prog
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/work.c"
  check_profile prog
}

# A -shared library plus an executable, both built with coz-cc: the runtime
# is in the executable only, and the library's progress point and mutex
# reach it.
case_shared_library() {
  fresh_workdir
  run "$DRIVER_CC" -O2 -fPIC -shared "$PROGRAMS/shared_chunk.c" -o libchunk.so
  run "$DRIVER_CC" -O2 "$PROGRAMS/shared_main.c" -I"$PROGRAMS" -L. -lchunk \
    -Wl,-rpath,"$COZ_WORK" -o prog
  # One runtime per process: the library has no runtime definitions (only
  # the pass's weak fallbacks), the executable has them and exports them.
  local strong
  strong="$(nm --defined-only libchunk.so | grep -E " [TDBR] __coz_" || true)"
  [ -z "$strong" ] || fail "libchunk.so defines runtime symbols: $strong"
  nm_has prog " T __coz_register_module$" --defined-only ||
    fail "prog does not define __coz_register_module: runtime not linked"
  nm_has prog " T __coz_register_module$" -D --defined-only ||
    fail "prog does not export __coz_register_module to its libraries"
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/shared_main.c" "$PROGRAMS/shared_chunk.c"
  check_profile prog
  check_visits prog chunk 400
}

# -static executables (C and C++) use the --wrap runtime; no LD_PRELOAD,
# no dlsym.
static_one() {
  local driver="$1" src="$2" name="$3" kind
  run "$driver" -O2 -static "$PROGRAMS/$src" -o "$name"
  kind="$(file "$name")"
  grep -q "statically linked" <<<"$kind" || fail "$name is not static: $kind"
  run_profiled "$name" "./$name"
  check_matches_reference "$name" "$PROGRAMS/$src"
  check_profile "$name"
  check_visits "$name" chunk 400
}

case_static() {
  fresh_workdir
  static_one "$DRIVER_CC" work.c prog
  static_one "$DRIVER_CXX" work.cpp prog_cxx
}

# Plain clang with the plugin, linked -static with coz-runtime-static.pc
# (its --wrap list and archive), COZ_PASS_ARGS set by hand.
case_pkgconfig_static() {
  fresh_workdir
  export PKG_CONFIG_PATH="$COZ_BUILD/lib/pkgconfig"
  local plugin cflags libs line
  plugin="$(pkg-config --variable=plugin coz-runtime-static)"
  cflags="$(pkg-config --cflags coz-runtime-static)"
  libs="$(pkg-config --libs coz-runtime-static)"
  line="$(grep -n 'sum += result;' "$PROGRAMS/work.c" | cut -d: -f1)"
  # shellcheck disable=SC2086
  COZ_PASS_ARGS="--coz-progress=work.c:$line=summed" run "$COZ_TEST_CLANG" -O2 -g \
    -fpass-plugin="$plugin" $cflags -c "$PROGRAMS/work.c" -o work.o
  # shellcheck disable=SC2086
  run "$COZ_TEST_CLANG" -static work.o -o prog $libs
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/work.c"
  check_profile prog
  check_visits prog summed 400
}

# Response files: one holding only clang options is forwarded as @file, one
# holding a --coz- option is expanded by the driver (which consumes that
# option); nested @files work in both.
case_response_file() {
  fresh_workdir
  local line
  line="$(grep -n 'sum += result;' "$PROGRAMS/work.c" | cut -d: -f1)"
  printf '%s\n' "-O2" "'$PROGRAMS/work.c'" >sources.rsp
  printf '%s\n' "@sources.rsp" "-o prog" >plain.rsp
  printf '%s\n' "--coz-progress=work.c:$line=summed" "@plain.rsp" >coz.rsp
  run "$DRIVER_CC" @plain.rsp
  run_profiled plain ./prog
  check_matches_reference plain "$PROGRAMS/work.c"
  check_profile plain
  rm -f prog
  run "$DRIVER_CC" @coz.rsp
  run_profiled coz ./prog
  check_output coz "$EXPECTED_WORK"
  check_profile coz
  check_visits coz summed 400
}

# --coz-progress on the command line becomes a progress point in the pass.
case_coz_progress_option() {
  fresh_workdir
  local line
  line="$(grep -n 'sum += result;' "$PROGRAMS/work.c" | cut -d: -f1)"
  run "$DRIVER_CC" -O2 "--coz-progress=work.c:$line=summed" "$PROGRAMS/work.c" -o prog
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/work.c"
  check_profile prog
  check_visits prog summed 400
  check_visits prog chunk 400
}

# Source from standard input (`-x c -`), as configure scripts and tools do.
case_stdin() {
  fresh_workdir
  echo "+ $DRIVER_CC -O2 -x c - -o prog < work.c" >&2
  "$DRIVER_CC" -O2 -I"$PROGRAMS" -x c - -o prog <"$PROGRAMS/work.c" ||
    fail "compiling from stdin failed"
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/work.c"
  check_profile prog
}

# The installed tree (cmake --install) works on its own: coz-cc and the
# pkg-config file from the install prefix.
case_install_tree() {
  fresh_workdir
  run "$COZ_TEST_CMAKE" --install "$COZ_BUILD" --prefix "$COZ_WORK/prefix" >install.log
  for f in bin/coz-cc bin/coz-c++ lib/coz-cc/libCozPass.so lib/coz-cc/libcoz-rt.a \
    lib/coz-cc/libcoz-rt-static.a lib/coz-cc/coz-rt.exports include/coz-cc/coz.h \
    lib/pkgconfig/coz-runtime.pc lib/cmake/CozCC/CozCCConfig.cmake; do
    [ -e "prefix/$f" ] || fail "cmake --install did not install $f"
  done
  run prefix/bin/coz-cc -O2 "$PROGRAMS/work.c" -o prog
  run_profiled prog ./prog
  check_matches_reference prog "$PROGRAMS/work.c"
  check_profile prog
  local libs
  libs="$(PKG_CONFIG_PATH="$COZ_WORK/prefix/lib/pkgconfig" pkg-config --libs coz-runtime)"
  grep -qF "$COZ_WORK/prefix/lib/pkgconfig/../../lib/coz-cc/libcoz-rt.a" <<<"$libs" ||
    fail "installed coz-runtime.pc does not point into the install prefix: $libs"
}

"case_$1"
