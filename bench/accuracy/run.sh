#!/bin/sh
# Accuracy suite (see run.py): bench/accuracy/run.sh [--bin build/bin] [--quick]
exec python3 "$(dirname "$0")/run.py" "$@"
