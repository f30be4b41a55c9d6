/* stack.h: the stack memory a walk from a signal handler may read.
 *
 * A sample interrupts code the runtime did not write: its rbp may hold
 * data (libraries built without frame pointers), and its stack may be one
 * the runtime never saw created (a coroutine's, a sigaltstack, a thread
 * that existed before the runtime). Every read a walk makes goes through a
 * view, and a view never faults:
 *   direct   the range is known to be mapped (from sp to the top of the
 *            thread's own stack, or of the sigaltstack it runs on): reads
 *            are plain loads, bounds-checked;
 *   checked  the extent is unknown: reads copy through process_vm_readv on
 *            the own process, which fails with EFAULT instead of faulting,
 *            a 256-byte window at a time (a window never straddles a page,
 *            so one unmapped page fails only its own reads).
 * If process_vm_readv is denied (seccomp), checked reads fail and walks
 * stop at the interrupted pc. Everything here but coz_stack_own_range is
 * async-signal-safe and allocates nothing. */
#ifndef COZ_UNWIND_STACK_H
#define COZ_UNWIND_STACK_H

#include <stdbool.h>
#include <stdint.h>

#define COZ_STACK_WINDOW 256
/* How far above sp a checked view reaches: deeper chains of out-of-scope
 * frames than this are not followed. */
#define COZ_STACK_CHECKED_SPAN (256u << 10)

struct coz_stack_view {
  uint64_t lo, size; /* reads may touch [lo, lo + size) only */
  /* Direct: the bytes of [lo, lo + size) (the live stack itself, or a
   * copy of it). NULL: checked. */
  const unsigned char *mem;
  uint64_t own_lo, own_hi; /* the thread's own stack, when known */
  int pid;                 /* checked: this process, for process_vm_readv */
  uint64_t window_at;      /* checked: the address window[0] holds, 0 if none */
  unsigned char window[COZ_STACK_WINDOW];
};

/* A view of size bytes at lo whose bytes are at mem (mem == lo for the
 * live stack). */
void coz_stack_view_direct(struct coz_stack_view *v, uint64_t lo, uint64_t size,
                           const void *mem);
/* A view of [lo, lo + size) whose mapping is not known. */
void coz_stack_view_checked(struct coz_stack_view *v, uint64_t lo,
                            uint64_t size);
/* The view of the stack above sp of a thread whose own stack is
 * [own_lo, own_hi) (both 0 when unknown): direct to its top when sp lies
 * in it or in the thread's sigaltstack, else checked. */
void coz_stack_view_at(struct coz_stack_view *v, uint64_t sp, uint64_t own_lo,
                       uint64_t own_hi);

/* Moves the view to the thread's own stack at sp, for a walk that leaves
 * a signal handler running on another stack (a sigaltstack, a coroutine)
 * for the code it interrupted. False, and the view unchanged, unless the
 * own stack is known, sp lies in it and the view is elsewhere. */
bool coz_stack_view_to_own(struct coz_stack_view *v, uint64_t sp);

/* Declares n bytes at p defined to valgrind's memcheck (a no-op
 * natively, and when valgrind's headers were absent at build time). The
 * interrupted code's registers and stack words are untrusted by design and
 * checked before any use, but some were never written by the program (rbp
 * in code without frame pointers, a slot below a frame): memcheck would
 * report each check as a jump on an uninitialised value, and a project
 * whose tests run under valgrind would fail for the profiler's sake. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define COZ_UNTRUSTED_DEFINED(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#endif
#endif
#ifndef COZ_UNTRUSTED_DEFINED
#define COZ_UNTRUSTED_DEFINED(p, n) ((void)(p), (void)(n))
#endif

/* Reads the 8-byte word at addr; false (and nothing read) when any of its
 * bytes lies outside the view or is not readable. */
bool coz_stack_read(struct coz_stack_view *v, uint64_t addr, uint64_t *out);

/* The calling thread's own stack, from pthread_getattr_np; false and both
 * 0 when it cannot tell. Not async-signal-safe (it may allocate): call it
 * when the thread starts. */
bool coz_stack_own_range(uint64_t *lo, uint64_t *hi);

#endif /* COZ_UNWIND_STACK_H */
