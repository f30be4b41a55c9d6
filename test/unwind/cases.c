/* cases.c: call chains for the stepper test (stepper_test.c), built twice
 * as a shared library with -O2 -fomit-frame-pointer: once with the
 * project's C compiler, once with clang. Every chain ends in case_spin, a
 * frameless leaf that spins until the test's signal handler, which
 * unwinds from the interrupted registers, sets case_stop.
 *
 * Ground truth: each function stores its own return address in
 * case_ra[distance from the leaf] (a store keeps a leaf a leaf), which is
 * what the stepper must find after that many + 1 steps. Calls are never
 * in tail position, so every frame stays on the stack. */
#include <stdint.h>

#define NOINLINE __attribute__((noinline))
#define RA() ((uint64_t)(uintptr_t)__builtin_return_address(0))

uint64_t case_ra[16];
volatile int case_spinning;
volatile int case_stop;

#define SPIN(x)                                                                \
  do {                                                                         \
    case_spinning = 1;                                                         \
    while (!case_stop) {                                                       \
      (x) = (x)*6364136223846793005ull + 1442695040888963407ull;               \
      __asm__ volatile("" : "+r"(x));                                          \
    }                                                                          \
  } while (0)

NOINLINE static uint64_t case_spin(uint64_t x) {
  case_ra[0] = RA();
  SPIN(x);
  return x;
}

/* Chain 0: the leaf, called straight from the test program. */
NOINLINE uint64_t chain_leaf(uint64_t x) {
  case_ra[0] = RA();
  SPIN(x);
  return x;
}

/* Chain 1: callee-saved registers pushed (values live across the call)
 * and a stack array: a CFA well above sp, saved registers at CFA offsets. */
NOINLINE uint64_t chain_pushes(uint64_t x) {
  case_ra[1] = RA();
  volatile uint64_t buf[24];
  for (int i = 0; i < 24; i++)
    buf[i] = x + (uint64_t)i;
  uint64_t a = x * 3, b = x ^ 0x55, c = x + 7, d = x * x, e = x >> 3;
  uint64_t r = case_spin(a ^ b);
  return r + a + b + c + d + e + buf[3] + buf[17];
}

/* Chain 2: rbp used as a general register. It is saved in the prologue
 * (its CFI says where) and holds a value that is not a frame address while
 * the leaf runs, so a frame-pointer walk goes astray; the test checks that
 * the caller's rbp comes back from the save slot. */
NOINLINE uint64_t chain_rbp(uint64_t x) {
  case_ra[1] = RA();
  uint64_t v;
  __asm__ volatile("mov %1, %%rbp\n\tmov %%rbp, %0"
                   : "=r"(v)
                   : "r"(x ^ 0x5a5a)
                   : "rbp");
  uint64_t r = case_spin(v);
  return r ^ v;
}

/* Chain 3: several frames of the library on top of each other, each with
 * its own stack array. */
#define DEEP_LEVELS 5
NOINLINE static uint64_t deep(int level, uint64_t x) {
  case_ra[level + 1] = RA();
  volatile uint64_t pad[8];
  for (int i = 0; i < 8; i++)
    pad[i] = x + (uint64_t)(i * level);
  uint64_t r = level == 0 ? case_spin(x + pad[1]) : deep(level - 1, x + pad[2]);
  return r + pad[0] + (uint64_t)level;
}

NOINLINE uint64_t chain_deep(uint64_t x) {
  case_ra[DEEP_LEVELS + 1] = RA();
  uint64_t r = deep(DEEP_LEVELS - 1, x);
  return r * 3;
}

/* Frames of the library (the leaf included) in each chain. */
const int case_depths[] = {1, 2, 2, DEEP_LEVELS + 2};
