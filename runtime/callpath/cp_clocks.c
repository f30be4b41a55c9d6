/* cp_clocks.c: the resource clocks and the call-path profiler's life cycle.
 *
 * Per thread: CPU time is perf's task clock, or where perf is denied a
 * CLOCK_THREAD_CPUTIME_ID timer aimed at the thread (SIGEV_THREAD_ID);
 * page faults and context switches are perf software counters that signal the
 * thread (F_SETOWN_EX) when their period overflows. Bytes read/written are
 * counted by the interposers (cp_io.c). Every clock's next period is drawn
 * uniformly from [P/2, 3P/2) (the first from (0, P]), so sampling cannot lock
 * onto periodic program behaviour, and each sample weighs the units the thread
 * really consumed since its previous sample of that resource (a CPU timer fires
 * late, at a scheduler tick; a counter disables itself at overflow and is
 * re-enabled by the handler, so the units in between are neither sampled nor
 * totalled).
 *
 * Start-up runs from the executable's .preinit_array, on its own: call
 * paths work with or without causal experiments. */
#include "callpath.h"
#include "cp_internal.h"
#include "fd_floor.h"
#include "linemap/loaded.h"
#include "real.h"
#include "signal_guard.h"
#include "unwind/unwind.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct cp_thread {
  bool armed;
  bool has_timer;
  timer_t cpu_timer;
  int fd[CP_NRES]; /* perf counters, -1 when none */
  uint64_t last[CP_NRES];
  uint64_t io_acc[CP_NRES];
  uint64_t io_next[CP_NRES];
  struct cp_jitter jit;
  int csw_ring; /* cp_ring.c slot, -1 when none */
};

static CP_TLS struct cp_thread self;
_Atomic int cp_live_threads;
static pid_t cp_pid;
static pthread_key_t cp_key;

static void arm_cpu_timer(struct cp_thread *t) {
  uint64_t ns = cp_jittered(&t->jit, CP_CPU);
  struct itimerspec its = {
      {0, 0}, {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)}};
  timer_settime(t->cpu_timer, 0, &its, NULL);
}

static uint64_t counter_value(int fd) {
  uint64_t v = 0;
  /* The system call itself: read() is interposed (io_checkpoints.c). */
  if (syscall(SYS_read, fd, &v, sizeof v) != (long)sizeof v)
    return 0;
  return v;
}

static void rearm_counter(struct cp_thread *t, enum cp_resource r) {
  uint64_t period = cp_jittered(&t->jit, r);
  ioctl(t->fd[r], PERF_EVENT_IOC_PERIOD, &period);
  ioctl(t->fd[r], PERF_EVENT_IOC_REFRESH, 1);
}

/* The CPU clock runs for `cpu` and for `wall` (whose running time it
 * samples, cp_wall.c); the stack is taken only when one of them needs it. */
static void on_cpu_sample(struct cp_stack *st, uint64_t w, void *ucv) {
  bool cpu = cp_config.enabled[CP_CPU];
  if (!cpu && !cp_wall_wants_stack())
    return;
  cp_capture_signal(st, ucv);
  if (cpu)
    cp_record(CP_CPU, st, w);
  cp_wall_on_cpu_sample(st);
}

static void on_signal(int sig, siginfo_t *si, void *ucv) {
  (void)sig;
  int saved_errno = errno;
  struct cp_thread *t = &self;
  if (!atomic_load_explicit(&cp_active, memory_order_relaxed) || !t->armed)
    goto out;
  struct cp_stack st;
  if (si->si_code == SI_TIMER) {
    if (si->si_value.sival_int != CP_CPU || !t->has_timer)
      goto out;
    uint64_t now = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    uint64_t w = now - t->last[CP_CPU];
    t->last[CP_CPU] = now;
    on_cpu_sample(&st, w, ucv);
    arm_cpu_timer(t);
    goto out;
  }
  for (int r = 0; r < CP_NRES; r++) {
    if (t->fd[r] < 0 || t->fd[r] != si->si_fd)
      continue;
    uint64_t now = counter_value(t->fd[r]);
    uint64_t w = now - t->last[r];
    t->last[r] = now;
    if (r == CP_CPU) {
      on_cpu_sample(&st, w, ucv);
    } else {
      cp_capture_signal(&st, ucv);
      cp_record((enum cp_resource)r, &st, w);
    }
    rearm_counter(t, (enum cp_resource)r);
    break;
  }
out:
  errno = saved_errno;
}

