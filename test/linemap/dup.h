/* dup.h: one source line compiled into several units and objects; the line
 * map must give all of its copies the same struct coz_line. */
#ifndef COZ_TEST_LINEMAP_DUP_H
#define COZ_TEST_LINEMAP_DUP_H

#include "probe.h"

static __attribute__((noinline)) void dup_probe(struct probe *p) { PROBE(p); }

#endif /* COZ_TEST_LINEMAP_DUP_H */
