"""The packages of the drop-in survey, and how each builds and tests itself.

Every command is the package's own (its configure script, its Makefile, its
CMake or meson files, its test harness) as a user would type it. The survey
runs each twice in fresh copies of the source, with CC/CXX set to plain
clang or to coz-cc/coz-c++ and CFLAGS=CXXFLAGS="-O2 -g" in the environment,
nothing else changed. Commands are bash lines run in the copy's top
directory; {jobs} is the parallel job count, {tree} the copy's path and
{here} this folder.

A package whose harness reports no per-test results lists its test commands
separately: each command is then one test (passed when it exits 0).
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import results


@dataclass
class Package:
    name: str             # Debian source package
    system: str           # build system, for the table
    lang: str
    deps: list            # Debian packages needed to build and test it
    build: list           # configure + build (+ building the test programs)
    test: list            # the test suite: the timed part
    parse: object = None  # (tree, output) -> {test: status}; None: per command
    config: list = field(default_factory=list)  # generated config headers
    note: str = ""        # what is not the plain default, said in the table
    flags: str = ""       # added to CFLAGS and CXXFLAGS of both builds
    # (build, test) of the CI subset (--quick, the coz-cc build alone), or
    # None when the package is not part of it.
    quick: tuple = None


def _ctest(tree: Path, _output: str) -> dict:
    return results.ctest_junit(tree / "_build" / "junit.xml")


def _meson(tree: Path, _output: str) -> dict:
    return results.meson(tree / "_build" / "meson-logs" / "testlog.json")


def _pattern(pattern):
    return lambda _tree, output: results.by_pattern(pattern, output)


def _memcached(tree: Path, output: str) -> dict:
    """prove's t/*.t results and testapp's TAP lines."""
    found = results.prove(tree, output)
    found.update(results.by_pattern(
        r"^(?:(?P<bad>not )?ok) \d+ - (?P<name>\S.*)$", output))
    return found


def _libevent(tree: Path, output: str) -> dict:
    """ctest's results and regress's summary (it names only failures)."""
    found = _ctest(tree, output)
    found.update(results.by_pattern(
        r"^\s*\[(?P<name>\S+) (?P<bad>FAILED)\]$", output))
    return found


def _gtest(tree: Path, output: str) -> dict:
    """ctest's results and each gtest case of the -V output."""
    found = _ctest(tree, output)
    found.update(results.by_pattern(
        r"^\d+: \[\s+(?:OK|(?P<bad>FAILED))\s+\] (?P<name>\S+) \(", output))
    return found


def _tinyxml2(tree: Path, output: str) -> dict:
    """ctest's results and xmltest's checks (`[pass] what` / `[fail] what`),
    numbered since their names repeat."""
    found = _ctest(tree, output)
    checks = re.findall(r"^\d+: \[(pass|fail)\]", output, re.M)
    found.update({f"xmltest check {i}": "PASS" if c == "pass" else "FAIL"
                  for i, c in enumerate(checks, 1)})
    return found


CTEST = "ctest --test-dir _build -j{jobs} --output-junit {tree}/_build/junit.xml"
CMAKE = ["cmake -S . -B _build -G 'Unix Makefiles'",
         "cmake --build _build -j{jobs}"]
MESON = ["meson setup _build --buildtype=plain", "ninja -C _build -j{jobs}"]
# meson's 30 s default time-outs: libjsoncpp's runner tests (a Python
# script starting the test program once per file) took longer than that in
# the plain build on this shared machine.
MESON_TEST = ("meson test -C _build --num-processes {jobs} "
              "--timeout-multiplier 10")

# sqlite_smoke.sql through the built shell: its output must be
# sqlite_smoke.expected byte for byte, with nothing on stderr.
SQLITE_SMOKE = ("./sqlite3 < {here}/sqlite_smoke.sql > smoke.out 2> smoke.err"
                " && diff -u {here}/sqlite_smoke.expected smoke.out"
                " && {{ test ! -s smoke.err || {{ cat smoke.err; false; }}; }}")

TIMEOUT_NOTE = "`meson test --timeout-multiplier 10` (machine load)"

