#!/usr/bin/env bash
# setup.sh: everything coz-cc needs on a fresh Debian 12 machine, done once.
#
# Installs the Debian packages that are missing (apt-get; through sudo when
# not root), then configures and builds the tree with CMake and Ninja. Safe
# to run again: it installs nothing that is there and rebuilds only what
# changed. Used by demo.sh and test.sh.
#
# Environment:
#   COZ_BUILD_DIR      build directory (default: <repo>/build)
#   COZ_LLVM_VERSION   LLVM major of the plugin: 14 (default), 15, 16 or 19
#                      (the majors Debian 12 ships; use one build dir per major)
#   COZ_JOBS           parallel build jobs (default 2)
#   COZ_TARGETS        ninja targets to build, blank-separated (default: all)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COZ_BUILD_DIR:-$ROOT/build}"
LLVM_MAJOR="${COZ_LLVM_VERSION:-14}"
JOBS="${COZ_JOBS:-2}"
read -ra TARGETS <<<"${COZ_TARGETS:-}"

# The sanitizer runtimes the report's fuzz target links: their own package
# from LLVM 16 on (and for 14), part of clang's libclang-common-N-dev in 15.
case "$LLVM_MAJOR" in
14 | 16 | 19) SANITIZER_RUNTIME=("libclang-rt-$LLVM_MAJOR-dev") ;;
15) SANITIZER_RUNTIME=() ;;
*)
  echo "setup.sh: COZ_LLVM_VERSION=$LLVM_MAJOR is not supported: use 14, 15, 16 or 19" >&2
  exit 1
  ;;
esac
# The tests check that coz-cc refuses a clang of another major.
if [ "$LLVM_MAJOR" = 14 ]; then OTHER_MAJOR=19; else OTHER_MAJOR=14; fi

# Build tools, the plugin's clang and LLVM (FileCheck and lit come with the
# tools), another major's clang, the runtime's and the report's libraries,
# and what the test suites use (autoconf for the configure test, file,
# allocators for the runtime tests, chromium for the HTML report) and the
# overhead benchmark and the drop-in test (tcl: SQLite's build makes its
# amalgamation; dpkg-dev: `apt-get source` unpacks with dpkg-source;
# valgrind: runtime.valgrind).
PACKAGES=(
  cmake ninja-build make pkg-config file binutils python3 autoconf
  "clang-$LLVM_MAJOR" "clang-$OTHER_MAJOR" "llvm-$LLVM_MAJOR-dev"
  "llvm-$LLVM_MAJOR-tools" "${SANITIZER_RUNTIME[@]}"
  libdwarf-dev libelf-dev libjansson-dev zlib1g-dev libbz2-dev
  libjemalloc-dev libgoogle-perftools-dev
  chromium tcl dpkg-dev valgrind
)

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

install_missing_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    is_installed "$pkg" || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup.sh: all Debian packages present"
    return
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  echo "setup.sh: installing ${missing[*]}"
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
    -o DPkg::Lock::Timeout=600)
  "${apt[@]}" update -q
  "${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOZ_LLVM_VERSION="$LLVM_MAJOR"
  ninja -C "$BUILD_DIR" -j "$JOBS" "${TARGETS[@]}"
}

install_missing_packages
configure_and_build
echo "setup.sh: built in $BUILD_DIR (coz-cc: $BUILD_DIR/bin/coz-cc)"