static int open_counter(uint64_t config) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = config;
  a.sample_period = 1ull << 62; /* set by the first rearm */
  a.disabled = 1;
  a.exclude_hv = 1;
  /* Overflows only in user mode: a signal raised inside a system call
   * could cut a sleep short (EINTR). The count still includes the kernel
   * part (task clock) and it is credited to the next user-mode sample,
   * usually the code the system call returns to. */
  a.exclude_kernel = 1;
  return coz_fd_floor(
      (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

static bool start_counter(struct cp_thread *t, enum cp_resource r,
                          uint64_t config) {
  int fd = open_counter(config);
  if (fd < 0)
    return false;
  struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
  if (fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl(fd, F_SETSIG, cp_signal) != 0 ||
      fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0) {
    coz_fd_close(fd);
    return false;
  }
  t->fd[r] = fd;
  t->last[r] = 0;
  rearm_counter(t, r);
  return true;
}

static void thread_stop(void *arg) {
  struct cp_thread *t = arg;
  if (!t || !t->armed)
    return;
  t->armed = false;
  cp_wall_thread_stop();
  atomic_fetch_sub(&cp_live_threads, 1);
  if (t->has_timer)
    timer_delete(t->cpu_timer);
  t->has_timer = false;
  for (int r = 0; r < CP_NRES; r++)
    if (t->fd[r] >= 0) {
      coz_fd_close(t->fd[r]);
      t->fd[r] = -1;
    }
  if (t->csw_ring >= 0)
    cp_ring_close(t->csw_ring);
  t->csw_ring = -1;
}

void coz_callpath_thread_start(void) {
  struct cp_thread *t = &self;
  if (!atomic_load(&cp_active) || t->armed)
    return;
  pid_t tid = (pid_t)syscall(SYS_gettid);
  t->jit.rng = ((uint64_t)tid << 32) ^
               (uint64_t)coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID) ^
               (uint64_t)(uintptr_t)t;
  for (int r = 0; r < CP_NRES; r++)
    t->fd[r] = -1;
  t->armed = true;
  cp_stack_thread_start();
  atomic_fetch_add(&cp_live_threads, 1);
  /* CPU time: perf's task clock (an hrtimer, so samples come at the
   * period, not only at scheduler ticks), else a POSIX CPU-time timer. */
  cp_wall_thread_start(coz_xorshift64s(&t->jit.rng));
  if ((cp_config.enabled[CP_CPU] || cp_config.enabled[CP_WALL]) &&
      !start_counter(t, CP_CPU, PERF_COUNT_SW_TASK_CLOCK)) {
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = cp_signal;
    sev.sigev_value.sival_int = CP_CPU;
    sev._sigev_un._tid = tid;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->cpu_timer) == 0) {
      t->has_timer = true;
      t->last[CP_CPU] = coz_cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
      arm_cpu_timer(t);
    }
  }
  static const struct {
    enum cp_resource r;
    uint64_t config;
  } counters[] = {{CP_MINFLT, PERF_COUNT_SW_PAGE_FAULTS_MIN},
                  {CP_MAJFLT, PERF_COUNT_SW_PAGE_FAULTS_MAJ}};
  for (size_t i = 0; i < sizeof counters / sizeof *counters; i++)
    if (cp_config.enabled[counters[i].r] &&
        !start_counter(t, counters[i].r, counters[i].config)) {
      static _Atomic bool warned;
      if (!atomic_exchange(&warned, true)) {
        static const char msg[] =
            "coz: COZ_CALLPATH: cannot open a perf software counter "
            "(perf_event_open: denied, or out of file descriptors); "
            "page-fault call paths are off for some threads\n";
        long unused = syscall(SYS_write, 2, msg, sizeof msg - 1);
        (void)unused;
      }
    }
  /* Context switches: kernel-side samples, never a signal (cp_ring.c). */
  t->csw_ring = -1;
  if (cp_config.enabled[CP_CSW]) {
    t->csw_ring =
        cp_ring_open(PERF_COUNT_SW_CONTEXT_SWITCHES, cp_config.period[CP_CSW]);
    if (t->csw_ring < 0) {
      static _Atomic bool warned_csw;
      if (!atomic_exchange(&warned_csw, true)) {
        static const char msg[] =
            "coz: COZ_CALLPATH: cannot open a context-switch counter with "
            "a ring buffer (perf_event_open or mmap: needs "
            "perf_event_paranoid <= 1 or CAP_PERFMON, file descriptors, "
            "locked memory; at most 512 threads at once); csw call paths "
            "are off for some threads\n";
        long unused = syscall(SYS_write, 2, msg, sizeof msg - 1);
        (void)unused;
      }
    }
  }
  pthread_setspecific(cp_key, t);
}

_Atomic bool coz_callpath_bytes;

void coz_callpath_io_bytes(bool written, uint64_t n, uintptr_t caller_ra) {
  enum cp_resource r = written ? CP_WRITE : CP_READ;
  if (cp_config.enabled[r])
    cp_io_bytes(r, n, caller_ra);
}

