#!/usr/bin/env python3
"""Writes a synthetic C program of about N source lines (default 250000)
spread over several files, for timing the line map's build.

Usage: gen_program.py OUTDIR [LINES] [FILES]
Each file holds functions with loops, branches and switches so that the
optimized line tables look like real code (many rows, inlining, several
sequences per unit); main.c calls every function so nothing is dropped."""
import os
import random
import sys


def function(rng, name):
    lines = [f"__attribute__((noinline)) long {name}(long x, long y) {{",
             "  long acc = x ^ y;"]
    for i in range(rng.randint(6, 14)):
        kind = rng.randint(0, 3)
        if kind == 0:
            lines += [f"  for (long i = 0; i < (y & {rng.randint(3, 63)}); i++) {{",
                      f"    acc = acc * {rng.randint(3, 97)} + (i ^ x);",
                      f"    acc ^= acc >> {rng.randint(1, 17)};",
                      "  }"]
        elif kind == 1:
            lines += [f"  if ((acc & {rng.randint(1, 255)}) > {rng.randint(1, 200)}) {{",
                      f"    acc += helper_{rng.randint(0, 7)}(acc, x);",
                      "  } else {",
                      f"    acc -= y * {rng.randint(2, 50)};",
                      "  }"]
        elif kind == 2:
            lines += [f"  switch (acc & 3) {{",
                      f"  case 0: acc += {rng.randint(1, 999)}; break;",
                      f"  case 1: acc ^= x << {rng.randint(1, 9)}; break;",
                      f"  case 2: acc = helper_{rng.randint(0, 7)}(y, acc); break;",
                      "  default: acc--; break;",
                      "  }"]
        else:
            lines += [f"  acc = (acc << {rng.randint(1, 7)}) | (acc >> {rng.randint(8, 40)});",
                      f"  y = y * {rng.randint(3, 1000)} + acc;"]
    lines += ["  return acc + y;", "}", ""]
    return lines


def main():
    out = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 250000
    n_files = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    rng = random.Random(42)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "helpers.h"), "w") as f:
        for h in range(8):
            f.write(f"static inline long helper_{h}(long a, long b) {{\n"
                    f"  long r = a * {h + 3} + b;\n"
                    f"  r ^= r >> {h + 5};\n"
                    f"  return r + {h};\n}}\n")
    names = []
    per_file = total // n_files
    for i in range(n_files):
        lines = ['#include "helpers.h"', ""]
        k = 0
        while len(lines) < per_file:
            name = f"f{i}_{k}"
            k += 1
            names.append(name)
            lines += function(rng, name)
        with open(os.path.join(out, f"unit{i}.c"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write("typedef long (*fn)(long, long);\n")
        for n in names:
            f.write(f"long {n}(long, long);\n")
        f.write("fn bench_functions[] = {\n")
        for n in names:
            f.write(f"  {n},\n")
        f.write("};\nunsigned long bench_n_functions = "
                f"{len(names)};\n")


main()
