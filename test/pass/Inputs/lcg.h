/* Register-only test work: one LCG step behind an empty asm barrier, so the
 * optimizer can neither fold nor drop it. */
#ifndef COZ_TEST_LCG_H
#define COZ_TEST_LCG_H
static inline unsigned lcg(unsigned x) {
  x = x * 1103515245u + 12345u;
  __asm__ volatile("" : "+r"(x));
  return x;
}
#endif
