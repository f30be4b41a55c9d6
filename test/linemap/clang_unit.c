/* clang_unit.c: built by clang (DWARF 5 by default in clang 14) whatever
 * compiler builds the rest of the test. */
#include "clang_hdr.h"

void clang_probes(struct probe *in_header, struct probe *in_unit) {
  clang_hdr_probe(in_header);
  PROBE(in_unit);
}
