/* threads.c: the registry of per-thread states.
 *
 * Slots live in chunks mapped with mmap (never malloc: the allocator may
 * itself call the interposed pthread functions) and are reused after a
 * thread exits, so thousands of concurrent threads and any number of
 * short-lived ones cost a bounded amount of memory. A slot is always set up
 * outside signal handlers: by the creating thread for threads started
 * through pthread_create/thrd_create, or by coz_threads_init for threads that
 * existed before the runtime. The latter are found by tid from the signal
 * handler the first time it runs in them. What a thread's start and exit
 * do beyond its slot (delays, call paths, the exit's checkpoint) is
 * thread_create.c's and thread_lifecycle.c's: the registry calls nothing
 * above it. */
#include "runtime.h"
#include "thread_state.h"
#include "util.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { SLOT_FREE, SLOT_RESERVED, SLOT_LIVE };

#define CHUNK_SLOTS 64
#define MAX_CHUNKS 4096

static struct coz_thread *_Atomic chunks[MAX_CHUNKS];
static _Atomic size_t n_chunks;
static atomic_flag grow_lock = ATOMIC_FLAG_INIT;
static _Atomic size_t hint; /* where the next free-slot search starts */
static _Atomic long live_threads;

/* The calling thread's state (thread_state.h reads it inline). */
__thread struct coz_thread *coz_self_tls
    __attribute__((tls_model("initial-exec")));
#define self coz_self_tls

long coz_threads_live(void) { return atomic_load(&live_threads); }

static struct coz_thread *slot_at(size_t i) {
  struct coz_thread *chunk =
      atomic_load_explicit(&chunks[i / CHUNK_SLOTS], memory_order_acquire);
  return chunk ? &chunk[i % CHUNK_SLOTS] : NULL;
}

/* Finds an adopted thread's slot by tid (signal handler, once per thread). */
static struct coz_thread *find_by_tid(pid_t tid) {
  size_t n =
      atomic_load_explicit(&n_chunks, memory_order_acquire) * CHUNK_SLOTS;
  for (size_t i = 0; i < n; i++) {
    struct coz_thread *t = slot_at(i);
    if (t && atomic_load_explicit(&t->tid, memory_order_relaxed) == tid &&
        atomic_load_explicit(&t->slot_state, memory_order_acquire) == SLOT_LIVE)
      return t;
  }
  return NULL;
}

/* Set once coz_threads_init has adopted every thread that existed: a
 * thread without a slot then never gets one, and says so in not_sampled
 * (the profiler thread, threads made with clone, exited threads), so its
 * checkpoints and interposed I/O calls do not search the slots each time. */
static _Atomic bool adoption_done;
static __thread bool not_sampled __attribute__((tls_model("initial-exec")));

struct coz_thread *coz_thread_self(void) {
  struct coz_thread *t = self;
  if (t || not_sampled ||
      !atomic_load_explicit(&coz_active, memory_order_relaxed))
    return t;
  /* Threads adopted at initialisation have a slot but no TLS pointer yet. */
  t = find_by_tid(coz_gettid());
  self = t;
  if (!t && atomic_load_explicit(&adoption_done, memory_order_acquire))
    not_sampled = true;
  return t;
}

