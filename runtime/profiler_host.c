/* profiler_host.c: where the profiler runs (profiler_host.h).
 *
 * A thread of the profiler's own makes glibc take its multi-thread paths in
 * a program that has only one: each mutex, stdio or malloc lock becomes an
 * atomic instruction (cpu_mutex x4.8 on an Intel host, docs/results.md). So
 * while the program has one thread, the profiler runs in that thread, as a
 * coroutine on a stack of its own, with every signal blocked:
 *  - at start, from the late constructor, until it first waits (so the
 *    line map is built before main);
 *  - from the sample handler, once its wait is over, when the sample
 *    interrupted a line in scope (the program's own code, not libc's or
 *    the runtime's). No handler of the program's can be what it
 *    interrupted: they all run with the sample signal blocked
 *    (signal_guard.h). The thread then holds no lock of libc's, is in no
 *    allocator or stdio call, and the profiler may allocate, read and write
 *    files as in a thread;
 *  - at exit, to its end.
 * Before the program creates its first thread the profiler moves to a
 * thread of its own and goes on there from where it waited: the context
 * holds no thread-local state (glibc's swapcontext keeps %fs). */
#include "profiler_host.h"
#include "config.h"
#include "direct_calls.h"
#include "linemap/linemap.h"
#include "real.h"
#include "runtime.h"
#include "signal_guard.h"
#include "thread_state.h"
#include "util.h"

#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

/* glibc 2.32 on: true until the process first creates a thread. */
extern char __libc_single_threaded __attribute__((weak));

enum { HOST_NONE, HOST_PROGRAM, HOST_THREAD, HOST_FINISHING, HOST_DONE };
static _Atomic int host = HOST_NONE;

/* The profiler (experiment.c's), its context, and that of whoever runs it
 * (one at a time). */
static void *(*profiler)(void *);
static ucontext_t profiler_ctx, resumer_ctx;

/* libc's own context functions, not what the executable binds them to:
 * AddressSanitizer's interceptors of them print a warning on the program's
 * stderr at the first call. */
static struct {
  int (*get)(ucontext_t *);
  void (*make)(ucontext_t *, void (*)(void), int, ...);
  int (*swap)(ucontext_t *, const ucontext_t *);
  int (*set)(const ucontext_t *);
} ctx;

static bool find_context_functions(void) {
#ifdef COZ_STATIC_RUNTIME
  ctx.get = getcontext, ctx.make = makecontext;
  ctx.swap = swapcontext, ctx.set = setcontext;
#else
  void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
  if (!libc)
    return false;
  *(void **)&ctx.get = dlsym(libc, "getcontext");
  *(void **)&ctx.make = dlsym(libc, "makecontext");
  *(void **)&ctx.swap = dlsym(libc, "swapcontext");
  *(void **)&ctx.set = dlsym(libc, "setcontext");
  dlclose(libc); /* NOLOAD: only drops the reference it took */
#endif
  return ctx.get && ctx.make && ctx.swap && ctx.set;
}
static _Atomic uint64_t wake_at = UINT64_MAX;

/* As a thread's default stack: the line map's build and the records'
 * formatting run on it. Reserved, not committed, until touched. */
#define STACK_BYTES (8u << 20)

static void profiler_body(void) {
  profiler(NULL);
  atomic_store(&host, HOST_DONE);
  ctx.set(&resumer_ctx);
}

static void resume(void) { ctx.swap(&resumer_ctx, &profiler_ctx); }

/* From normal context: as the handler does, marks the thread as inside the
 * runtime meanwhile, so that the profiler's own calls to interposed
 * functions are not taken for the program's. */
static void run_here(void) {
  struct coz_thread *t = coz_thread_self();
  sig_atomic_t was = t ? t->in_runtime : 0;
  if (t)
    t->in_runtime = 1;
  resume();
  if (t)
    t->in_runtime = was;
}

/* Why the profiler moved to a thread of its own, said from that thread
 * (the move itself may run in the sample handler). */
static const char *_Atomic move_reason;

static void *resume_in_thread(void *arg) {
  (void)arg;
  coz_log_verbose(1, "%s: the profiler moves to a thread of its own",
                  atomic_load(&move_reason));
  resume();
  return NULL;
}

/* The profiler's own thread, never sampled: samples go to the threads
 * sampled, so it blocks every signal. */
