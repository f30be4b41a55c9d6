"""Reads one line's causal profile out of `coz-report --json`.

The schema is the report's (docs/report.md); this module is the only place
the harness depends on it."""


def _rows(doc):
    return doc.get("rows") or doc.get("lines") or []


def find_row(doc, source_name, line, point=None):
    """The kept row of file:line (matched by path suffix) and progress point."""
    want = f"{source_name}:{line}"
    for row in _rows(doc):
        name = row.get("line") or row.get("selected") or ""
        if not (name == want or name.endswith("/" + want)):
            continue
        if point is not None and row.get("point") != point:
            continue
        return row
    return None


def measures(row):
    return row.get("measures") or row.get("points") or []


def experiments(row):
    return sum(m.get("experiments", 0) for m in measures(row))


def curve(row):
    """[(speedup, program speedup, experiments)] for the results file."""
    return [(m.get("speedup"), m.get("y", m.get("program_speedup")),
             m.get("experiments")) for m in measures(row)]


def enough(row, min_speedups, min_experiments, speedups):
    ms = [m for m in measures(row) if m.get("valid", True)]
    xs = sorted(m["speedup"] for m in ms)
    if len(xs) < min_speedups or experiments(row) < min_experiments:
        return False
    # Interpolation at s needs a measure on each side of it.
    return all(xs[0] <= s <= xs[-1] for s in speedups)


def prediction(row, s):
    """The report's predicted program speedup at line speedup s (0..1)."""
    preds = row.get("predictions") or row.get("predicted") or {}
    for key in (f"{int(round(100 * s))}", f"{int(round(100 * s))}%", s):
        if key in preds and preds[key] is not None:
            v = preds[key]
            return v["y"] if isinstance(v, dict) else v
    return None
