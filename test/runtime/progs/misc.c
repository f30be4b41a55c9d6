/* Small behaviours of the runtime, one per mode:
 *   misc noprogress        CPU work without any progress point
 *   misc pthread_exit      main calls pthread_exit while a worker runs
 *   misc fork              forks a child that works and exits
 *   misc spin MS           spins for MS ms reaching a progress point; prints
 *                          its CPU time
 *   misc chdir_spin DIR MS makes DIR, changes into it, then spins
 *   misc idle_tail         spins 300 ms reaching "spin", then sleeps 1.5 s
 *                          while a second thread runs 1 ms every 150 ms
 *   misc four MS           four regions of equal work per round, point
 *                          "four"
 *   misc fds               opens and closes /dev/null over and over while
 *                          it spins, from the start: prints the numbers it
 *                          got (always 3 without the runtime)
 *   misc ctor              joins a thread a constructor started
 *   misc exit_in_build     reaches point "once" and exits; with
 *                          MISC_CTOR=2, while the line map cannot be built
 *   misc exit_holding_loader  spins 400 ms reaching "spin", then a thread
 *                          holds the loader's lock; 200 ms later, exits
 *   misc kernel ROUNDS [SPIN]  rounds of user-mode work (SPIN LCG steps,
 *                          default 300000) and of reads from /dev/zero
 *                          (kernel time): prints each line's thread CPU
 *                          time
 *   misc pingpong MS       two threads hand a byte back and forth through
 *                          pipes, ~20 us of work a turn, while a third
 *                          spins for MS ms: prints the three thread ids
 *   misc waits TURNS MS [cond]  the main thread and a waiter hand TURNS turns
 *                          back and forth through a condition variable, ~1
 *                          us of work a turn, while a third thread spins
 *                          for MS ms: prints the three thread ids and the
 *                          two handing threads' CPU time in ms
 *   misc waits TURNS MS poll  the same with the turns handed through two
 *                          pipes, each side waiting in poll() before it
 *                          reads
 *   misc bursts MS         a thread spins for MS ms while another runs
 *                          ~100 us bursts of work with sleeps of 50-300 us
 *                          in between: prints both thread ids and CPU
 *                          times
 *   misc one_thread MS     spins for MS ms taking a mutex around each step,
 *                          reaching "spin", in the main thread only: prints
 *                          whether glibc still counts one thread
 *   misc outside MS        spins MS ms in the main thread, 99% of it in
 *                          spin.h's spin_here, reaching "spin": prints the
 *                          same as one_thread
 *   misc late_thread MS    spins MS ms in the main thread, then as long in
 *                          a second one: prints when (unix ns) it started
 *                          it, and the same as one_thread
 *   misc handler_masks     installs a handler through each of sigaction,
 *                          signal, sysv_signal, bsd_signal and sigset, and
 *                          prints for each whether SIGPROF is in the mask it
 *                          runs with */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "spin.h"
#include <coz.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t spin_for(double seconds, uint64_t x) {
  double end = now_s() + seconds;
  while (now_s() < end) {
    SPIN(100000, x); /* LINE_SPIN */
    COZ_PROGRESS_NAMED("spin");
  }
  return x;
}

/* glibc's own count: true until the process first creates a thread. */
extern char __libc_single_threaded;

static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t locked_spin_for(double seconds, uint64_t x) {
  double end = now_s() + seconds;
  while (now_s() < end) {
    for (int i = 0; i < 100; i++) {
      pthread_mutex_lock(&step_lock);
      SPIN(1000, x); /* LINE_LOCKED */
      pthread_mutex_unlock(&step_lock);
    }
    COZ_PROGRESS_NAMED("spin");
  }
  return x;
}

static void on_signal(int sig) { (void)sig; }

/* glibc exports it but no longer declares it. */
extern __sighandler_t bsd_signal(int sig, __sighandler_t handler);

