/* abi.h: data structures shared by the LLVM pass and the runtime
 * (docs/design.md, contract 2). The layouts are ABI: the pass emits them as
 * constants (and checks its constants against this header when it is
 * compiled), so any change here needs a new abi_version. C and C++. */
#ifndef COZ_ABI_H
#define COZ_ABI_H

#include <stdint.h>

#ifdef __cplusplus
#define COZ_ABI_ASSERT static_assert
extern "C" {
#else
#define COZ_ABI_ASSERT _Static_assert
#endif

#define COZ_ABI_VERSION 3u
#define COZ_SHARDS 16 /* power of two */

/* One progress counter: one 64-byte line per shard so that threads on
 * different CPUs never share a cache line on the hot path. */
struct coz_counter {
  struct {
    uint64_t value;
    uint64_t pad[7];
  } shard[COZ_SHARDS];
} __attribute__((aligned(64)));

struct coz_point_desc {
  const char *name; /* point name; "file:line" for COZ_PROGRESS */
  uint32_t kind;    /* 0 throughput, 1 begin, 2 end */
  uint32_t flags;   /* COZ_POINT_* */
  struct coz_counter *counter;
  const char *site; /* "file:line" of (one) site, or NULL */
};

struct coz_module_desc {
  uint32_t abi_version; /* COZ_ABI_VERSION */
  uint32_t n_points;
  const struct coz_point_desc *points;
  uint32_t n_files;
  uint32_t flags;           /* COZ_MODULE_* (0 from passes before them) */
  const char *const *files; /* absolute paths of the instrumented files */
};

COZ_ABI_ASSERT(sizeof(struct coz_counter) == 1024, "coz_counter is 1 KiB");
COZ_ABI_ASSERT(sizeof(struct coz_point_desc) == 32, "coz_point_desc is 32 B");

/* Point flags. A candidate is a point the pass marked from the program's
 * structure (a main loop's iterations, a handler's returns) in a module
 * without points of its own; the runtime records candidates only while the
 * program has no other point (docs/design.md, contract 2). */
#define COZ_POINT_FROM_COMMAND_LINE 1u /* --coz-progress/begin/end */
#define COZ_POINT_CANDIDATE 2u

/* Module flags. The kernel walks user stacks by frame pointers (the call
 * chains of csw call paths), so a module whose functions omit them loses
 * their callers there; the runtime says so when csw call paths are on. */
#define COZ_MODULE_OMITS_FRAME_POINTERS 1u

#define COZ_KIND_THROUGHPUT 0u
#define COZ_KIND_BEGIN 1u
#define COZ_KIND_END 2u

#define COZ_EXPORT __attribute__((visibility("default")))

void __coz_register_module(const struct coz_module_desc *desc) COZ_EXPORT;
void __coz_marker(unsigned kind, const char *name) COZ_EXPORT;
void __coz_pre_block(void) COZ_EXPORT;
void __coz_post_block(int woken_by_other) COZ_EXPORT;
void __coz_catch_up(void) COZ_EXPORT;

#ifdef __cplusplus
}
#endif

#endif /* COZ_ABI_H */
