# cases_projects.sh CASE: existing build systems driving coz-cc, or plain
# clang with the plugin and the runtime link flags.
. "$(dirname "$0")/lib.sh"

PROJECTS="$COZ_TEST_SRC/projects"
export PKG_CONFIG_PATH="$COZ_BUILD/lib/pkgconfig"

# configure_and_build SRC BUILD CMAKE-ARGS...
configure_and_build() {
  local src="$1" build="$2"
  shift 2
  run "$COZ_TEST_CMAKE" -S "$src" -B "$build" -G "$COZ_TEST_GENERATOR" \
    -DCMAKE_MAKE_PROGRAM="$COZ_TEST_MAKE_PROGRAM" "$@" >"$build.configure.log"
  run "$COZ_TEST_CMAKE" --build "$build" --verbose >"$build.build.log"
}

check_chunk_app() {
  local exe="$1"
  run_profiled app "$exe"
  check_matches_reference app "$PROJECTS/cmake_app/main.c" "$PROJECTS/cmake_app/chunk.c"
  check_profile app
  check_visits app chunk 400
}

# CMAKE_C_COMPILER=coz-cc: compiler detection, try_compile checks and the
# build all go through the driver. Release has no -g: the driver adds line
# tables.
case_cmake_coz_cc() {
  fresh_workdir
  configure_and_build "$PROJECTS/cmake_app" build \
    -DCMAKE_C_COMPILER="$DRIVER_CC" -DCMAKE_BUILD_TYPE=Release
  grep -q 'CMAKE_C_COMPILER_ID "Clang"' build/CMakeFiles/*/CMakeCCompiler.cmake ||
    fail "CMake did not identify coz-cc as Clang"
  grep -q -- "/bin/coz-cc " build.build.log || fail "the build did not run coz-cc"
  check_chunk_app build/chunk_app
}

# Plain clang, the plugin on the compile line and `pkg-config --libs
# coz-runtime` on the link line: the README's recipe without the driver.
case_cmake_plain_pkgconfig() {
  fresh_workdir
  local plugin cflags libs
  plugin="$(pkg-config --variable=plugin coz-runtime)"
  cflags="$(pkg-config --cflags coz-runtime)"
  libs="$(pkg-config --libs coz-runtime)"
  [ -f "$plugin" ] || fail "pkg-config's plugin path $plugin does not exist"
  configure_and_build "$PROJECTS/cmake_app" build \
    -DCMAKE_C_COMPILER="$COZ_TEST_CLANG" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_C_FLAGS=-fpass-plugin=$plugin -gline-tables-only $cflags" \
    "-DCMAKE_EXE_LINKER_FLAGS=$libs"
  grep -q "/bin/coz-cc" build.build.log && fail "the plain-clang build ran coz-cc"
  check_chunk_app build/chunk_app
}

# find_package(CozCC) from the build tree: CozCC::instrument + CozCC::runtime.
case_cmake_package() {
  fresh_workdir
  configure_and_build "$PROJECTS/cmake_package_app" build \
    -DCMAKE_C_COMPILER="$COZ_TEST_CLANG" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCozCC_DIR="$COZ_BUILD/lib/cmake/CozCC"
  grep -q -- "-fpass-plugin=" build.build.log || fail "CozCC::instrument did not add the plugin"
  check_chunk_app build/chunk_app
}

# ./configure && make with CC=coz-cc: autoconf's compiler, preprocessor,
# header, library and run checks must pass.
case_autotools() {
  fresh_workdir
  command -v autoconf >/dev/null ||
    fail "autoconf is not installed: run scripts/setup.sh (apt-get install autoconf)"
  mkdir src
  cp "$PROJECTS/autotools_app/configure.ac" "$PROJECTS/autotools_app/Makefile.in" src/
  cp "$PROJECTS/cmake_app/main.c" "$PROJECTS/cmake_app/chunk.c" "$PROJECTS/cmake_app/chunk.h" src/
  cd src || fail "no src folder"
  run autoconf
  run autoheader
  run ./configure CC="$DRIVER_CC" >configure.out
  grep -q "^#define HAVE_COZ_H 1" config.h || fail "configure did not find coz.h through coz-cc"
  grep -q "^#define HAVE_PTHREAD_H 1" config.h || fail "configure did not find pthread.h"
  grep -q "^#define HAVE_CLOCK_GETTIME 1" config.h || fail "configure's link check of clock_gettime failed"
  grep -q "^#define SIZEOF_LONG 8" config.h || fail "configure's sizeof check failed"
  run make >make.out
  grep -q "coz-cc" make.out || fail "make did not use coz-cc"
  cd "$COZ_WORK" || fail "cannot return to $COZ_WORK"
  check_chunk_app src/chunk_app
}

"case_$1"
