/* cp_stack.c: stack capture with libgcc's unwinder (.eh_frame), not a
 * frame-pointer walk: glibc is built without frame pointers, so a sample
 * taken inside qsort or memcpy would lose every caller above it. libgcc 12
 * finds unwind tables with glibc's _dl_find_object (lock-free, no
 * allocation) and knows the kernel's signal frames, so this works from a
 * signal handler.
 *
 * Return addresses are stored minus one so that they symbolise to the
 * call instruction (a call at the very end of a function would otherwise
 * name the next function); the interrupted instruction of a signal frame
 * is kept as is. */
#include "cp_internal.h"

#include <signal.h>
#include <unwind.h>

/* The unwinder needs a few KiB of stack. A signal taken while a program's
 * handler runs on a small sigaltstack (4 KiB is common) would overflow it:
 * there, only the sampled PC is kept. */
enum { CP_UNWIND_STACK = 16384 };

static bool room_to_unwind(void) {
  stack_t ss;
  if (sigaltstack(NULL, &ss) != 0 || !(ss.ss_flags & SS_ONSTACK))
    return true;
  char here;
  uintptr_t lo = (uintptr_t)ss.ss_sp, sp = (uintptr_t)&here;
  return sp > lo && sp - lo > CP_UNWIND_STACK;
}

struct walk {
  struct cp_stack *st;
  uintptr_t start_pc; /* skip frames until this one */
  bool started;
  bool from_signal;
};

static _Unwind_Reason_Code on_frame(struct _Unwind_Context *ctx, void *arg) {
  struct walk *w = arg;
  int before_insn = 0;
  uintptr_t ip = (uintptr_t)_Unwind_GetIPInfo(ctx, &before_insn);
  if (ip == 0)
    return _URC_END_OF_STACK;
  if (!w->started) {
    /* A signal frame's successor is the interrupted code (before_insn set
     * by libgcc); otherwise match the caller's return address. */
    if (ip != w->start_pc && !(w->from_signal && before_insn))
      return _URC_NO_REASON;
    w->started = true;
    if (w->from_signal)
      before_insn = 1;
  }
  if (w->st->depth == CP_MAX_DEPTH) {
    w->st->truncated = true;
    return _URC_END_OF_STACK;
  }
  w->st->pc[w->st->depth++] = before_insn ? ip : ip - 1;
  return _URC_NO_REASON;
}

void cp_capture_signal(struct cp_stack *st, uintptr_t interrupted_pc) {
  st->depth = 0;
  st->truncated = false;
  struct walk w = {st, interrupted_pc, false, true};
  if (!room_to_unwind()) {
    st->truncated = interrupted_pc != 0;
    if (interrupted_pc)
      st->pc[st->depth++] = interrupted_pc;
    return;
  }
  _Unwind_Backtrace(on_frame, &w);
  if (st->depth == 0 && interrupted_pc) /* unwinder found no signal frame */
    st->pc[st->depth++] = interrupted_pc;
}

void cp_capture_here(struct cp_stack *st, uintptr_t caller_ra) {
  st->depth = 0;
  st->truncated = false;
  struct walk w = {st, caller_ra, false, false};
  if (!room_to_unwind()) {
    st->truncated = true;
    st->pc[st->depth++] = caller_ra - 1;
    return;
  }
  _Unwind_Backtrace(on_frame, &w);
  if (st->depth == 0)
    st->pc[st->depth++] = caller_ra - 1;
}
