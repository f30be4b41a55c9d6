#!/usr/bin/env bash
# test.sh: set up (scripts/setup.sh), then run the whole test suite.
# On a fresh Debian 12 machine: installs, builds, tests. CI runs exactly this.
# Extra arguments go to ctest (e.g. `scripts/test.sh -L driver`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COZ_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/setup.sh"
ctest --test-dir "$BUILD_DIR" -j "${COZ_JOBS:-2}" --output-on-failure "$@"
