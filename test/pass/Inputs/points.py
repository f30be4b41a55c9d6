#!/usr/bin/env python3
"""Prints COZ_PASS_ARGS for a test source: one option per line for every
line that carries a `coz-point: KIND [NAME]` comment (KIND: progress, begin,
end), so tests name lines by marker instead of by number."""
import os
import re
import sys

path = sys.argv[1]
shown = sys.argv[2] if len(sys.argv) > 2 else os.path.basename(path)
out = []
with open(path) as f:
    for number, text in enumerate(f, 1):
        m = re.search(r"coz-point: (progress|begin|end)(?: (\S+))?", text)
        if not m or "points.py" in text:
            continue
        opt = "--coz-%s=%s:%d" % (m.group(1), shown, number)
        if m.group(2):
            opt += "=" + m.group(2)
        out.append(opt)
print("\n".join(out))
