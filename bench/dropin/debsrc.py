"""Debian source packages and build dependencies for the benchmarks.

`apt-get source` needs deb-src entries, which a default Debian 12 install
lacks. When the machine's own apt configuration knows no source package of
that name, a private source list and a private package-list directory under
the work directory are used instead (`-o Dir::...`): the machine's apt
configuration is read, never changed. Downloads land in the work directory
and are reused by later runs.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


class AptError(Exception):
    """An apt command failed; the message says which and why."""


def codename() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    raise AptError("/etc/os-release names no VERSION_CODENAME: Debian "
                   "source packages need a Debian (or derived) system")


def _private_options(work: Path) -> list:
    return ["-o", f"Dir::Etc::SourceList={work / 'deb-src.sources'}",
            "-o", "Dir::Etc::SourceParts=/dev/null",
            "-o", f"Dir::State::Lists={work / 'apt-lists'}"]


def _apt(cmd: list, cwd: Path, what: str) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise AptError(f"{what} failed ({last}): check that "
                       f"{MIRROR} is reachable")
    return p


def _machine_knows(package: str) -> bool:
    """True when the machine's own apt configuration has a deb-src entry
    that provides the source package."""
    p = subprocess.run(["apt-cache", "showsrc", "--only-source", package],
                       capture_output=True, text=True)
    return p.returncode == 0 and "\nVersion:" in "\n" + p.stdout


def _private_sources(work: Path) -> list:
    """The -o options of the private deb-src list, updated once."""
    lists = work / "apt-lists"
    if not (work / "deb-src.sources").exists() or not any(
            lists.glob("*Sources*")):
        (lists / "partial").mkdir(parents=True, exist_ok=True)
        (work / "deb-src.sources").write_text(
            f"Types: deb-src\nURIs: {MIRROR}\nSuites: {codename()}\n"
            f"Components: main\nSigned-By: {KEYRING}\n")
        _apt(["apt-get", "-q", *_private_options(work),
              "-o", "APT::Sandbox::User=root", "update"], work,
             "apt-get update (private deb-src list)")
    return _private_options(work)


def fetch(package: str, work: Path, force_private=False) -> Path:
    """Downloads and unpacks (with Debian's patches) the source package
    into WORK once; returns the unpacked tree."""
    work.mkdir(parents=True, exist_ok=True)
    found = unpacked(package, work)
    if found:
        return found
    if shutil.which("dpkg-source") is None:
        raise AptError("dpkg-source not found: apt-get install dpkg-dev")
    options = [] if not force_private and _machine_knows(package) \
        else _private_sources(work)
    _apt(["apt-get", "-q", *options, "-o", "APT::Sandbox::User=root",
          "source", "--only-source", package], work,
         f"apt-get source {package}")
    found = unpacked(package, work)
    if not found:
        raise AptError(f"apt-get source {package} unpacked no tree in {work}")
    return found


def unpacked(package: str, work: Path):
    """The tree `apt-get source PACKAGE` unpacked in WORK, or None."""
    for dsc in sorted(work.glob(f"{package}_*.dsc")):
        upstream = dsc.name[len(package) + 1:-len(".dsc")].split(":")[-1]
        tree = work / f"{package}-{upstream.rsplit('-', 1)[0]}"
        if tree.is_dir():
            return tree
    return None


def version(package: str, work: Path) -> str:
    """The Debian version of the fetched package, from its .dsc name."""
    dsc = sorted(work.glob(f"{package}_*.dsc"))
    return dsc[0].name[len(package) + 1:-len(".dsc")] if dsc else "unknown"


def missing_packages(names) -> list:
    def installed(name):
        p = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name],
                           capture_output=True, text=True)
        return "install ok installed" in p.stdout
    return [n for n in names if not installed(n)]


def install(names, log=sys.stderr) -> None:
    """Installs the Debian packages of NAMES that are missing (as root, or
    through sudo)."""
    missing = missing_packages(names)
    if not missing:
        return
    sudo = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise AptError(f"need root or sudo to install: {' '.join(missing)}")
        sudo = ["sudo"]
    print(f"installing {' '.join(missing)}", file=log, flush=True)
    apt = [*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q",
           "-o", "DPkg::Lock::Timeout=600"]
    p = subprocess.run([*apt, "install", "-y", "--no-install-recommends",
                        *missing], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        # The package lists may be missing or stale (a fresh machine).
        _apt([*apt, "update"], Path("/"), "apt-get update")
        _apt([*apt, "install", "-y", "--no-install-recommends", *missing],
             Path("/"), f"apt-get install {' '.join(missing)}")