static bool spawn(void *(*entry)(void *)) {
  sigset_t all, old;
  sigfillset(&all);
  coz_real_sigmask(SIG_BLOCK, &all, &old);
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int r = COZ_REAL(pthread_create)(&th, &attr, entry, NULL);
  pthread_attr_destroy(&attr);
  coz_real_sigmask(SIG_SETMASK, &old, NULL);
  if (r != 0)
    coz_log_notice("cannot start the profiler thread (%s); no experiments "
                   "will run",
                   strerror(r));
  return r == 0;
}

static bool make_coroutine(void) {
  if (!find_context_functions())
    return false;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *stack = mmap(NULL, STACK_BYTES + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack == MAP_FAILED)
    return false;
  mprotect(stack, page, PROT_NONE); /* an overflow faults, never corrupts */
  if (ctx.get(&profiler_ctx) != 0) {
    munmap(stack, STACK_BYTES + page);
    return false;
  }
  profiler_ctx.uc_stack.ss_sp = stack + page;
  profiler_ctx.uc_stack.ss_size = STACK_BYTES;
  profiler_ctx.uc_link = NULL; /* profiler_body never returns */
  sigfillset(&profiler_ctx.uc_sigmask);
  ctx.make(&profiler_ctx, profiler_body, 0);
  return true;
}

bool coz_host_start(void *(*body)(void *)) {
  profiler = body;
  if (coz_config.ONE_THREAD && &__libc_single_threaded &&
      __libc_single_threaded && coz_signal_guard_handlers() &&
      make_coroutine()) {
    atomic_store(&host, HOST_PROGRAM);
    coz_direct_calls(true); /* one thread: nothing to check */
    coz_log_verbose(1, "the profiler runs in the program's thread until "
                       "the program starts another");
    run_here();
    return true;
  }
  atomic_store(&host, HOST_THREAD);
  return spawn(body);
}

bool coz_host_yield(uint64_t until) {
  if (atomic_load(&host) != HOST_PROGRAM)
    return false;
  atomic_store(&wake_at, until);
  ctx.swap(&profiler_ctx, &resumer_ctx);
  return true;
}

/* From the program's thread, while the profiler waits there: it goes on
 * in a thread of its own. False when it stays (the program's thread then
 * runs it as before, with the direct table cleared or not). */
static bool move_to_thread(const char *why) {
  int expected = HOST_PROGRAM;
  /* A fork child does not profile: its copy of the profiler stays put. */
  if (!atomic_load(&coz_active) ||
      !atomic_compare_exchange_strong(&host, &expected, HOST_THREAD))
    return false;
  atomic_store(&move_reason, why);
  coz_direct_calls(false);
  if (spawn(resume_in_thread))
    return true;
  atomic_store(&host, HOST_PROGRAM); /* stays: runs from samples */
  return false;
}

/* Samples that found the thread outside its own lines once the wait was
 * over. A program that spends nearly all its time in a library without
 * lines in scope reaches its own code too rarely for experiments to end on
 * time (3 experiments where a thread of the profiler's own ran 23, with
 * 99.6% of the time in such a library): past this many, the profiler
 * moves to a thread at the next sample in the program's own code. Samples
 * count, not time: a program that sleeps gets none. */
#define MISSES_BEFORE_MOVE 100
static _Atomic unsigned misses;

/* The condition of the file's comment: a line in scope at pc. A thread
 * started behind the runtime's back (glibc's own helpers) may hold a lock
 * the profiler would wait for: then it waits for the exit. The cheap tests
 * come first; the clock and the lookup run only in the program's thread. */
void coz_host_on_sample(uintptr_t pc) {
  if (atomic_load_explicit(&host, memory_order_relaxed) != HOST_PROGRAM ||
      !__libc_single_threaded ||
      coz_now_ns() < atomic_load_explicit(&wake_at, memory_order_relaxed))
    return;
  if (!coz_linemap_lookup(pc)) {
    atomic_fetch_add_explicit(&misses, 1, memory_order_relaxed);
    return;
  }
  atomic_store(&wake_at, UINT64_MAX);
  if (atomic_exchange(&misses, 0) >= MISSES_BEFORE_MOVE &&
      move_to_thread("the program spends its time outside its own lines"))
    return;
  resume();
}

void coz_host_before_thread_create(void) {
  move_to_thread("the program starts a thread");
}

void coz_host_scope_grew(void) {
  struct coz_thread *t = coz_thread_self();
  if (atomic_load(&host) == HOST_PROGRAM && t && !t->in_runtime)
    run_here(); /* it reads the new lines, then waits again */
}

void coz_host_finish(void) {
  int expected = HOST_PROGRAM;
  if (atomic_compare_exchange_strong(&host, &expected, HOST_FINISHING))
    run_here(); /* the stop is requested: it returns only at its end */
}
