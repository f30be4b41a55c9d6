#!/usr/bin/env bash
# demo.sh: set up (scripts/setup.sh), then profile examples/two_stages.c:
# compile it with coz-cc, run it (the runtime writes the causal profile) and
# print the profile with coz-report.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${COZ_BUILD_DIR:-$ROOT/build}"
DEMO_DIR="$BUILD_DIR/demo"

"$ROOT/scripts/setup.sh"

mkdir -p "$DEMO_DIR"
cd "$DEMO_DIR"
rm -f profile.coz
set -x
"$BUILD_DIR/bin/coz-cc" -O2 "$ROOT/examples/two_stages.c" -o two_stages
COZ_OUTPUT="$DEMO_DIR/profile.coz" ./two_stages
"$BUILD_DIR/bin/coz-report" --html "$DEMO_DIR/profile.html" "$DEMO_DIR/profile.coz"
{ set +x; } 2>/dev/null
echo
echo "demo.sh: profile in $DEMO_DIR/profile.coz, plots in $DEMO_DIR/profile.html"
