"""Debian's SQLite, fetched and turned into the amalgamation at benchmark time.

The startup benchmark wants a large real program, and third-party sources
are not committed. The source package comes from `apt-get source`
(bench/dropin/debsrc.py: a private deb-src list when the machine has none);
SQLite's own build then makes sqlite3.c and shell.c from the source tree (it
needs tclsh and make). Everything lands in one work directory and is reused
by later runs.
"""

import shutil
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH / "accuracy"))
sys.path.insert(0, str(BENCH / "dropin"))
import benchlib as bl  # noqa: E402
import debsrc  # noqa: E402

PACKAGE = "sqlite3"


def version(work: Path) -> str:
    """The Debian version of the fetched package, from its .dsc name."""
    return debsrc.version(PACKAGE, work)


def amalgamation(work: Path) -> list:
    """[sqlite3.c, shell.c] of Debian's SQLite (sqlite3.h beside them)."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "amalgamation"
    files = [out / "sqlite3.c", out / "shell.c"]
    if all(f.exists() for f in files):
        return files
    for tool in ("apt-get", "dpkg-source", "tclsh", "make"):
        if shutil.which(tool) is None:
            bl.die(f"'{tool}' not found: the SQLite startup benchmark needs "
                   "apt-get, dpkg-dev, tcl and make (apt-get install dpkg-dev "
                   "tcl make), or use --startup-program synthetic")
    try:
        src = debsrc.fetch(PACKAGE, work)
    except debsrc.AptError as e:
        bl.die(f"{e}; or use --startup-program synthetic")
    tree = work / "build"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(src, tree, symlinks=True)
    # The amalgamation is a make target of SQLite's own build (tclsh joins
    # the sources); the Tcl extension is not needed for it.
    bl.run(["./configure", "--disable-tcl"], cwd=tree)
    bl.run(["make", "sqlite3.c", "shell.c"], cwd=tree)
    out.mkdir(exist_ok=True)
    for name in ("sqlite3.c", "sqlite3.h", "shell.c"):
        shutil.copy(tree / name, out / name)
    shutil.rmtree(tree)
    return files
