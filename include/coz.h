/* coz.h: progress points and blocking hooks for coz-cc.
 *
 * The macros keep the names and meanings of Coz's header, so code annotated
 * for Coz compiles unchanged:
 *   COZ_PROGRESS             one unit of work done at this source line
 *   COZ_PROGRESS_NAMED(name) one unit of work done, counted under `name`
 *   COZ_BEGIN(name)          a transaction `name` starts (latency)
 *   COZ_END(name)            a transaction `name` ends (latency)
 *
 * Built with coz-cc (or clang -fpass-plugin=libCozPass.so), the LLVM pass
 * replaces each marker call whose name is a constant string with one inline
 * relaxed atomic add on a per-CPU-sharded counter: no call, no lookup.
 * Built without the pass (plain gcc), the runtime's definition of the marker
 * counts by name at a higher cost. Without the runtime linked in, the weak
 * references are null and the macros do nothing.
 */
#ifndef COZ_CC_COZ_H
#define COZ_CC_COZ_H

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of marker; the values are part of the pass/runtime ABI. */
#define COZ_KIND_THROUGHPUT 0u
#define COZ_KIND_BEGIN 1u
#define COZ_KIND_END 2u

void __coz_marker(unsigned kind, const char *name) __attribute__((weak));
void __coz_pre_block(void) __attribute__((weak));
void __coz_post_block(int woken_by_other) __attribute__((weak));
void __coz_catch_up(void) __attribute__((weak));

#define COZ_STRINGIFY_(x) #x
#define COZ_STRINGIFY(x) COZ_STRINGIFY_(x)

#define COZ_MARK_(kind, name)                                                  \
  do {                                                                         \
    if (__coz_marker)                                                          \
      __coz_marker((kind), (name));                                            \
  } while (0)

#define COZ_PROGRESS                                                           \
  COZ_MARK_(COZ_KIND_THROUGHPUT, __FILE__ ":" COZ_STRINGIFY(__LINE__))
#define COZ_PROGRESS_NAMED(name) COZ_MARK_(COZ_KIND_THROUGHPUT, (name))
#define COZ_BEGIN(name) COZ_MARK_(COZ_KIND_BEGIN, (name))
#define COZ_END(name) COZ_MARK_(COZ_KIND_END, (name))

/* Hooks for custom blocking primitives (futex-based locks, queues).
 * Call COZ_PRE_BLOCK() before the thread may block, COZ_POST_BLOCK(1) after it
 * was woken by another thread (COZ_POST_BLOCK(0) after a timeout), and
 * COZ_CATCH_UP() before an operation that may wake another thread. */
#define COZ_PRE_BLOCK()                                                        \
  do {                                                                         \
    if (__coz_pre_block)                                                       \
      __coz_pre_block();                                                       \
  } while (0)
#define COZ_POST_BLOCK(woken_by_other)                                         \
  do {                                                                         \
    if (__coz_post_block)                                                      \
      __coz_post_block(woken_by_other);                                        \
  } while (0)
#define COZ_CATCH_UP()                                                         \
  do {                                                                         \
    if (__coz_catch_up)                                                        \
      __coz_catch_up();                                                        \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif /* COZ_CC_COZ_H */