static const char *masks_sigprof(int sig) {
  struct sigaction now;
  if (sigaction(sig, NULL, &now) != 0)
    return "error";
  return sigismember(&now.sa_mask, SIGPROF) == 1 ? "masked" : "open";
}

static void *late_worker(void *arg) {
  uint64_t x = locked_spin_for(*(double *)arg, 11);
  return (void *)(uintptr_t)(x & 1);
}

static void *worker(void *arg) {
  (void)arg;
  uint64_t x = spin_for(0.3, 5);
  printf("worker done %d\n", (int)(x & 1) >= 0);
  fflush(stdout);
  return NULL;
}

/* idle_tail's second thread: a millisecond of work in scope every 150 ms
 * starts experiments in which nothing else happens. */
static volatile int ticking = 1;
static void *ticker(void *arg) {
  (void)arg;
  uint64_t x = 3;
  while (ticking) {
    double end = now_s() + 0.001;
    while (now_s() < end)
      SPIN(1000, x); /* LINE_TICK */
    struct timespec nap = {0, 150000000};
    nanosleep(&nap, NULL);
  }
  return (void *)(uintptr_t)(x & 1);
}

/* A thread started by a constructor, before main: it must be sampled. It
 * runs 1.5 s: the test runs it at real-time priority, and beside another
 * such test the profiler thread waits out 100 ms round-robin quanta (0.4 s
 * once gave no experiment at all). */
static pthread_t ctor_thread;
static int ctor_started;

static void *ctor_worker(void *arg) {
  (void)arg;
  uint64_t x = 7;
  double end = now_s() + 1.5;
  while (now_s() < end) {
    SPIN(100000, x); /* LINE_CTOR */
    COZ_PROGRESS_NAMED("ctor");
  }
  return (void *)(uintptr_t)x;
}

/* MISC_CTOR=2: a thread that holds the loader's lock (inside a
 * dl_iterate_phdr callback) from before the profiler thread starts until
 * the process ends, so the line map's build cannot list the objects. */
static int loader_held[2];

static int hold_loader(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info, (void)size, (void)arg;
  char c = 1;
  if (write(loader_held[1], &c, 1) == 1)
    pause();
  return 1;
}

static void *loader_holder(void *arg) {
  dl_iterate_phdr(hold_loader, arg);
  return NULL;
}

/* Returns once a new thread holds the loader's lock, for good. */
static void hold_loader_now(void) {
  pthread_t t;
  char c;
  if (pipe(loader_held) != 0 ||
      pthread_create(&t, NULL, loader_holder, NULL) != 0 ||
      read(loader_held[0], &c, 1) != 1)
    abort();
}

__attribute__((constructor)) static void start_ctor_thread(void) {
  const char *mode = getenv("MISC_CTOR");
  if (mode && *mode == '1')
    ctor_started = pthread_create(&ctor_thread, NULL, ctor_worker, NULL) == 0;
  if (mode && *mode == '2')
    hold_loader_now();
}

/* pingpong: side i reads from pipes[i] and writes to pipes[1 - i]; a
 * non-zero byte stops both. */
static int pipes[2][2];
static volatile int pp_stop;
static int pp_tid[3];

static void *pingpong_side(void *arg) {
  int i = (int)(intptr_t)arg;
  uint64_t x = (uint64_t)i + 3;
  char c = 0;
  pp_tid[i] = (int)syscall(SYS_gettid);
  while (read(pipes[i][0], &c, 1) == 1 && c == 0) {
    SPIN(20000, x); /* LINE_PING */
    COZ_PROGRESS_NAMED("ping");
    c = (char)pp_stop;
    if (write(pipes[1 - i][1], &c, 1) != 1)
      break;
  }
  c = 1; /* pass the stop on to the other side */
  ssize_t unused = write(pipes[1 - i][1], &c, 1);
  (void)unused;
  return (void *)(uintptr_t)(x & 1);
}

static void *pingpong_alone(void *arg) {
  pp_tid[2] = (int)syscall(SYS_gettid);
  uint64_t x = spin_for(*(double *)arg, 7);
  pp_stop = 1;
  return (void *)(uintptr_t)(x & 1);
}

