/* probe.h: a code address whose source line the test knows.
 *
 * PROBE(p) stores the address of an instruction that sits on the line where
 * PROBE is written, with that line and file, so a test can ask the line map
 * for the address and compare. x86-64 only (lea of a local label). */
#ifndef COZ_TEST_LINEMAP_PROBE_H
#define COZ_TEST_LINEMAP_PROBE_H

#include <stdint.h>

struct probe {
  uintptr_t pc;
  int line;
  const char *file;
};

#define PROBE(p)                                                               \
  do {                                                                         \
    __asm__ volatile("1: lea 1b(%%rip), %0" : "=r"((p)->pc));                  \
    (p)->line = __LINE__;                                                      \
    (p)->file = __FILE__;                                                      \
  } while (0)

#endif /* COZ_TEST_LINEMAP_PROBE_H */
