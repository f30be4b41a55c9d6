/* other.c: code of the executable that the pass did not record (outside
 * the default scope). */
#include "probe.h"

__attribute__((noinline)) void other_probe(struct probe *p) { PROBE(p); }