/* waits: w_turn is 1 while the waiter's, 0 while main's, -1 to stop. */
static pthread_mutex_t w_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_cond = PTHREAD_COND_INITIALIZER;
static int w_turn, w_tid;
static double w_cpu;

static void *waiter(void *arg) {
  (void)arg;
  uint64_t x = 11;
  w_tid = (int)syscall(SYS_gettid);
  pthread_mutex_lock(&w_lock);
  for (;;) {
    while (w_turn == 0)
      pthread_cond_wait(&w_cond, &w_lock);
    if (w_turn < 0)
      break;
    SPIN(200, x);
    w_turn = 0;
    pthread_cond_signal(&w_cond);
  }
  pthread_mutex_unlock(&w_lock);
  w_cpu = cpu_s();
  return (void *)(uintptr_t)(x & 1);
}

/* waits ... poll: side i waits in poll() for a byte on w_pipes[i] and
 * answers on w_pipes[1 - i]; a non-zero byte stops the waiter. */
static int w_pipes[2][2];

static char take_turn(int i) {
  struct pollfd p = {w_pipes[i][0], POLLIN, 0};
  char c = 1;
  if (poll(&p, 1, -1) != 1 || read(w_pipes[i][0], &c, 1) != 1)
    abort();
  return c;
}

static void give_turn(int i, char c) {
  if (write(w_pipes[1 - i][1], &c, 1) != 1)
    abort();
}

static void *waiter_poll(void *arg) {
  (void)arg;
  uint64_t x = 11;
  w_tid = (int)syscall(SYS_gettid);
  while (take_turn(1) == 0) {
    SPIN(200, x);
    give_turn(1, 0);
  }
  w_cpu = cpu_s();
  return (void *)(uintptr_t)(x & 1);
}

/* waits: main's side of the turns, then the waiter is stopped. */
static uint64_t hand_by_cond(long turns, uint64_t x) {
  pthread_mutex_lock(&w_lock);
  for (long i = 0; i < turns; i++) {
    SPIN(200, x);
    w_turn = 1;
    pthread_cond_signal(&w_cond);
    while (w_turn == 1)
      pthread_cond_wait(&w_cond, &w_lock);
  }
  w_turn = -1;
  pthread_cond_signal(&w_cond);
  pthread_mutex_unlock(&w_lock);
  return x;
}

static uint64_t hand_by_poll(long turns, uint64_t x) {
  for (long i = 0; i < turns; i++) {
    SPIN(200, x);
    give_turn(0, 0);
    take_turn(0);
  }
  give_turn(0, 1);
  return x;
}

/* bursts: the bursting thread stops once the spinning one is done. */
static volatile int b_stop;
static int b_tid;
static double b_cpu;

