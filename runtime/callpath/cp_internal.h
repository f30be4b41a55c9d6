/* cp_internal.h: shared state of the call-path profiler (runtime/callpath).
 *
 * Each resource is a clock: every `period` units (jittered) the thread that
 * consumed the unit takes a stack sample, weighted by the units consumed
 * since its previous sample. Samples go into one preallocated lock-free
 * table (cp_table.c) and are symbolised and written at exit (cp_write.c). */
#ifndef COZ_CP_INTERNAL_H
#define COZ_CP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-thread state read from signal handlers: initial-exec TLS, whose
 * access never allocates or calls into the loader. */
#define CP_TLS __thread __attribute__((tls_model("initial-exec")))

enum cp_resource {
  CP_CPU,
  CP_WALL,
  CP_MINFLT,
  CP_MAJFLT,
  CP_CSW,
  CP_READ,
  CP_WRITE,
  CP_HEAP,
  CP_NRES
};

struct cp_resource_info {
  const char *name;
  const char *unit;
  uint64_t default_period;
};
extern const struct cp_resource_info cp_resources[CP_NRES];

/* Configuration, written once at start-up before any clock runs. */
struct cp_config {
  bool enabled[CP_NRES];
  uint64_t period[CP_NRES];
  char output[4096];
};
extern struct cp_config cp_config;
/* True while the clocks run (set after start-up, cleared at exit and in
 * fork children). */
extern _Atomic bool cp_active;
/* The call-path signal, and whether it is set up (both written once by
 * preinit, before any thread but the main one exists). */
extern int cp_signal;
extern bool cp_ready;
/* Application threads with clocks; the periodic writer leaves at 0, so a
 * main that ends with pthread_exit still ends the process. */
extern _Atomic int cp_live_threads;

/* Parses "res[:period],..."; false with one line on stderr when bad. */
bool cp_parse_spec(const char *spec, struct cp_config *out);

/* A clock's jittered periods, one draw state per thread and clock. */
struct cp_jitter {
  uint64_t rng;
  bool first_done[CP_NRES];
};
/* The units to resource r's next sample: the first in (0, P], a random
 * phase, then [P/2, 3P/2). Async-signal-safe; j is the caller's own. */
uint64_t cp_jittered(struct cp_jitter *j, enum cp_resource r);

/* ---- stack capture (cp_stack.c) ---- */
enum { CP_MAX_DEPTH = 80 };
struct cp_stack {
  uintptr_t pc[CP_MAX_DEPTH]; /* innermost first; return addresses - 1 */
  unsigned depth;
  bool truncated;
};
/* In a thread that starts: notes its own stack, which captures then read
 * directly (others are read through checked views: unwind/stack.h). */
void cp_stack_thread_start(void);
/* From a signal handler: the frames of the interrupted code.
 * Async-signal-safe. */
void cp_capture_signal(struct cp_stack *st, const void *ucontext);
/* From a runtime function called by the program: the frames from the
 * caller whose return address is `caller_ra` outwards. */
void cp_capture_here(struct cp_stack *st, uintptr_t caller_ra);

/* ---- sample table (cp_table.c) ---- */
struct cp_entry {
  _Atomic uint32_t state; /* 0 free, 1 being filled, 2 ready */
  uint32_t hash;
  uint16_t resource;
  uint16_t depth;
  uint8_t truncated;
  _Atomic uint64_t samples;
  _Atomic uint64_t weight;
  uintptr_t pc[CP_MAX_DEPTH];
};
bool cp_table_init(void);
/* Async-signal-safe, lock-free, never allocates. */
void cp_table_add(enum cp_resource r, const struct cp_stack *st,
                  uint64_t weight);
size_t cp_table_capacity(void);
const struct cp_entry *cp_table_entry(size_t i);
/* Per resource: every sample's weight, recorded or dropped (table full). */
extern _Atomic uint64_t cp_total_weight[CP_NRES];
extern _Atomic uint64_t cp_total_samples[CP_NRES];
extern _Atomic uint64_t cp_dropped_samples[CP_NRES];

/* Records one sample of resource r of `weight` units at stack st. */
void cp_record(enum cp_resource r, const struct cp_stack *st, uint64_t weight);

/* ---- per-thread state (cp_clocks.c) ---- */
/* n units of a counted resource (bytes) consumed by a call whose return
 * address into the program is caller_ra. */
void cp_io_bytes(enum cp_resource r, uint64_t n, uintptr_t caller_ra);

/* ---- wall-clock time (cp_wall.c) ---- */
/* seed: the thread's draws for its wall deadlines. */
void cp_wall_thread_start(uint64_t seed);
void cp_wall_thread_stop(void);
/* The CPU clock's sample should take the stack for wall time. */
bool cp_wall_wants_stack(void);
/* From the CPU clock's signal: the thread ran until now, at stack st. */
void cp_wall_on_cpu_sample(const struct cp_stack *st);

/* ---- kernel-sampled rings (cp_ring.c): context switches ---- */
/* Opens a ring-buffer counter for the calling thread; slot or -1. */
int cp_ring_open(uint64_t config, uint64_t period);
/* Drains the ring into the table, totals its count and closes it. */
void cp_ring_close(int slot);
void cp_ring_close_all(void);
/* At exit: a notice when modules compiled without frame pointers hid
 * callers from the kernel's call chains. */
void cp_ring_note_frame_pointers(void);

/* ---- output (cp_write.c) ---- */
/* Appends what was sampled since the previous block. */
void cp_write_profile(void);
/* Starts the thread that appends a block every few seconds; `create` is
 * the real pthread_create (the plain name is the runtime's interposer). */
void cp_start_flusher(int (*create)(pthread_t *, const pthread_attr_t *,
                                    void *(*)(void *), void *));

#endif /* COZ_CP_INTERNAL_H */
