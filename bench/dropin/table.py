"""The survey's table (docs/results.md, "Drop-in survey") and progress lines."""

import results


# A flavour not run (--quick has no plain build) is None and shows as "-".

def _built(r) -> str:
    return "-" if r is None else "ok" if r["built"] else "FAILED"


def _passed(r) -> str:
    if r is None or not r["built"]:
        return "-"
    passed, total = results.count(r["tests"])
    skipped = sum(s == "SKIP" for s in r["tests"].values())
    return f"{passed}/{total}" + (f" ({skipped} skipped)" if skipped else "")


def _seconds(r, key: str) -> str:
    if r is None or r.get(key) is None:
        return "-"
    return f"{r[key]:.{2 if r[key] < 1 else 1}f}"


def _ratio(s: dict, key: str) -> str:
    if s["plain"] is None:
        return "-"
    a, b = s["plain"].get(key), s["coz"].get(key)
    return f"{b / a:.2f}x" if a and b else "-"


def summary_line(s: dict) -> str:
    p, c = s["plain"], s["coz"]
    return (f"{s['package']} {s['version']}: built {_built(p)} / {_built(c)}, "
            f"tests {_passed(p)} / {_passed(c)}, test time "
            f"{_seconds(p, 'test_s')} / {_seconds(c, 'test_s')} s (CPU "
            f"{_seconds(p, 'test_cpu_s')} / {_seconds(c, 'test_cpu_s')} s), "
            f"{len(s['differences'])} difference(s), "
            f"{len(c['profiles'])} profile file(s) written")


def _notes(s: dict) -> str:
    parts = [s["note"]] if s["note"] else []
    profiles = len(s["coz"]["profiles"])
    if profiles:
        parts.append(f"{profiles} profile file(s) in the coz-cc tree")
    if s["differences"]:
        parts.append(f"{len(s['differences'])} difference(s): "
                     + "; ".join(s["differences"][:3]))
    return " ".join(p.rstrip(".") + "." for p in parts).replace("|", "\\|")


def markdown(surveyed: list) -> str:
    rows = ["| package | version | build system | language | builds plain / "
            "coz-cc | tests passed plain / coz-cc | test suite (s) plain / "
            "coz-cc | ratio | test CPU (s) plain / coz-cc | build (s) plain / coz-cc "
            "| notes |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in surveyed:
        p, c = s["plain"], s["coz"]
        rows.append(
            f"| {s['package']} | {s['version']} | {s['system']} | "
            f"{s['lang']} | {_built(p)} / {_built(c)} | {_passed(p)} / "
            f"{_passed(c)} | {_seconds(p, 'test_s')} / {_seconds(c, 'test_s')}"
            f" | {_ratio(s, 'test_s')} | {_seconds(p, 'test_cpu_s')} / "
            f"{_seconds(c, 'test_cpu_s')} | {_seconds(p, 'build_s')} / "
            f"{_seconds(c, 'build_s')} | {_notes(s)} |")
    return "\n".join(rows) + "\n"

