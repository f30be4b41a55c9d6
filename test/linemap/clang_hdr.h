/* clang_hdr.h: a header function that clang (-ffunction-sections) gives a
 * line-table sequence of its own. */
#ifndef COZ_TEST_LINEMAP_CLANG_HDR_H
#define COZ_TEST_LINEMAP_CLANG_HDR_H

#include "probe.h"

static __attribute__((noinline)) void clang_hdr_probe(struct probe *p) {
  PROBE(p);
}

#endif /* COZ_TEST_LINEMAP_CLANG_HDR_H */