PACKAGES = [
    Package(
        "sqlite3", "autotools", "C", ["make", "tcl", "zlib1g-dev"],
        ["./configure --disable-tcl", "make -j{jobs}",
         "make -j{jobs} fuzzcheck sessionfuzz srcck1"],
        ["make fuzztest sourcetest", SQLITE_SMOKE],
        _pattern(r"^(?P<name>\S+\.db): (?:0% .*100% - \d+ tests$|"
                 r"\s*\d+ cases, 0 crashes$|(?P<bad>.*(?:FAIL|crash|rror).*))"),
        config=["sqlite_cfg.h"],
        note="--disable-tcl (no Tcl extension); tests: `make fuzztest "
             "sourcetest` (the Tcl suite needs a non-root user), and the "
             "survey's own SQL script through ./sqlite3",
        quick=(["./configure --disable-tcl --disable-static",
                "make -j{jobs} sqlite3"],
               [SQLITE_SMOKE])),
    Package(
        "jansson", "CMake", "C", ["cmake", "make"],
        CMAKE, [CTEST], _ctest,
        config=["_build/private_include/jansson_private_config.h",
                "_build/include/jansson_config.h"],
        quick=(CMAKE, [CTEST])),
    Package(
        "xz-utils", "autotools", "C", ["make"],
        ["./configure", "make -j{jobs}", "make -j{jobs} check TESTS="],
        ["make -j{jobs} check"], results.automake, config=["config.h"]),
    Package(
        "lz4", "Makefile", "C", ["make"],
        ["make -j{jobs}", "make -C tests -j{jobs} lz4 datagen"],
        [f"make -C tests {t}" for t in (
            "test-lz4-basic", "test-lz4-multiple", "test-lz4-multiple-legacy",
            "test-lz4-frame-concatenation", "test-lz4-testmode",
            "test-lz4-contentSize", "test-lz4-dict")],
        note="tests: `make check` (test-lz4-essentials), target by target"),
    Package(
        "zlib", "configure + Makefile", "C", ["make"],
        ["./configure", "make -j{jobs}"],
        ["make teststatic", "make testshared", "make test64"],
        note="tests: `make test`, target by target"),
    Package(
        "pbzip2", "Makefile", "C++", ["make", "libbz2-dev"],
        ["make -j{jobs}"],
        ["./pbzip2 -h 2>&1 | grep Example:",
         "test \"$(./pbzip2 -c -d debian/tests/stuff/random10K.gz | sha1sum)\""
         " = \"$(sha1sum < debian/tests/stuff/random10K)\"",
         "test \"$(./pbzip2 -c -z debian/tests/stuff/random10K | sha1sum)\""
         " = \"$(sha1sum < debian/tests/stuff/random10K.gz)\""],
        flags="-Wno-reserved-user-defined-literal",
        note="-Wno-reserved-user-defined-literal (clang rejects "
             "`\"%\"PRIuMAX` in C++11); no upstream tests: Debian's "
             "autopkgtest commands, on the built ./pbzip2"),
    Package(
        "memcached", "autotools", "C", ["make", "libevent-dev", "perl"],
        ["./configure", "make -j{jobs}",
         "make -j{jobs} memcached-debug sizes testapp timedrun"],
        ["make test PARALLEL=6"], _memcached, config=["config.h"],
        note="tests: `make test PARALLEL=6` (prove -j6: its tests mostly "
             "sleep)"),
    Package(
        "libzstd", "Makefile", "C", ["make"],
        ["make -j{jobs}", "make -C tests -j{jobs} fullbench poolTests "
         "invalidDictionaries legacy decodecorpus datagen"],
        ["make check", "make -C tests test-pool", "make -C tests test-legacy",
         "make -C tests test-invalidDictionaries",
         "make -C tests test-fullbench"],
        note="tests: `make check` (the quick `shortest` target) and four "
             "quick unit targets of tests/Makefile, target by target"),
    Package(
        "libevent", "CMake", "C", ["cmake", "make"],
        ["cmake -S . -B _build -G 'Unix Makefiles' -DEVENT__DISABLE_OPENSSL=ON",
         "cmake --build _build -j{jobs}"],
        [CTEST + " -E '^regress'",
         "_build/bin/regress ':dns/getaddrinfo_cancel_stress'"],
        _libevent, config=["_build/include/event2/event-config.h"],
        note="-DEVENT__DISABLE_OPENSSL=ON (its TLS tests fail under "
             "OpenSSL 3 either way); ctest without the regress runs (80 s "
             "per backend), then regress once on the default backend "
             "without dns/getaddrinfo_cancel_stress (fails at random in the "
             "plain build: it needs a resolver)"),
    Package(
        "json-c", "CMake", "C", ["cmake", "make", "valgrind"],
        CMAKE, [CTEST], _ctest, config=["_build/config.h"],
        flags="-gdwarf-4",
        note="-gdwarf-4 in both builds: its tests run each program under "
             "valgrind when installed, and valgrind 3.19 gives up on "
             "clang's DWARF 5"),
    Package(
        "tinyxml2", "CMake", "C++", ["cmake", "make"],
        ["cmake -S . -B _build -G 'Unix Makefiles' -Dtinyxml2_BUILD_TESTING=ON",
         "cmake --build _build -j{jobs}"],
        [CTEST + " -V"], _tinyxml2,
        note="-Dtinyxml2_BUILD_TESTING=ON; each `[pass]` check of xmltest "
             "counted"),
    Package(
        "snappy", "CMake", "C++",
        ["cmake", "make", "libgtest-dev", "libgmock-dev", "libbenchmark-dev"],
        ["cmake -S . -B _build -G 'Unix Makefiles' -DBUILD_SHARED_LIBS=ON "
         "-DSNAPPY_USE_BUNDLED_GTEST=OFF -DSNAPPY_USE_BUNDLED_BENCHMARK_LIB=OFF",
         "cmake --build _build -j{jobs}"],
        [CTEST + " -V"], _gtest, config=["_build/config.h"],
        note="Debian's -DBUILD_SHARED_LIBS=ON (without it Debian's "
             "snappy-static target and snappy both write libsnappy.a, and a "
             "parallel build races) -DSNAPPY_USE_BUNDLED_GTEST=OFF "
             "-DSNAPPY_USE_BUNDLED_BENCHMARK_LIB=OFF (its bundled copies are "
             "not in the source package); each gtest case counted"),
    Package(
        "serd", "meson", "C", ["meson", "ninja-build", "python3"],
        MESON, [MESON_TEST], _meson, note=TIMEOUT_NOTE),
    Package(
        "libjsoncpp", "meson", "C++", ["meson", "ninja-build", "python3"],
        MESON, [MESON_TEST], _meson, note=TIMEOUT_NOTE),
]


def by_name(name: str):
    for p in PACKAGES:
        if p.name == name:
            return p
    return None
