/* lib_dlopen.c: a module the test loads with dlopen (DWARF 5). */
#include "pass_marker.h"
#include "probe.h"

__attribute__((noinline)) void dlopen_probe(struct probe *p) { PROBE(p); }
