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
 * through the view the caller hands in (stack.h). Other targets than
 * x86-64 get COZ_UNWIND_FAILED from every step.
 *
 * Files: objects.c (the object table), encoding.h (byte formats),
 * eh_frame.c (hdr search, CIE/FDE parsing), cfa_program.c (CFA
 * instructions), step.c (one step), stack.c (stack views). */
#ifndef COZ_UNWIND_H
#define COZ_UNWIND_H

#include "stack.h"

#include <stdbool.h>
#include <stdint.h>

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

enum coz_unwind_result {
  COZ_UNWIND_STEPPED,   /* regs now hold the caller's frame */
  COZ_UNWIND_OUTERMOST, /* the CFI says this frame has no caller */
  /* No CFI for pc, a rule the stepper does not follow (CFA expression,
   * signal frame, PLT), or memory the view cannot read: regs unchanged. */
  COZ_UNWIND_FAILED,
};

/* The interrupted frame of a signal handler's ucontext (pc, sp and the
 * frame pointer). Async-signal-safe. */
struct coz_unwind_regs coz_unwind_regs_of(const void *ucontext);

/* Steps from the frame in regs to its caller. Async-signal-safe. */
enum coz_unwind_result coz_unwind_step(struct coz_unwind_regs *regs,
                                       struct coz_stack_view *stack);

/* Steps by the frame-pointer convention instead ([bp] the caller's bp,
 * [bp + 8] the return address), for code without CFI (JIT code) or whose
 * CFI the stepper cannot follow. A bp that is unknown, not above sp,
 * misaligned or unreadable ends the walk: false, regs unchanged. Every
 * step moves sp up, so a walk cannot loop. Async-signal-safe. */
bool coz_unwind_fp_step(struct coz_unwind_regs *regs,
                        struct coz_stack_view *stack);

/* Lists the loaded objects again if the loader's counters moved since the
 * last call (dl_iterate_phdr; cheap otherwise, so it can be polled), and
 * publishes the new table for coz_unwind_step. Not async-signal-safe; any
 * thread (a call while another runs returns at once). */
void coz_unwind_refresh(void);

#endif /* COZ_UNWIND_H */
