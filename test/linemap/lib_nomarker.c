/* lib_nomarker.c: a library loaded at startup whose file is among the
 * default files but which was not "compiled with the pass" (no marker):
 * the default binary scope leaves it out. */
#include "probe.h"

__attribute__((noinline)) void nomarker_probe(struct probe *p) { PROBE(p); }
