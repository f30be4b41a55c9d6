"""Candidate progress points (issue 22), end to end with coz-cc: the demo
without its progress point records candidates, counted as their
--coz-progress=FILE:LINE would count, and names the best at exit; a real
point suppresses them; profiling with the first suggestion of
`coz-report suggest` ranks the demo's bottleneck first."""
import json
import os
import re
import subprocess
import tempfile

import rtlib
from rtlib import fail, favour, parse_profile
from terminal import run_on_terminal

DEMO_POINT = 'COZ_PROGRESS_NAMED("round");'


def unannotated(d):
    """examples/two_stages.c with its progress point removed, in d."""
    with open(rtlib.ARGS.example) as f:
        src = f.read()
    if DEMO_POINT not in src:
        fail("%s has no %s to remove" % (rtlib.ARGS.example, DEMO_POINT))
    path = os.path.join(d, "two_stages.c")
    with open(path, "w") as f:
        f.write(src.replace(DEMO_POINT, ";"))
    return path


def line_with(path, text):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return n
    fail("no line with %r in %s" % (text, path))


def build(srcs, exe, options=()):
    p = subprocess.run([rtlib.ARGS.coz_cc, "-O2", *options, *srcs, "-o", exe],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    if p.returncode != 0:
        fail("coz-cc failed: %s" % p.stdout)


def run_demo(exe, profile, rounds, tty=False, experiment="50"):
    e = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")}
    e.update({"COZ_OUTPUT": profile, "COZ_EXPERIMENT": experiment,
              "COZ_COOLOFF": "10", "COZ_SAMPLER": rtlib.ARGS.sampler})
    cmd = [exe, str(rounds)]
    if tty:
        p = run_on_terminal(cmd, e, 120, preexec_fn=favour)
    else:
        p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120,
                           preexec_fn=favour)
    if p.returncode != 0 or "rounds, result" not in p.stdout:
        fail("%s exited with %d: %r" % (exe, p.returncode, p.stderr))
    return p


def totals(recs):
    return {r["point"]: r for t, r in recs if t == "runtime" and "point" in r}


def test_suggest_unannotated():
    """Candidates stand in: experiments carry them (candidate=1), the run
    totals count the stage loop's header once per iteration plus once per
    run of the loop in each of the two threads, and mix's return once per
    call; silent on a pipe, the exit notice names an option on a
    terminal."""
    d = tempfile.mkdtemp()
    src = unannotated(d)
    exe = os.path.join(d, "two_stages")
    build([src], exe)
    rounds = 600
    loop = "%s:%d" % (src, line_with(src, "for (int r = 0; r < rounds;"))
    ret = "%s:%d" % (src, line_with(src, "return x;"))
    out = os.path.join(d, "p.coz")
    p = run_demo(exe, out, rounds)
    exps, _, recs = parse_profile(out)
    points = [r for t, r in recs if t == "throughput-point"]
    tot = totals(recs)
    moved = sum(x["points"].get(loop, {}).get("delta", 0) for x in exps)
    print("pipe: stderr %r; %d experiments, %d point lines, stage loop %s "
          "advanced %d in experiments; totals %s"
          % (p.stderr, len(exps), len(points), loop, moved,
             {k: v["visits"] for k, v in tot.items()}))
    ok = p.stderr == "" and len(exps) >= 3 and moved > 0
    ok &= bool(points) and all(r.get("candidate") == "1" for r in points)
    ok &= bool(tot) and all(r.get("candidate") == "1" for r in tot.values())
    ok &= loop in tot and int(tot[loop]["visits"]) == 2 * (rounds + 1)
    ok &= ret in tot and int(tot[ret]["visits"]) == rounds
    t = run_demo(exe, os.path.join(d, "t.coz"), rounds, tty=True)
    m = re.search(r"candidate points? stood in; the steadiest: "
                  r"--coz-progress=two_stages\.c:(\d+) \(", t.stderr)
    print("terminal: %r" % t.stderr)
    ok &= m is not None and "%s:%s" % (src, m.group(1)) in tot
    print("suggest unannotated: %s" % ("ok" if ok else "FAILED"))
    return ok


def test_suggest_suppressed():
    """A program with a point of its own, in another module than the
    candidates and never reached, records no candidate anywhere and its
    exit notice says no point was reached."""
    d = tempfile.mkdtemp()
    src = unannotated(d)
    own = os.path.join(d, "own.c")
    with open(own, "w") as f:
        f.write("#include <coz.h>\n"
                "void never_called(void) { COZ_PROGRESS_NAMED(\"own\"); }\n")
    exe = os.path.join(d, "two_stages")
    build([src, own], exe)
    out = os.path.join(d, "p.coz")
    t = run_demo(exe, out, 600, tty=True)
    with open(out) as f:
        text = f.read()
    exps, _, recs = parse_profile(out)
    print("%d experiments; 'candidate' in profile: %s; terminal: %r"
          % (len(exps), "candidate" in text, t.stderr))
    ok = len(exps) >= 3 and "candidate" not in text
    ok &= "own" in totals(recs)
    ok &= "no progress point was reached" in t.stderr
    ok &= "candidate" not in t.stderr
    print("suggest suppressed: %s" % ("ok" if ok else "FAILED"))
    return ok


def report_json(args):
    p = subprocess.run([rtlib.ARGS.coz_report, *args, "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    if p.returncode not in (0, 1):
        fail("coz-report %s: exit %d %s" % (args, p.returncode, p.stderr))
    return json.loads(p.stdout)


def test_suggest_end_to_end():
    """The first suggestion, pasted into the build, profiles the demo: the
    top line of the ranking is in mix, the stage the barrier waits for."""
    d = tempfile.mkdtemp()
    src = unannotated(d)
    exe = os.path.join(d, "two_stages")
    build([src], exe)
    first = os.path.join(d, "first.coz")
    run_demo(exe, first, 600)
    s = report_json(["suggest", first])
    if not s["candidates"]:
        fail("no suggestion: %s" % s.get("message"))
    option = s["candidates"][0]["option"]
    print("suggestions: %s" % [(c["option"], round(c["noise"] or -1, 3))
                               for c in s["candidates"]])
    if not re.fullmatch(r"--coz-progress=two_stages\.c:\d+", option):
        fail("unexpected option %r" % option)
    build([src], exe, [option])
    second = os.path.join(d, "second.coz")
    for _ in range(2):
        run_demo(exe, second, 1200, experiment="100")
    r = report_json(["--min-points", "3", second])
    lo = line_with(src, "static uint64_t mix(")
    hi = line_with(src, "static uint64_t scramble(")
    ranked = [(x["line"], x["point"], round(x["slope"], 3))
              for x in r["lines"]]
    print("with %s: %d experiments, ranked %s" % (option, r["experiments"],
                                                  ranked))
    point = option.split("=", 1)[1]
    ok = bool(ranked) and lo < ranked[0][0] < hi and ranked[0][2] > 0.1
    ok &= all(x[1] == point for x in ranked)
    with open(second) as f:
        ok &= "candidate" not in f.read()
    print("suggest end to end: %s" % ("ok" if ok else "FAILED"))
    return ok
