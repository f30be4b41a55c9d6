/* lib_dlopen.c: a module the test loads with dlopen (DWARF 5). */
#include "probe.h"

__attribute__((noinline)) void dlopen_probe(struct probe *p) { PROBE(p); }
