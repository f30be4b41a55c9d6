#!/bin/bash
# Finds (or, as root, installs) Debian's chromium and runs browser_test.js.
# Fails, never skips, when chromium cannot be found.
# usage: browser_test.sh COZ_REPORT WORKDIR SCREENSHOT.png
set -u
here=$(dirname "$0")
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" -eq 0 ]; then
  echo "chromium missing: installing Debian's chromium" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "FAIL: /usr/bin/chromium not found; install it with: apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v node >/dev/null; then
  echo "FAIL: node not found; install it with: apt-get install -y nodejs" >&2
  exit 1
fi
exec node "$here/browser_test.js" "$1" /usr/bin/chromium "$2" "$3"