static void *burster(void *arg) {
  (void)arg;
  uint64_t x = 5;
  b_tid = (int)syscall(SYS_gettid);
  while (!b_stop) {
    SPIN(100000, x);
    usleep(50 + (unsigned)(x >> 40) % 250); /* no fixed phase to the tick */
  }
  b_cpu = cpu_s();
  return (void *)(uintptr_t)(x & 1);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "exit_holding_loader") == 0) {
    uint64_t x = spin_for(0.4, 9);
    hold_loader_now();
    /* Experiments of 50 ms: the profiler thread reaches the objects' next
     * reading, and waits for the lock, well within this. */
    usleep(200000);
    printf("done %d\n", (int)(x & 1) >= 0);
    exit(0);
  }
  if (strcmp(mode, "exit_in_build") == 0) {
    COZ_PROGRESS_NAMED("once");
    printf("done\n");
    exit(0);
  }
  if (strcmp(mode, "noprogress") == 0) {
    uint64_t x = 1;
    SPIN(300000000, x); /* LINE_NOPROGRESS */
    printf("x=%d\n", (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "chdir_spin") == 0 && argc > 3) {
    if ((mkdir(argv[2], 0755) != 0 && errno != EEXIST) || chdir(argv[2]) != 0)
      return 2;
    uint64_t x = spin_for(atoi(argv[3]) / 1000.0, 3);
    printf("x=%d\n", (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "pthread_exit") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_exit(NULL);
  }
  if (strcmp(mode, "fork") == 0) {
    uint64_t x = spin_for(0.2, 1);
    pid_t pid = fork();
    if (pid == 0) {
      x = spin_for(0.3, x);
      pthread_t t;
      pthread_create(&t, NULL, worker, NULL);
      pthread_join(t, NULL);
      _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    x = spin_for(0.2, x);
    printf("child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
  }
  if (strcmp(mode, "ctor") == 0) {
    if (ctor_started)
      pthread_join(ctor_thread, NULL);
    printf("ctor thread %s\n", ctor_started ? "joined" : "missing");
    return 0;
  }
  if (strcmp(mode, "idle_tail") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    uint64_t x = spin_for(0.3, 1);
    struct timespec nap = {1, 500000000};
    nanosleep(&nap, NULL);
    ticking = 0;
    pthread_join(t, NULL);
    printf("x=%d\n", (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "fds") == 0) {
    int seen[64] = {0};
    uint64_t x = 1;
    for (int i = 0; i < 400; i++) {
      int fd = open("/dev/null", O_RDONLY);
      if (fd >= 0 && fd < 64)
        seen[fd]++;
      close(fd);
      SPIN(1000000, x); /* LINE_FDS */
      COZ_PROGRESS_NAMED("fds");
    }
    for (int fd = 0; fd < 64; fd++)
      if (seen[fd])
        printf("fd %d: %d\n", fd, seen[fd]);
    return (int)(x & 0);
  }
  if (strcmp(mode, "four") == 0) {
    uint64_t x = 1;
    double end = now_s() + atof(argc > 2 ? argv[2] : "2000") / 1000;
    while (now_s() < end) {
      SPIN(200000, x); /* LINE_R1 */
      SPIN(200000, x); /* LINE_R2 */
      SPIN(200000, x); /* LINE_R3 */
      SPIN(200000, x); /* LINE_R4 */
      COZ_PROGRESS_NAMED("four");
    }
    printf("x=%d\n", (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "kernel") == 0) {
    static char buf[1 << 16];
    int fd = open("/dev/zero", O_RDONLY);
    uint64_t x = 1;
    double user = 0, sys = 0;
    long spin = atol(argc > 3 ? argv[3] : "300000");
    for (long r = atol(argc > 2 ? argv[2] : "500"); r > 0; r--) {
      double t0 = cpu_s();
      SPIN(spin, x); /* LINE_KUSER */
      double t1 = cpu_s();
      for (int i = 0; i < 96; i++)
        if (read(fd, buf, sizeof buf) != (ssize_t)sizeof buf) /* LINE_KSYS */
          return 1;
      user += t1 - t0;
      sys += cpu_s() - t1;
      COZ_PROGRESS_NAMED("kernel");
    }
    printf("x=%d user=%.4f kernel_line=%.4f\n", (int)(x & 1), user, sys);
    return 0;
  }
  if (strcmp(mode, "pingpong") == 0) {
    double seconds = atof(argc > 2 ? argv[2] : "1000") / 1000;
    pthread_t t[3];
    char c = 0;
    if (pipe(pipes[0]) != 0 || pipe(pipes[1]) != 0)
      return 1;
    for (int i = 0; i < 2; i++)
      pthread_create(&t[i], NULL, pingpong_side, (void *)(intptr_t)i);
    pthread_create(&t[2], NULL, pingpong_alone, &seconds);
    if (write(pipes[0][1], &c, 1) != 1)
      return 1;
    for (int i = 0; i < 3; i++)
      pthread_join(t[i], NULL);
    printf("ping=%d pong=%d alone=%d\n", pp_tid[0], pp_tid[1], pp_tid[2]);
    return 0;
  }
  if (strcmp(mode, "waits") == 0) {
    long turns = atol(argc > 2 ? argv[2] : "600");
    double seconds = atof(argc > 3 ? argv[3] : "300") / 1000;
    bool by_poll = argc > 4 && strcmp(argv[4], "poll") == 0;
    pthread_t t[2];
    if (by_poll && (pipe(w_pipes[0]) != 0 || pipe(w_pipes[1]) != 0))
      return 1;
    pthread_create(&t[0], NULL, pingpong_alone, &seconds);
    pthread_create(&t[1], NULL, by_poll ? waiter_poll : waiter, NULL);
    uint64_t x = by_poll ? hand_by_poll(turns, 13) : hand_by_cond(turns, 13);
    double main_cpu = cpu_s();
    for (int i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
    printf("main=%d waiter=%d alone=%d cpu=%.1f,%.1f x=%d\n",
           (int)syscall(SYS_gettid), w_tid, pp_tid[2], main_cpu * 1000,
           w_cpu * 1000, (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "bursts") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, burster, NULL);
    uint64_t x = spin_for(atof(argc > 2 ? argv[2] : "1000") / 1000, 1);
    double spin_cpu = cpu_s();
    b_stop = 1;
    pthread_join(t, NULL);
    printf("spinning=%d bursting=%d cpu=%.1f,%.1f x=%d\n",
           (int)syscall(SYS_gettid), b_tid, spin_cpu * 1000, b_cpu * 1000,
           (int)(x & 1));
    return 0;
  }
  if (strcmp(mode, "one_thread") == 0 && argc > 2) {
    uint64_t x = locked_spin_for(atof(argv[2]) / 1000, 1);
    printf("x=%d single=%d\n", (int)(x & 1) >= 0, __libc_single_threaded);
    return 0;
  }
  if (strcmp(mode, "outside") == 0 && argc > 2) {
    double end = now_s() + atof(argv[2]) / 1000;
    uint64_t x = 1;
    while (now_s() < end) {
      x = spin_here(1000000, x);
      SPIN(10000, x); /* the program's own 1% */
      COZ_PROGRESS_NAMED("spin");
    }
    printf("x=%d single=%d\n", (int)(x & 1) >= 0, __libc_single_threaded);
    return 0;
  }
  if (strcmp(mode, "handler_masks") == 0) {
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigaction(SIGUSR1, &act, NULL);
    signal(SIGUSR2, on_signal);
    sysv_signal(SIGHUP, on_signal);
    bsd_signal(SIGALRM, on_signal);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    sigset(SIGTERM, on_signal); /* as old programs still do */
#pragma GCC diagnostic pop
    printf("sigaction %s, signal %s, sysv_signal %s, bsd_signal %s, sigset "
           "%s\n",
           masks_sigprof(SIGUSR1), masks_sigprof(SIGUSR2),
           masks_sigprof(SIGHUP), masks_sigprof(SIGALRM),
           masks_sigprof(SIGTERM));
    return 0;
  }
  if (strcmp(mode, "late_thread") == 0 && argc > 2) {
    double seconds = atof(argv[2]) / 1000;
    uint64_t x = locked_spin_for(seconds, 1);
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    pthread_t t;
    pthread_create(&t, NULL, late_worker, &seconds);
    pthread_join(t, NULL);
    printf("thread at %lld\nx=%d single=%d\n",
           (long long)at.tv_sec * 1000000000 + at.tv_nsec, (int)(x & 1) >= 0,
           __libc_single_threaded);
    return 0;
  }
  if (strcmp(mode, "spin") == 0) {
    uint64_t x = spin_for(atof(argc > 2 ? argv[2] : "500") / 1000, 1);
    printf("x=%d cpu=%.4f\n", (int)(x & 1), cpu_s());
    return 0;
  }
  fprintf(stderr, "usage: misc noprogress|pthread_exit|fork|spin MS|...\n");
  return 2;
}
