"""Reads one line's causal profile out of `coz-report --json`.

The schema is coz-report/1 (docs/report.md); this module is the only place
the harness depends on it."""


def find_row(doc, source_name, line, point=None):
    """The plotted row of file:line (matched by path suffix) and point."""
    want = f"{source_name}:{line}"
    for row in doc.get("lines") or []:
        loc = row.get("location") or ""
        if not (loc == want or loc.endswith("/" + want)):
            continue
        if point is not None and row.get("point") != point:
            continue
        return row
    return None


def experiments(row):
    return row.get("experiments", 0)


def curve(row):
    """[(line speedup, program speedup, experiments)] for the results file."""
    return [(p["speedup"], p["program_speedup"], p["experiments"])
            for p in row.get("points") or []]


def enough(row, min_speedups, min_experiments, speedups):
    xs = sorted(p["speedup"] for p in row.get("points") or [])
    if len(xs) < min_speedups or experiments(row) < min_experiments:
        return False
    # The report interpolates between neighbours: want one on each side.
    return all(xs[0] <= s <= xs[-1] for s in speedups)


def enough_at(row, min_experiments, speedups):
    """The baseline and every s measured by >= min_experiments experiments."""
    by_s = {round(p["speedup"], 3): p["experiments"]
            for p in row.get("points") or []}
    return all(by_s.get(round(s, 3), 0) >= min_experiments
               for s in (0.0, *speedups))


def prediction(row, s):
    """The report's predicted program speedup at line speedup s (0..1)."""
    key = {0.25: "0.25", 0.5: "0.5", 1.0: "1"}[s]
    return (row.get("predicted") or {}).get(key)


def prediction_ci(row, s):
    key = {0.25: "0.25", 0.5: "0.5", 1.0: "1"}[s]
    return (row.get("predicted_ci") or {}).get(key)
