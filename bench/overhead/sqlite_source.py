"""Debian's SQLite, fetched and turned into the amalgamation at benchmark time.

The startup benchmark wants a large real program, and third-party sources
are not committed. `apt-get source` needs deb-src entries, which a default
Debian 12 install lacks, so this uses a private source list and a private
package-list directory (`-o Dir::...`): the machine's apt configuration is
read, never changed. SQLite's own build then makes sqlite3.c and shell.c
from the source tree (it needs tclsh and make). Everything lands in one
work directory and is reused by later runs.
"""

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "accuracy"))
import benchlib as bl  # noqa: E402

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
PACKAGE = "sqlite3"


def _codename() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    bl.die("/etc/os-release names no VERSION_CODENAME: the SQLite startup "
           "benchmark needs Debian (use --startup-program synthetic)")
    return ""


def _apt(work: Path, *args):
    p = bl.run(["apt-get", "-q",
                "-o", f"Dir::Etc::SourceList={work / 'deb-src.sources'}",
                "-o", "Dir::Etc::SourceParts=/dev/null",
                "-o", f"Dir::State::Lists={work / 'apt-lists'}",
                "-o", "APT::Sandbox::User=root", *args], check=False, cwd=work)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        bl.die(f"apt-get {' '.join(args)} failed ({last}): "
               "check that deb.debian.org is reachable, or use "
               "--startup-program synthetic")


def _download(work: Path) -> Path:
    """Fetches the source package once; returns its .orig.tar.xz."""
    pattern = f"{PACKAGE}_*.orig.tar.xz"
    if not list(work.glob(pattern)):
        (work / "apt-lists" / "partial").mkdir(parents=True, exist_ok=True)
        (work / "deb-src.sources").write_text(
            f"Types: deb-src\nURIs: {MIRROR}\nSuites: {_codename()}\n"
            f"Components: main\nSigned-By: {KEYRING}\n")
        _apt(work, "update")
        _apt(work, "source", "--download-only", PACKAGE)
    found = sorted(work.glob(pattern))
    if not found:
        bl.die(f"apt-get source {PACKAGE} fetched no {pattern}: use "
               "--startup-program synthetic")
    return found[0]


def version(work: Path) -> str:
    """The Debian version of the fetched package, from its .dsc name."""
    dsc = sorted(work.glob(f"{PACKAGE}_*.dsc"))
    return dsc[0].name[len(PACKAGE) + 1:-len(".dsc")] if dsc else "unknown"


def amalgamation(work: Path) -> list:
    """[sqlite3.c, shell.c] of Debian's SQLite (sqlite3.h beside them)."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "amalgamation"
    files = [out / "sqlite3.c", out / "shell.c"]
    if all(f.exists() for f in files):
        return files
    for tool in ("apt-get", "tclsh", "make"):
        if shutil.which(tool) is None:
            bl.die(f"'{tool}' not found: the SQLite startup benchmark needs "
                   "apt-get, tcl and make (apt-get install tcl make), or use "
                   "--startup-program synthetic")
    orig = _download(work)
    tree = work / "src"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir()
    bl.run(["tar", "-xJf", str(orig), "-C", str(tree)])
    top = next(tree.iterdir())
    # The amalgamation is a make target of SQLite's own build (tclsh joins
    # the sources); the Tcl extension is not needed for it.
    bl.run(["./configure", "--disable-tcl"], cwd=top)
    bl.run(["make", "sqlite3.c", "shell.c"], cwd=top)
    out.mkdir(exist_ok=True)
    for name in ("sqlite3.c", "sqlite3.h", "shell.c"):
        shutil.copy(top / name, out / name)
    shutil.rmtree(tree)
    return files
