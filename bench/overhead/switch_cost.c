/* switch_cost: what a thread's sampler costs it at each context switch on
 * this machine, separated from the runtime. Two threads of a fresh child
 * process, both pinned to CPU 0, hand a byte back and forth through two
 * pipes, so every hand-over is a switch from one to the other; each thread
 * has one of five set-ups:
 *   none        no sampling;
 *   perf-count  a task-clock perf event that only counts (no period);
 *   perf-user   a task-clock event overflowing every period in user mode,
 *               as coz-cc's perf sampler opens one per thread;
 *   perf-both   perf-user plus a second event sampling kernel mode into a
 *               ring, as the perf sampler adds where kernel samples are
 *               allowed (runtime/sampler_kernel.c);
 *   cpu-timer   a POSIX CPU-time timer of the thread (coz-cc's timer
 *               sampler), with an empty handler.
 * A sampling perf event is an hrtimer that the kernel stops when its thread
 * is switched out and restarts when it is switched in; a CPU-time timer is
 * checked at the scheduler tick. Rounds run the five in rotating order;
 * each figure is the median over rounds of the set-up's time per round trip
 * (two switches) and its excess over the same round's `none`.
 *
 *   build/bench/switch_cost [rounds (default 7)] [round trips (100000)]
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "median.h"

enum { NONE, PERF_COUNT, PERF_USER, PERF_BOTH, CPU_TIMER, N_SETUPS };
static const char *const setup_names[N_SETUPS] = {
    "none", "perf-count", "perf-user", "perf-both", "cpu-timer"};

#define PERIOD_NS 1000000

static int setup;
static int to_peer[2], to_main[2];

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

static void open_event(int kernel, int sampling) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = sampling ? PERIOD_NS : 0;
  a.exclude_kernel = !kernel;
  a.exclude_user = kernel;
  a.exclude_hv = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  if (fd < 0)
    die("perf_event_open (run as root, or lower perf_event_paranoid)");
  /* A ring, as the runtime's kernel event has (its overflows land there);
   * the user-mode event's overflows have nowhere to go and no signal: the
   * hrtimer's cost is the same. */
  if (kernel && mmap(NULL, 17 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                     0) == MAP_FAILED)
    die("mmap");
}

static void on_tick(int sig) { (void)sig; }

static void start_sampling(void) {
  switch (setup) {
  case PERF_COUNT:
    open_event(0, 0);
    break;
  case PERF_USER:
    open_event(0, 1);
    break;
  case PERF_BOTH:
    open_event(0, 1);
    open_event(1, 1);
    break;
  case CPU_TIMER: {
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t t;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t) != 0)
      die("timer_create");
    struct itimerspec its = {{0, PERIOD_NS}, {0, PERIOD_NS}};
    timer_settime(t, 0, &its, NULL);
    break;
  }
  }
}

static void *peer(void *arg) {
  (void)arg;
  start_sampling();
  char c;
  while (read(to_peer[0], &c, 1) == 1 && c == 0)
    if (write(to_main[1], &c, 1) != 1)
      break;
  return NULL;
}

/* In a fresh child: microseconds per round trip, written to fd out. */
static void measure(long trips, int out) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0)
    die("sched_setaffinity");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tick;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  if (pipe(to_peer) != 0 || pipe(to_main) != 0)
    die("pipe");
  pthread_t t;
  pthread_create(&t, NULL, peer, NULL); /* inherits the affinity */
  start_sampling();
  char c = 0;
  double t0 = now_s();
  for (long i = 0; i < trips; i++)
    if (write(to_peer[1], &c, 1) != 1 || read(to_main[0], &c, 1) != 1)
      die("pipe round trip");
  double us = (now_s() - t0) * 1e6 / (double)trips;
  c = 1;
  if (write(to_peer[1], &c, 1) != 1)
    die("write");
  pthread_join(t, NULL);
  if (write(out, &us, sizeof us) != (ssize_t)sizeof us)
    die("write");
}

static double run_setup(int which, long trips) {
  int p[2];
  if (pipe(p) != 0)
    die("pipe");
  pid_t pid = fork();
  if (pid == 0) {
    setup = which;
    measure(trips, p[1]);
    _exit(0);
  }
  double us = -1;
  if (read(p[0], &us, sizeof us) != (ssize_t)sizeof us)
    us = -1;
  int status;
  waitpid(pid, &status, 0);
  close(p[0]);
  close(p[1]);
  if (us < 0) {
    fprintf(stderr, "switch_cost: set-up %s failed\n", setup_names[which]);
    exit(1);
  }
  return us;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  long trips = argc > 2 ? atol(argv[2]) : 100000;
  if (rounds < 1 || rounds > 100 || trips < 1) {
    fprintf(stderr, "usage: switch_cost [rounds 1-100] [round trips]\n");
    return 2;
  }
  static double us[N_SETUPS][100], excess[N_SETUPS][100];
  for (int r = 0; r < rounds; r++) {
    double round[N_SETUPS];
    for (int k = 0; k < N_SETUPS; k++) {
      int which = (r + k) % N_SETUPS;
      round[which] = run_setup(which, trips);
    }
    for (int k = 0; k < N_SETUPS; k++) {
      us[k][r] = round[k];
      excess[k][r] = round[k] - round[NONE];
    }
  }
  printf("%d rounds of %ld round trips (2 switches each) on one CPU; "
         "medians over rounds\n",
         rounds, trips);
  printf("%-11s %12s %14s\n", "set-up", "us/trip", "+us/switch");
  for (int k = 0; k < N_SETUPS; k++)
    printf("%-11s %12.2f %+14.2f\n", setup_names[k],
           bench_median(us[k], rounds), bench_median(excess[k], rounds) / 2);
  return 0;
}
