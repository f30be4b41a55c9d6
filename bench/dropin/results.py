"""Per-test results of a test-suite run, read from the package's own harness.

Each reader returns {test name: status}, status one of PASS, FAIL, SKIP,
XFAIL (an expected failure: counts as passed) or ERROR. The survey compares
these maps between the plain and the coz-cc build, so a test that passes in
one and fails in the other is named, not hidden in an exit code.
"""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

PASSED = ("PASS", "XFAIL")

_AUTOMAKE = {"PASS": "PASS", "FAIL": "FAIL", "SKIP": "SKIP",
             "XFAIL": "XFAIL", "XPASS": "FAIL", "ERROR": "ERROR"}
_MESON = {"OK": "PASS", "FAIL": "FAIL", "SKIP": "SKIP",
          "EXPECTEDFAIL": "XFAIL", "UNEXPECTEDPASS": "FAIL",
          "TIMEOUT": "ERROR", "ERROR": "ERROR"}


def automake(tree: Path, _output: str) -> dict:
    """Automake's parallel harness: one .trs file per test script."""
    found = {}
    for trs in sorted(tree.rglob("*.trs")):
        text = trs.read_text(errors="replace")
        m = re.search(r"^:global-test-result:\s*(\S+)", text, re.M)
        if m is None:
            m = re.search(r"^:test-result:\s*(\S+)", text, re.M)
        if m:
            found[str(trs.relative_to(tree).with_suffix(""))] = \
                _AUTOMAKE.get(m.group(1), "ERROR")
    return found


def ctest_junit(junit: Path) -> dict:
    """ctest --output-junit FILE: one <testcase> per test."""
    if not junit.exists():
        return {}
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        status = case.get("status", "")
        if case.find("failure") is not None or status == "fail":
            found[case.get("name")] = "FAIL"
        elif status in ("notrun", "disabled") or \
                case.find("skipped") is not None:
            found[case.get("name")] = "SKIP"
        else:
            found[case.get("name")] = "PASS"
    return found


def meson(testlog: Path) -> dict:
    """meson test's meson-logs/testlog.json: one JSON object per line."""
    if not testlog.exists():
        return {}
    found = {}
    for line in testlog.read_text().splitlines():
        if line.strip():
            entry = json.loads(line)
            found[entry["name"]] = _MESON.get(entry.get("result"), "ERROR")
    return found


_PROVE = re.compile(r"^(\S+\.t) \.+ ?(ok|skipped|Failed|Dubious|"
                    r"No subtests run|Parse errors)", re.M)


def prove(_tree: Path, output: str) -> dict:
    """Perl's prove: `t/name.t ...... ok` (or skipped, Failed N/M, ...)."""
    found = {}
    for name, word in _PROVE.findall(output):
        found[name] = {"ok": "PASS", "skipped": "SKIP"}.get(word, "FAIL")
    return found


def by_pattern(pattern: str, output: str) -> dict:
    """Lines matching PATTERN (named groups `name`, and `bad` when the line
    reports a failure): each is a passed test unless `bad` matched."""
    found = {}
    for m in re.finditer(pattern, output, re.M):
        bad = m.groupdict().get("bad")
        found[m.group("name")] = "FAIL" if bad else "PASS"
    return found


def count(results: dict) -> tuple:
    """(passed, total) of one run's results."""
    return sum(s in PASSED for s in results.values()), len(results)


def differences(plain: dict, coz: dict) -> list:
    """[(test, plain status, coz-cc status)] where they differ."""
    names = sorted(set(plain) | set(coz))
    return [(n, plain.get(n, "absent"), coz.get(n, "absent")) for n in names
            if plain.get(n, "absent") != coz.get(n, "absent")]
