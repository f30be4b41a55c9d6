/* unwind.h: a DWARF CFI stack stepper for signal handlers (x86-64).
 *
 * Samples taken in code built without frame pointers (nearly all of a
 * distribution's libraries, libc included, and any library built with
 * plain -O2) lose their callers in a frame-pointer walk: a frameless leaf
 * leaves rbp holding its caller's frame, so the walk skips the return
 * address into that caller. This stepper computes the caller's registers
 * from the loaded object's .eh_frame instead, found through the sorted
 * table of its .eh_frame_hdr (PT_GNU_EH_FRAME).
 *
 * The table of loaded objects is built outside signal handlers
 * (coz_unwind_refresh, on the profiler thread) and published lock-free.
 * coz_unwind_step never allocates, locks or faults: unwind data is read
 * only inside the loaded segment that holds it, and stack memory only
 * inside the snapshot the caller hands in. Other targets than x86-64 get
 * COZ_UNWIND_FAILED from every step (callers fall back to frame pointers).
 *
 * Files: objects.c (the object table), encoding.h (byte formats),
 * eh_frame.c (hdr search, CIE/FDE parsing), cfa_program.c (CFA
 * instructions), step.c (one step). */
#ifndef COZ_UNWIND_H
#define COZ_UNWIND_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The registers of one frame. */
struct coz_unwind_regs {
  uint64_t pc, sp, bp;
  /* bp is unknown after a frame whose CFI saves rbp in a way the stepper
   * does not follow (an expression); a caller whose CFA is rbp-based then
   * cannot be stepped. */
  bool bp_known;
  /* pc is a return address (every frame after the first): its call
   * instruction, and so its CFI row, lies at pc - 1. The first frame's pc
   * is the interrupted instruction itself. */
  bool pc_is_return_address;
};

/* A read-only copy of stack memory starting at address `base` (the sampled
 * sp), `size` bytes, held in up to two pieces: bytes [0, first) at seg[0]
 * and [first, size) at seg[1] (the perf ring wraps a record around its
 * end). A single piece has first == size. */
struct coz_stack_view {
  uint64_t base;
  uint64_t size;
  uint64_t first;
  const unsigned char *seg[2];
};

/* Reads the 8-byte word at address addr of the view; false (and nothing
 * read) when any of its bytes lies outside. Async-signal-safe. */
static inline bool coz_stack_read(const struct coz_stack_view *v, uint64_t addr,
                                  uint64_t *out) {
  if (addr < v->base || v->size < 8 || addr - v->base > v->size - 8)
    return false;
  uint64_t off = addr - v->base;
  if (off + 8 <= v->first) {
    memcpy(out, v->seg[0] + off, 8);
  } else if (off >= v->first) {
    memcpy(out, v->seg[1] + (off - v->first), 8);
  } else {
    unsigned char b[8];
    for (uint64_t i = 0; i < 8; i++)
      b[i] = off + i < v->first ? v->seg[0][off + i]
                                : v->seg[1][off + i - v->first];
    memcpy(out, b, 8);
  }
  return true;
}

enum coz_unwind_result {
  COZ_UNWIND_STEPPED,   /* regs now hold the caller's frame */
  COZ_UNWIND_OUTERMOST, /* the CFI says this frame has no caller */
  /* No CFI for pc, a rule the stepper does not follow (CFA expression,
   * signal frame, PLT), or memory outside the snapshot: regs unchanged. */
  COZ_UNWIND_FAILED,
};

/* Steps from the frame in regs to its caller. Async-signal-safe. */
enum coz_unwind_result coz_unwind_step(struct coz_unwind_regs *regs,
                                       const struct coz_stack_view *stack);

/* Lists the loaded objects again if the loader's counters moved since the
 * last call (dl_iterate_phdr; cheap otherwise, so it can be polled), and
 * publishes the new table for coz_unwind_step. Not async-signal-safe;
 * called from one thread at a time. */
void coz_unwind_refresh(void);

#endif /* COZ_UNWIND_H */
