/* cp_counted.c: the runtime's half of the counted calls
 * (counted_calls.def, docs/callpath.md). The pass calls
 * __coz_count_RESOURCE(bytes, str) right after each allocation or stdio
 * call of instrumented code, with the bytes it computed from the call's
 * arguments and result; the bytes go into the calling thread's clock of
 * that resource, the same jittered countdown as the read/write
 * interposers' (cp_io_bytes), and the sample is taken from the caller's
 * frame.
 *
 * These functions run in the middle of the program's code after every
 * malloc and printf: with the resource off they return after one load and
 * one predictable branch, and they never change errno (a program may test
 * it after the call just counted). */
#include "cp_internal.h"

#include <errno.h>
#include <string.h>

/* cp_clocks.c. */
void cp_io_bytes(enum cp_resource r, uint64_t n, uintptr_t caller_ra);

#define CP_EXPORT __attribute__((visibility("default")))

/* Out of line: keeps the strlen and the clock's work out of the fast path
 * of the exported functions. */
__attribute__((noinline)) static void count(enum cp_resource r, uint64_t bytes,
                                            const char *str,
                                            uintptr_t caller_ra) {
  if (str)
    bytes += strlen(str);
  if (bytes == 0)
    return;
  int saved_errno = errno;
  cp_io_bytes(r, bytes, caller_ra);
  errno = saved_errno;
}

/* The return address is read here, in the function the program called:
 * cp_capture_here() starts the stack at that caller. */
#define CP_COUNTER(RESOURCE, ENUM)                                             \
  CP_EXPORT void __coz_count_##RESOURCE(uint64_t bytes, const char *str) {     \
    if (__builtin_expect(!cp_config.enabled[ENUM], 1))                         \
      return;                                                                  \
    count(ENUM, bytes, str, (uintptr_t)__builtin_return_address(0));           \
  }

CP_COUNTER(heap, CP_HEAP)
CP_COUNTER(read, CP_READ)
CP_COUNTER(write, CP_WRITE)

/* Every resource the table names has its counter above: a resource added
 * to counted_calls.def without one fails to compile here, rather than
 * leaving the pass's calls to the modules' no-op fallbacks. */
#define COZ_COUNTED(NAME, RESOURCE, BYTES, WHEN) __coz_count_##RESOURCE,
__attribute__((unused)) static void (*const cp_table_counters[])(
    uint64_t, const char *) = {
#include "counted_calls.def"
};
#undef COZ_COUNTED