/* Called by the runtime's I/O interposers with the bytes a call moved. */
void cp_io_bytes(enum cp_resource r, uint64_t n, uintptr_t caller_ra) {
  struct cp_thread *t = &self;
  /* Unarmed threads are the runtime's own (the profiler thread reading
   * debug information) or threads started behind the runtime's back. */
  if (!t->armed || !atomic_load_explicit(&cp_active, memory_order_relaxed))
    return;
  /* The total counts every byte, so the bytes after a thread's last
   * sample still make the fractions smaller rather than vanish. */
  atomic_fetch_add_explicit(&cp_total_weight[r], n, memory_order_relaxed);
  if (t->io_next[r] == 0)
    t->io_next[r] = cp_jittered(&t->jit, r);
  t->io_acc[r] += n;
  if (t->io_acc[r] < t->io_next[r])
    return;
  uint64_t w = t->io_acc[r];
  t->io_acc[r] = 0;
  t->io_next[r] = cp_jittered(&t->jit, r);
  struct cp_stack st;
  cp_capture_here(&st, caller_ra);
  atomic_fetch_add_explicit(&cp_total_samples[r], 1, memory_order_relaxed);
  cp_table_add(r, &st, w);
}

static void at_exit(void) {
  if (getpid() != cp_pid || !atomic_exchange(&cp_active, false))
    return;
  atomic_store(&coz_callpath_bytes, false);
  atomic_store(&coz_callpath_wall, false);
  cp_ring_close_all(); /* the threads still running */
  if (cp_config.enabled[CP_CSW])
    cp_ring_note_frame_pointers();
  cp_write_profile();
}

static void in_fork_child(void) {
  atomic_store(&cp_active, false);
  atomic_store(&coz_callpath_bytes, false);
  atomic_store(&coz_callpath_wall, false);
}

static const char *env_value(char **envp, const char *name) {
  size_t n = strlen(name);
  for (char **e = envp; e && *e; e++)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

static void cp_init(char **envp) {
  const char *spec = env_value(envp, "COZ_CALLPATH");
  if (!spec || !*spec)
    return;
  if (!cp_parse_spec(spec, &cp_config))
    return;
  const char *out = env_value(envp, "COZ_CALLPATH_OUTPUT");
  if (!out || !*out)
    out = "profile.callpath";
  size_t len = strlen(out);
  if (len >= sizeof cp_config.output) {
    static const char msg[] = "coz: COZ_CALLPATH_OUTPUT is too long; give a "
                              "shorter path; call paths are off\n";
    long unused = syscall(SYS_write, 2, msg, sizeof msg - 1);
    (void)unused;
    return;
  }
  memcpy(cp_config.output, out, len + 1);
  /* A real-time signal of our own: queued, so bursts are not merged. */
  cp_signal = SIGRTMIN + 5;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (!cp_table_init() || coz_real_sigaction(cp_signal, &sa, NULL) != 0 ||
      pthread_key_create(&cp_key, thread_stop) != 0) {
    static const char msg[] = "coz: COZ_CALLPATH: cannot set up the sample "
                              "table or signal; call paths are off\n";
    long unused = syscall(SYS_write, 2, msg, sizeof msg - 1);
    (void)unused;
    return;
  }
  cp_pid = getpid();
  coz_executable_path(); /* for the symbols, even if main ends first */
  cp_ready = true;
}

/* Sampling starts here rather than in preinit, and the exit handler is
 * registered here, after the causal profiler's (registered from its
 * preinit): it then runs before that one, so neither the causal profile's
 * start-up nor its shutdown records count as bytes the program wrote. */
__attribute__((constructor(101))) static void cp_start(void) {
  if (!cp_ready || getpid() != cp_pid)
    return;
  atexit(at_exit);
  pthread_atfork(NULL, NULL, in_fork_child);
  /* Without `cpu`, the CPU clock still samples running time for `wall`,
   * four times per wall period: the running time between a thread's last
   * CPU sample and its next blocking call is given to that call's stack
   * (cp_wall.c), so the clock's period bounds that error. */
  if (!cp_config.enabled[CP_CPU])
    cp_config.period[CP_CPU] = cp_config.period[CP_WALL] / 4 + 1;
  coz_unwind_refresh(); /* the stepper's table, before the first sample */
  atomic_store(&cp_active, true);
  atomic_store(&coz_callpath_bytes,
               cp_config.enabled[CP_READ] || cp_config.enabled[CP_WRITE]);
  atomic_store(&coz_callpath_wall, cp_config.enabled[CP_WALL]);
  coz_callpath_thread_start();
  cp_start_flusher(COZ_REAL(pthread_create));
}

static void preinit(int argc, char **argv, char **envp) {
  (void)argc, (void)argv;
  cp_init(envp);
}

/* Its own .preinit_array entry: independent of the causal profiler's
 * start-up (which may be off or fail). */
__attribute__((section(".preinit_array"),
               used)) static void (*const cp_preinit_entry)(int, char **,
                                                            char **) = preinit;
