/* step.c: one unwinding step (see unwind.h): the row of the CFI table at
 * the frame's pc gives the CFA (the caller's sp) and where the return
 * address and the caller's rbp were saved; saved values are read from the
 * stack snapshot only. */
#include "cfa_program.h"
#include "eh_frame.h"
#include "objects.h"
#include "unwind.h"

#include <stddef.h>
#include <ucontext.h>

#if defined(__x86_64__)

/* The value of DWARF register reg in this frame, if the stepper has it. */
static bool register_value(const struct coz_unwind_regs *r, uint64_t reg,
                           uint64_t *out) {
  if (reg == COZ_DWARF_RSP) {
    *out = r->sp;
    return true;
  }
  if (reg == COZ_DWARF_RBP && r->bp_known) {
    *out = r->bp;
    return true;
  }
  return false;
}

/* The caller's value of a register under rule; false if it is not known.
 * `same` is the value in this frame. */
static bool apply_rule(const struct coz_rule *rule, uint64_t cfa,
                       const struct coz_unwind_regs *r, uint64_t same,
                       struct coz_stack_view *stack, uint64_t *out) {
  switch (rule->kind) {
  case COZ_RULE_SAME:
    *out = same;
    return true;
  case COZ_RULE_OFFSET:
    return coz_stack_read(stack, cfa + (uint64_t)rule->value, out);
  case COZ_RULE_VAL_OFFSET:
    *out = cfa + (uint64_t)rule->value;
    return true;
  case COZ_RULE_REGISTER:
    return register_value(r, (uint64_t)rule->value, out);
  default: /* undefined, expression */
    return false;
  }
}

/* Out of a signal trampoline (glibc's __restore_rt) to the code the
 * signal interrupted. At the trampoline, sp points at the kernel's
 * ucontext (the handler's return popped the frame's return address);
 * the interrupted registers are in its mcontext. The interrupted sp lies
 * above the frame, unless the handler ran on another stack: then only a
 * move to the thread's own stack is taken (at most once, so a walk still
 * ends). */
static enum coz_unwind_result step_signal_frame(struct coz_unwind_regs *regs,
                                                struct coz_stack_view *stack) {
  uint64_t uc = regs->sp, pc, sp, bp;
  const uint64_t gregs = offsetof(ucontext_t, uc_mcontext.gregs);
  if (!coz_stack_read(stack, uc + gregs + 8 * REG_RIP, &pc) ||
      !coz_stack_read(stack, uc + gregs + 8 * REG_RSP, &sp) ||
      !coz_stack_read(stack, uc + gregs + 8 * REG_RBP, &bp))
    return COZ_UNWIND_FAILED;
  bool moved = coz_stack_view_to_own(stack, sp);
  if (sp <= regs->sp && !moved)
    return COZ_UNWIND_FAILED;
  *regs = (struct coz_unwind_regs){pc, sp, bp, true, false};
  return COZ_UNWIND_STEPPED;
}

enum coz_unwind_result coz_unwind_step(struct coz_unwind_regs *regs,
                                       struct coz_stack_view *stack) {
  /* A return address follows its call, which may be a function's last
   * instruction (a call to a noreturn function): look its row up at the
   * call itself. */
  uint64_t pc = regs->pc - (regs->pc_is_return_address ? 1 : 0);
  struct coz_fde fde;
  struct coz_cfi_row row;
  const struct coz_unwind_objects *t = coz_unwind_objects_pin();
  const struct coz_unwind_object *o = coz_unwind_object_find(t, pc);
  bool found = o && coz_eh_find_fde(o, pc, &fde);
  bool ok = found && !fde.signal_frame && coz_cfa_row_at(&fde, pc, &row);
  coz_unwind_objects_unpin();
  /* A signal trampoline: its CFA is an expression over the kernel's
   * signal frame, whose registers are read directly instead. */
  if (found && fde.signal_frame)
    return step_signal_frame(regs, stack);
  if (!ok)
    return COZ_UNWIND_FAILED;
  if (row.ra.kind == COZ_RULE_UNDEFINED)
    return COZ_UNWIND_OUTERMOST; /* _start, a thread's start routine */
  uint64_t base;
  if (!row.cfa_defined || row.cfa_expression ||
      !register_value(regs, row.cfa_reg, &base))
    return COZ_UNWIND_FAILED;
  uint64_t cfa = base + (uint64_t)row.cfa_offset;
  /* The caller's frame lies above this one: a CFA at or below sp is bad
   * data (and following it could loop). */
  if (cfa <= regs->sp)
    return COZ_UNWIND_FAILED;
  uint64_t ra;
  if (row.ra.kind == COZ_RULE_SAME ||
      !apply_rule(&row.ra, cfa, regs, regs->pc, stack, &ra))
    return COZ_UNWIND_FAILED;
  if (ra == 0)
    return COZ_UNWIND_OUTERMOST; /* some thread entries end with a 0 */
  uint64_t bp = 0;
  bool bp_known = regs->bp_known || row.bp.kind != COZ_RULE_SAME;
  if (bp_known)
    bp_known = apply_rule(&row.bp, cfa, regs, regs->bp, stack, &bp);
  regs->pc = ra;
  regs->sp = cfa;
  regs->bp = bp;
  regs->bp_known = bp_known;
  regs->pc_is_return_address = true;
  return COZ_UNWIND_STEPPED;
}

#else /* other targets: no register model yet, callers use frame pointers */

enum coz_unwind_result coz_unwind_step(struct coz_unwind_regs *regs,
                                       struct coz_stack_view *stack) {
  (void)regs;
  (void)stack;
  return COZ_UNWIND_FAILED;
}

#endif

struct coz_unwind_regs coz_unwind_regs_of(const void *ucontext) {
  const ucontext_t *uc = ucontext;
#if defined(__x86_64__)
  struct coz_unwind_regs r = {(uint64_t)uc->uc_mcontext.gregs[REG_RIP],
                              (uint64_t)uc->uc_mcontext.gregs[REG_RSP],
                              (uint64_t)uc->uc_mcontext.gregs[REG_RBP], true,
                              false};
#elif defined(__aarch64__)
  struct coz_unwind_regs r = {(uint64_t)uc->uc_mcontext.pc,
                              (uint64_t)uc->uc_mcontext.sp,
                              (uint64_t)uc->uc_mcontext.regs[29], true, false};
#else
  (void)uc;
  struct coz_unwind_regs r = {0, 0, 0, false, false};
#endif
  COZ_UNTRUSTED_DEFINED(&r, sizeof r); /* the interrupted code's (stack.h) */
  return r;
}

/* The x86-64 and AArch64 frame records alike: [bp] the caller's bp, then
 * the return address. */
bool coz_unwind_fp_step(struct coz_unwind_regs *regs,
                        struct coz_stack_view *stack) {
  uint64_t bp = regs->bp, next_bp, ra;
  if (!regs->bp_known || bp < regs->sp || (bp & 7) != 0 ||
      !coz_stack_read(stack, bp, &next_bp) ||
      !coz_stack_read(stack, bp + 8, &ra) || ra < 4096)
    return false;
  regs->pc = ra;
  regs->sp = bp + 16;
  regs->bp = next_bp;
  regs->bp_known = true;
  regs->pc_is_return_address = true;
  return true;
}
