/* cp_stack.c: stack capture for call-path samples with the runtime's own
 * stepper (unwind/): CFI first, frame pointers where CFI cannot go on.
 * libgcc's unwinder is not usable from a signal handler: once a program
 * registers frames with __register_frame (JITs do), _Unwind_Find_FDE
 * takes a lock that a sample arriving during that thread's own throw
 * would wait for forever. The stepper reads the stack through a view that
 * cannot fault, within the thread's own stack when it is known.
 *
 * Return addresses are stored minus one so that they symbolise to the
 * call instruction (a call at the very end of a function would otherwise
 * name the next function); the interrupted instruction is kept as is. */
#include "cp_internal.h"
#include "unwind/unwind.h"

/* The calling thread's own stack, [lo, hi); 0 when unknown. */
static CP_TLS uintptr_t own_lo, own_hi;

void cp_stack_thread_start(void) {
  uint64_t lo, hi;
  coz_stack_own_range(&lo, &hi);
  own_lo = (uintptr_t)lo;
  own_hi = (uintptr_t)hi;
}

/* Appends the frames above regs, one step at a time. */
static void walk(struct cp_stack *st, struct coz_unwind_regs regs,
                 struct coz_stack_view *view) {
  while (st->depth < CP_MAX_DEPTH) {
    enum coz_unwind_result r = coz_unwind_step(&regs, view);
    if (r == COZ_UNWIND_OUTERMOST)
      return;
    if (r != COZ_UNWIND_STEPPED && !coz_unwind_fp_step(&regs, view)) {
      st->truncated = true; /* a frame neither CFI nor rbp describes */
      return;
    }
    st->pc[st->depth++] = (uintptr_t)regs.pc - regs.pc_is_return_address;
  }
  st->truncated = true;
}

void cp_capture_signal(struct cp_stack *st, const void *ucontext) {
  st->depth = 0;
  st->truncated = false;
  struct coz_unwind_regs regs = coz_unwind_regs_of(ucontext);
  if (!regs.pc)
    return;
  st->pc[st->depth++] = (uintptr_t)regs.pc;
  struct coz_stack_view view;
  coz_stack_view_at(&view, regs.sp, own_lo, own_hi);
  walk(st, regs, &view);
}

__attribute__((noinline)) void cp_capture_here(struct cp_stack *st,
                                               uintptr_t caller_ra) {
  st->depth = 0;
  st->truncated = false;
  struct coz_unwind_regs regs = {0, 0, 0, true, false};
#if defined(__x86_64__)
  __asm__ volatile("leaq 0(%%rip), %0\n\tmovq %%rsp, %1\n\tmovq %%rbp, %2"
                   : "=r"(regs.pc), "=r"(regs.sp), "=r"(regs.bp));
#endif
  struct coz_stack_view view;
  coz_stack_view_at(&view, regs.sp, own_lo, own_hi);
  /* Up through the runtime's own frames to the program's caller. */
  for (int i = 0; i < 16 && regs.pc != caller_ra; i++)
    if (coz_unwind_step(&regs, &view) != COZ_UNWIND_STEPPED &&
        !coz_unwind_fp_step(&regs, &view))
      break;
  if (regs.pc != caller_ra) {
    st->truncated = true;
    st->pc[st->depth++] = caller_ra - 1;
    return;
  }
  st->pc[st->depth++] = caller_ra - 1;
  walk(st, regs, &view);
}
