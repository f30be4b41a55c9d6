/* lib_startup.c: a shared library the executable links against (loaded
 * before main), built with DWARF 4. */
#include "dup.h"
#include "pass_marker.h"

__attribute__((noinline)) void startup_probe(struct probe *p) { PROBE(p); }

void startup_dup_probe(struct probe *p) { dup_probe(p); }
