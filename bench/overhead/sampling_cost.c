/* sampling_cost: what sampling a CPU-bound thread every 1 ms costs on this
 * machine, separated from the runtime. A register-only loop runs in a fresh
 * child process per measurement, under one of seven set-ups:
 *   none         no sampling;
 *   perf-ring    a task-clock perf event overflowing every period into a
 *                ring buffer, no signal (the kernel's timer interrupt only);
 *   perf-signal  the same event signalling the thread on every overflow,
 *                with an empty handler (what coz-cc's perf sampler asks of
 *                the kernel);
 *   perf-rearm   perf-signal whose handler restarts the period with a
 *                jittered length (PERF_EVENT_IOC_PERIOD) on every sample;
 *   perf-rearm8  the same on every 8th sample only, as the runtime's perf
 *                sampler does;
 *   perf-clock   perf-signal whose handler reads the thread's CPU clock, as
 *                the runtime does to weigh each sample;
 *   cpu-timer    a POSIX CPU-time timer of the thread with an empty handler
 *                (coz-cc's timer sampler: it fires on the scheduler tick).
 * Rounds run the seven in rotating order; each ratio is the median over
 * rounds of the set-up's wall time over the same round's `none`.
 *
 *   bench/overhead/sampling_cost [rounds (default 7)] [period ns (1000000)]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "median.h"

enum { NONE, PERF_RING, PERF_SIGNAL, PERF_REARM, PERF_REARM8, PERF_CLOCK,
       CPU_TIMER, N_SETUPS };
static const char *const setup_names[N_SETUPS] = {
    "none", "perf-ring", "perf-signal", "perf-rearm", "perf-rearm8",
    "perf-clock", "cpu-timer"};

#define ITERATIONS 1000000000ull
#define MAX_ROUNDS 64

static volatile sig_atomic_t signals_seen;
static void on_signal(int sig) {
  (void)sig;
  signals_seen++;
}

/* The per-sample work of the runtime's perf sampler, one piece each. */
static int rearm_fd = -1;
static uint64_t rearm_period, rearm_rng = 88172645463325252ull;
static void on_signal_rearm(int sig) {
  on_signal(sig);
  rearm_rng = rearm_rng * 6364136223846793005ull + 1442695040888963407ull;
  /* Uniform over [P/2, 3P/2), like the runtime's jitter. */
  uint64_t next = rearm_period / 2 + (rearm_rng >> 33) % rearm_period;
  ioctl(rearm_fd, PERF_EVENT_IOC_PERIOD, &next);
}
static void on_signal_rearm8(int sig) {
  if (signals_seen % 8 == 0)
    on_signal_rearm(sig);
  else
    on_signal(sig);
}
static void on_signal_clock(int sig) {
  on_signal(sig);
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int open_task_clock(uint64_t period) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = period;
  attr.sample_type = PERF_SAMPLE_IP;
  attr.wakeup_events = 1;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Arms the set-up for the calling thread; false if the kernel refuses. */
static bool arm(int setup, uint64_t period) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = setup == PERF_REARM    ? on_signal_rearm
                  : setup == PERF_REARM8 ? on_signal_rearm8
                  : setup == PERF_CLOCK  ? on_signal_clock
                                         : on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGRTMIN, &sa, NULL);
  pid_t tid = (pid_t)syscall(SYS_gettid);
  if (setup != NONE && setup != CPU_TIMER) {
    int fd = open_task_clock(period);
    if (fd < 0)
      return false;
    rearm_fd = fd;
    rearm_period = period;
    if (setup == PERF_RING) {
      long page = sysconf(_SC_PAGESIZE);
      if (mmap(NULL, (size_t)page * 9, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
               0) == MAP_FAILED)
        return false;
    } else {
      struct f_owner_ex owner = {F_OWNER_TID, tid};
      if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, SIGRTMIN) ||
          fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK))
        return false;
    }
    return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0;
  }
  if (setup == CPU_TIMER) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGRTMIN;
    ev._sigev_un._tid = tid;
    timer_t timer;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &timer))
      return false;
    struct timespec p = {(time_t)(period / 1000000000u),
                         (long)(period % 1000000000u)};
    struct itimerspec it = {p, p};
    return timer_settime(timer, 0, &it, NULL) == 0;
  }
  return true;
}

struct result {
  double seconds;
  double signals_per_s;
};

/* Runs the loop in a child under `setup`; seconds < 0 if it could not. */
static struct result measure(int setup, uint64_t period) {
  struct result r = {-1, 0};
  int pipefd[2];
  if (pipe(pipefd))
    return r;
  pid_t child = fork();
  if (child == 0) {
    close(pipefd[0]);
    struct result c = {-1, 0};
    if (arm(setup, period)) {
      double t0 = now_s();
      uint64_t x = 1;
      for (uint64_t i = 0; i < ITERATIONS; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
      }
      c.seconds = now_s() - t0;
      c.signals_per_s = signals_seen / c.seconds;
    }
    if (write(pipefd[1], &c, sizeof c) != (ssize_t)sizeof c)
      _exit(1);
    _exit(0);
  }
  close(pipefd[1]);
  if (child > 0 && read(pipefd[0], &r, sizeof r) != (ssize_t)sizeof r)
    r.seconds = -1;
  close(pipefd[0]);
  if (child > 0)
    waitpid(child, NULL, 0);
  return r;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  uint64_t period = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000u;
  if (rounds < 1 || rounds > MAX_ROUNDS || period < 10000) {
    fprintf(stderr,
            "usage: sampling_cost [rounds 1..%d] [period ns >= "
            "10000]\n",
            MAX_ROUNDS);
    return 2;
  }
  static double ratio[N_SETUPS][MAX_ROUNDS], rate[N_SETUPS][MAX_ROUNDS],
      base[MAX_ROUNDS];
  bool refused[N_SETUPS] = {false};
  for (int round = 0; round < rounds; round++) {
    struct result got[N_SETUPS];
    for (int k = 0; k < N_SETUPS; k++) {
      int setup = (round + k) % N_SETUPS; /* rotating order */
      got[setup] = measure(setup, period);
    }
    if (got[NONE].seconds <= 0) {
      fprintf(stderr, "sampling_cost: the unsampled loop did not run\n");
      return 1;
    }
    base[round] = got[NONE].seconds;
    for (int s = 0; s < N_SETUPS; s++) {
      refused[s] |= got[s].seconds <= 0;
      ratio[s][round] = got[s].seconds / got[NONE].seconds;
      rate[s][round] = got[s].signals_per_s;
    }
  }
  printf("loop of %llu LCG steps, %d rounds, period %llu ns; unsampled "
         "median %.3f s\n",
         (unsigned long long)ITERATIONS, rounds, (unsigned long long)period,
         bench_median(base, rounds));
  printf("%-12s %10s %10s %14s\n", "set-up", "time ratio", "overhead",
         "signals/s");
  for (int s = 1; s < N_SETUPS; s++) {
    if (refused[s]) {
      printf("%-12s refused by the kernel (perf_event_paranoid?)\n",
             setup_names[s]);
      continue;
    }
    double m = bench_median(ratio[s], rounds);
    printf("%-12s %10.3f %9.1f%% %14.0f\n", setup_names[s], m, 100 * (m - 1),
           bench_median(rate[s], rounds));
  }
  return 0;
}