static bool grow(void) {
  while (atomic_flag_test_and_set_explicit(&grow_lock, memory_order_acquire))
    sched_yield();
  size_t n = atomic_load(&n_chunks);
  bool ok = n < MAX_CHUNKS;
  if (ok) {
    void *mem =
        mmap(NULL, CHUNK_SLOTS * sizeof(struct coz_thread),
             PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ok = mem != MAP_FAILED;
    if (ok) {
      atomic_store_explicit(&chunks[n], mem, memory_order_release);
      atomic_store_explicit(&n_chunks, n + 1, memory_order_release);
    }
  }
  atomic_flag_clear_explicit(&grow_lock, memory_order_release);
  return ok;
}

static struct coz_thread *alloc_slot(void) {
  for (;;) {
    size_t n =
        atomic_load_explicit(&n_chunks, memory_order_acquire) * CHUNK_SLOTS;
    size_t start =
        n ? atomic_load_explicit(&hint, memory_order_relaxed) % n : 0;
    for (size_t k = 0; k < n; k++) {
      size_t i = (start + k) % n;
      struct coz_thread *t = slot_at(i);
      int expect = SLOT_FREE;
      if (t && atomic_compare_exchange_strong(&t->slot_state, &expect,
                                              SLOT_RESERVED)) {
        atomic_store_explicit(&hint, i + 1, memory_order_relaxed);
        atomic_store(&t->tid, 0);
        t->local_delay = 0;
        t->excess_ns = 0;
        t->in_runtime = 0;
        t->pending = 0;
        t->in_wait = 0;
        t->queue_head = t->queue_tail = t->queue_dropped = 0;
        t->start_fn = NULL;
        t->thrd_fn = NULL;
        t->start_arg = NULL;
        t->samples = 0;
        memset(&t->sampler, 0, sizeof t->sampler);
        t->sampler.fd = -1;
        return t;
      }
    }
    size_t before = n / CHUNK_SLOTS;
    if (atomic_load(&n_chunks) == before && !grow())
      return NULL;
  }
}

static void free_slot(struct coz_thread *t) {
  atomic_store(&t->tid, 0);
  atomic_store_explicit(&t->slot_state, SLOT_FREE, memory_order_release);
}

/* A free slot, counted live, starting with the delay count it inherits. */
static struct coz_thread *take_slot(uint64_t local_delay) {
  struct coz_thread *t = alloc_slot();
  if (!t)
    return NULL;
  t->local_delay = local_delay;
  atomic_fetch_add(&live_threads, 1);
  return t;
}

struct coz_thread *coz_thread_reserve(uint64_t local_delay) {
  if (!atomic_load_explicit(&coz_active, memory_order_relaxed))
    return NULL;
  return take_slot(local_delay);
}

void coz_thread_unreserve(struct coz_thread *t) {
  free_slot(t);
  atomic_fetch_sub(&live_threads, 1);
}

static void bind_and_sample(struct coz_thread *t, pid_t tid) {
  atomic_store(&t->tid, tid);
  atomic_store_explicit(&t->slot_state, SLOT_LIVE, memory_order_release);
  if (!coz_sampler_start(&t->sampler, tid))
    coz_log_verbose(1, "thread %d runs unsampled", (int)tid);
}

void coz_thread_bind(struct coz_thread *t) {
  self = t;
  bind_and_sample(t, coz_gettid());
}

void coz_thread_log_counts(const struct coz_thread *t) {
  coz_log_verbose(2,
                  "thread %d: %u sample signals, %u moves between samplers, "
                  "%llu samples, weighing %llu us of CPU time, %llu samples "
                  "of system-call time (%llu lost to a full ring)",
                  (int)atomic_load(&t->tid), t->sampler.signals,
                  t->sampler.moves, (unsigned long long)t->samples,
                  (unsigned long long)(t->sampler.weight_sum_ns / 1000),
                  (unsigned long long)t->sampler.kernel_samples,
                  (unsigned long long)t->sampler.kernel_lost);
}

long coz_thread_release(struct coz_thread *t) {
  t->in_runtime = 1; /* a late signal must not touch the slot any more */
  coz_sampler_stop(&t->sampler);
  coz_thread_log_counts(t);
  self = NULL;
  not_sampled = true;
  free_slot(t);
  return atomic_fetch_sub(&live_threads, 1) - 1;
}

void coz_threads_adopt(uint64_t local_delay) {
  pid_t me = coz_gettid();
  DIR *dir = opendir("/proc/self/task");
  if (dir) {
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
      pid_t tid = (pid_t)atoi(e->d_name);
      if (tid <= 0 || tid == me)
        continue;
      /* Its slot gets a sampler whose signal goes to that thread; the
       * handler finds the slot by tid. */
      struct coz_thread *t = take_slot(local_delay);
      if (!t)
        break;
      bind_and_sample(t, tid);
    }
    closedir(dir);
  }
  atomic_store_explicit(&adoption_done, true, memory_order_release);
}

void coz_threads_forget_all(void) {
  size_t n = atomic_load(&n_chunks) * CHUNK_SLOTS;
  for (size_t i = 0; i < n; i++) {
    struct coz_thread *t = slot_at(i);
    if (t && atomic_load(&t->slot_state) != SLOT_FREE) {
      /* The fds and timers are the parent's; close our copies only. */
      coz_sampler_forget(&t->sampler);
      free_slot(t);
    }
  }
  self = NULL;
  atomic_store(&live_threads, 0);
}
