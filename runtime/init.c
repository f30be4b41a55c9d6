/* init.c: the runtime's life cycle.
 *
 * coz_init runs from the executable's .preinit_array (before any
 * constructor, so threads and locks of other constructors are seen), with a
 * constructor and the first pthread_create as fallbacks. It reads the
 * flags, opens the profile, installs the sample handler and starts sampling
 * the threads that exist. The profiler starts from a constructor, once libc
 * and the libraries are initialised (profiler_host.h: in a thread of its
 * own, or in the program's while it has only one). At exit the final
 * records and the exit message are written.
 *
 * fork: the child stops profiling cleanly (documented in docs/design.md):
 * its copies of the parent's perf events are closed and the checkpoints
 * become pass-throughs. A program the child then execs profiles itself. */
#include "config.h"
#include "direct_calls.h"
#include "experiment.h"
#include "linemap/linemap.h"
#include "linemap/loaded.h"
#include "output.h"
#include "profiler_host.h"
#include "progress.h"
#include "real.h"
#include "records.h"
#include "runtime.h"
#include "sampler.h"
#include "signal_guard.h"
#include "thread_lifecycle.h"
#include "thread_state.h"
#include "util.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Atomic bool coz_active;
/* Off, the pass's call sites call the real functions (direct_calls.h). */
static void set_active(bool on) {
  atomic_store(&coz_active, on);
  coz_direct_calls(!on);
}
_Atomic bool coz_profiler_started;
struct sigaction coz_previous_action;

enum { INIT_NOT_YET, INIT_RUNNING, INIT_DONE };
static _Atomic int init_state;
static _Atomic pid_t init_pid;

static void on_exit_handler(void) {
  if (!atomic_load(&coz_active) || getpid() != atomic_load(&init_pid))
    return;
  coz_profiler_shutdown();
  set_active(false);
}

static void in_fork_child(void) {
  if (!atomic_load(&coz_active))
    return;
  set_active(false);
  coz_threads_forget_all();
}

static bool install_handler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = coz_on_sample_signal;
  /* SA_RESTART: a sample must never make a program's read() fail. */
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  return coz_real_sigaction(COZ_SAMPLE_SIGNAL, &sa, &coz_previous_action) == 0;
}

void coz_init_env(char **envp) {
  int expected = INIT_NOT_YET;
  if (!atomic_compare_exchange_strong(&init_state, &expected, INIT_RUNNING))
    return; /* done, or running in this very thread's call chain */
  coz_real_resolve();
  if (!coz_config_load(envp) || coz_config.OFF ||
      !coz_output_prepare(coz_config_given.OUTPUT) || !coz_sampler_init() ||
      !install_handler()) {
    set_active(false);
    atomic_store(&init_state, INIT_DONE);
    return;
  }
  atomic_store(&init_pid, getpid());
  coz_executable_path(); /* while the main thread is alive to resolve it */
  coz_record_startup();
  set_active(true);
  if (!coz_threads_init()) {
    set_active(false);
    coz_log_notice("cannot set up thread state; profiling is off");
  } else {
    /* Registered first, so it runs last: after the program's handlers. */
    atexit(on_exit_handler);
    pthread_atfork(NULL, NULL, in_fork_child);
    coz_log_verbose(1, "sampling with %s every %llu ns", coz_sampler_name(),
                    (unsigned long long)coz_config.PERIOD);
  }
  atomic_store(&init_state, INIT_DONE);
}

void coz_start_profiler_thread(void) {
  if (!atomic_load(&coz_active))
    return;
  bool expected = false;
  if (!atomic_compare_exchange_strong(&coz_profiler_started, &expected, true))
    return;
  /* Files the profiler thread reads, opened before main (fd_floor.h). */
  coz_output_preopen();
  coz_linemap_preopen(coz_progress_object_has_module, NULL);
  if (!coz_host_start(coz_profiler_main))
    atomic_store(&coz_profiler_started, false);
}

void coz_init(void) { coz_init_env(environ); }

static void preinit(int argc, char **argv, char **envp) {
  (void)argc, (void)argv;
  coz_init_env(envp);
}

/* Runs before every constructor of the executable (and after those of the
 * shared libraries it depends on). Only executables honour preinit_array;
 * the runtime is only ever linked into executables. */
__attribute__((section(".preinit_array"),
               used)) static void (*const coz_preinit_entry)(int, char **,
                                                             char **) = preinit;

__attribute__((constructor(101))) static void early_constructor(void) {
  coz_init();
}

/* The profiler thread reads the default scope from the modules registered
 * by the pass's constructors (priority 65535). This constructor has the
 * same priority and the runtime archive comes after the program's objects
 * on the link line, so it runs after theirs (and after every DSO's). */
__attribute__((constructor)) static void late_constructor(void) {
  coz_init();
  /* The wall-clock call path starts after preinit (cp_clocks.c), and its
   * blocking calls must reach their checkpoints (direct_calls.c). */
  if (!atomic_load(&coz_active))
    coz_direct_calls(true);
  coz_start_profiler_thread();
}
