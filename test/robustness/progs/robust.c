/* robust.c: one test program for the robustness tests (issue 7), built with
 * coz-cc. Every mode does register-only work, reaches a progress point and
 * prints what it observed, so the test can compare a profiled run with an
 * unprofiled one.
 *
 *   robust work MS            spin MS ms (the baseline workload)
 *   robust fork               a forked child works, starts a thread, exits 3
 *   robust exec               a forked child execs this program (work 600)
 *   robust execself           works, then execs this program (work 600)
 *   robust vfork              vfork+_exit, vfork+exec, then work
 *   robust spawn              posix_spawn of this program (work 600)
 *   robust threads N CONC     N threads in all, CONC alive at once
 *   robust detached N         N detached threads; main waits on a counter
 *   robust ctor               joins a thread a constructor started
 *   robust pthread_exit       main calls pthread_exit, detached workers run
 *   robust sigprof|sigalrm    own handler + setitimer; counts signals
 *   robust coz_signal_late    installs its own SIGPROF handler after start
 *   robust sigblock           a thread blocks every signal, spins, polls them
 *   robust altstack           SIGUSR1 handler working on a 4 KiB sigaltstack
 *   robust restart            pipe ping-pong relying on SA_RESTART
 *   robust segv|abort|forever work, then crash (or spin until killed)
 *   robust alloc              malloc/free churn in 8 threads */
#define _GNU_SOURCE
#include <coz.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define SPIN(n, x)                                                             \
  for (uint64_t spin_i_ = 0; spin_i_ < (uint64_t)(n); spin_i_++) {             \
    (x) = (x)*6364136223846793005ull + 1442695040888963407ull;                 \
    __asm__ volatile("" : "+r"(x));                                            \
  }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t work_for(double seconds, uint64_t x) {
  double end = now_s() + seconds;
  while (now_s() < end) {
    SPIN(20000, x); /* LINE_WORK */
    COZ_PROGRESS_NAMED("work");
  }
  return x;
}

static const char *self_path;

static int wait_status(pid_t pid) {
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- threads ---- */
static atomic_long finished;
static pthread_barrier_t all_alive;
static int use_barrier;

static void *short_worker(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  if (use_barrier)
    pthread_barrier_wait(&all_alive);
  SPIN(2000, x); /* LINE_THREAD */
  COZ_PROGRESS_NAMED("thread");
  atomic_fetch_add(&finished, 1);
  return (void *)(uintptr_t)(x | 1);
}

static int run_threads(long n, long conc) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t *th = calloc((size_t)conc, sizeof *th);
  use_barrier = n == conc;
  if (use_barrier)
    pthread_barrier_init(&all_alive, NULL, (unsigned)conc);
  long ok = 0;
  for (long done = 0; done < n; done += conc) {
    long k = n - done < conc ? n - done : conc;
    for (long i = 0; i < k; i++) {
      int r = pthread_create(&th[i], &attr, short_worker, (void *)(i + 1));
      if (r != 0) {
        printf("pthread_create %ld failed: %s\n", done + i, strerror(r));
        return 1;
      }
    }
    for (long i = 0; i < k; i++) {
      void *ret;
      pthread_join(th[i], &ret);
      ok += ret != NULL;
    }
  }
  printf("threads=%ld joined=%ld finished=%ld\n", n, ok, (long)finished);
  return 0;
}

static void *detached_worker(void *arg) {
  uint64_t x = work_for(0.002, (uint64_t)(uintptr_t)arg);
  atomic_fetch_add(&finished, (long)(x | 1) > 0 ? 1 : 1);
  return NULL;
}

static int run_detached(long n) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (long i = 0; i < n; i++) {
    pthread_t t;
    while (pthread_create(&t, &attr, detached_worker, (void *)(i + 1)) != 0)
      usleep(1000); /* EAGAIN: too many alive at once */
  }
  while (atomic_load(&finished) < n)
    usleep(1000);
  printf("detached=%ld finished=%ld\n", n, (long)finished);
  return 0;
}

/* ---- a thread started by a constructor, before main ---- */
static pthread_t ctor_thread;
static int ctor_started;

static void *ctor_worker(void *arg) {
  (void)arg;
  uint64_t x = work_for(0.4, 7);
  return (void *)(uintptr_t)(x | 1);
}

__attribute__((constructor)) static void start_ctor_thread(void) {
  const char *m = getenv("ROBUST_CTOR");
  if (m && strcmp(m, "1") == 0)
    ctor_started = pthread_create(&ctor_thread, NULL, ctor_worker, NULL) == 0;
}

static void *exit_worker(void *arg) {
  uint64_t x = work_for(0.3, (uint64_t)(uintptr_t)arg);
  printf("worker %d done\n", (int)((x | 1) & 1));
  fflush(stdout);
  return NULL;
}

/* ---- signals ---- */
static atomic_long own_signals, stray_signals;
static int expected_code;

static void count_signal(int sig, siginfo_t *info, void *uc) {
  (void)sig, (void)uc;
  if (info->si_code == expected_code)
    atomic_fetch_add(&own_signals, 1);
  else
    atomic_fetch_add(&stray_signals, 1);
}

/* Spins for `cpu` seconds of process CPU time with an interval timer of
 * the program's own, counting the signals its handler sees. */
static int run_itimer(int sig, int which, double cpu) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = count_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
  expected_code = SI_KERNEL;
  struct itimerval it = {{0, 10000}, {0, 10000}}; /* 10 ms */
  setitimer(which, &it, NULL);
  uint64_t x = 3;
  double t0 = now_s();
  clock_t end = clock() + (clock_t)(cpu * CLOCKS_PER_SEC);
  while (clock() < end) {
    SPIN(20000, x);
    COZ_PROGRESS_NAMED("work");
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(which, &off, NULL);
  printf("own=%ld stray=%ld wall_ms=%d x=%d\n", (long)own_signals,
         (long)stray_signals, (int)((now_s() - t0) * 1000), (int)(x & 1) * 0);
  return 0;
}

static void *blocked_worker(void *arg) {
  (void)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  uint64_t x = work_for(0.4, 11);
  sigset_t pending;
  sigpending(&pending);
  int n = 0;
  for (int s = 1; s < SIGRTMIN; s++)
    n += sigismember(&pending, s) == 1;
  printf("blocked thread: pending=%d x=%d\n", n, (int)(x & 1) * 0);
  return NULL;
}

static atomic_long usr1_handled;
static void usr1_on_altstack(int sig) {
  (void)sig;
  /* Work inside the handler, so runtime signals land on the small stack. */
  uint64_t x = 5;
  SPIN(20000, x);
  __asm__ volatile("" : "+r"(x));
  atomic_fetch_add(&usr1_handled, 1);
}

static int run_altstack(void) {
  static char stack[4096] __attribute__((aligned(16)));
  stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0) {
    perror("sigaltstack");
    return 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = usr1_on_altstack;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);
  double end = now_s() + 0.8;
  long sent = 0;
  while (now_s() < end) {
    raise(SIGUSR1);
    sent++;
    COZ_PROGRESS_NAMED("work");
  }
  printf("usr1 sent=%ld handled=%ld\n", sent, (long)usr1_handled);
  return sent == usr1_handled ? 0 : 1;
}

static int ping[2], pong[2];
static void *pong_worker(void *arg) {
  long rounds = (long)(intptr_t)arg;
  uint64_t x = 9;
  char c;
  for (long i = 0; i < rounds; i++) {
    if (read(ping[0], &c, 1) != 1) {
      printf("pong read: %s\n", strerror(errno));
      exit(1);
    }
    SPIN(20000, x);
    if (write(pong[1], &c, 1) != 1) {
      printf("pong write: %s\n", strerror(errno));
      exit(1);
    }
  }
  return (void *)(uintptr_t)(x | 1);
}

static int run_restart(long rounds) {
  struct sigaction cur;
  sigaction(SIGPROF, NULL, &cur);
  if (pipe(ping) || pipe(pong))
    return 1;
  pthread_t t;
  pthread_create(&t, NULL, pong_worker, (void *)(intptr_t)rounds);
  uint64_t x = 1;
  char c = 'x';
  long eintr = 0;
  for (long i = 0; i < rounds; i++) {
    SPIN(20000, x);
    if (write(ping[1], &c, 1) != 1) {
      printf("ping write: %s\n", strerror(errno));
      return 1;
    }
    ssize_t r = read(pong[0], &c, 1);
    if (r != 1) {
      eintr += errno == EINTR;
      printf("ping read: %s\n", strerror(errno));
      return 1;
    }
    COZ_PROGRESS_NAMED("work");
  }
  pthread_join(t, NULL);
  printf("rounds=%ld eintr=%ld sigprof_restart=%d\n", rounds, eintr,
         cur.sa_handler == SIG_DFL || (cur.sa_flags & SA_RESTART) != 0);
  return 0;
}

static int run_alloc(void);

int main(int argc, char **argv) {
  self_path = argv[0];
  const char *mode = argc > 1 ? argv[1] : "work";
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (strcmp(mode, "work") == 0) {
    uint64_t x = work_for(atof(argc > 2 ? argv[2] : "500") / 1000, 1);
    printf("work done pid=%d x=%d\n", (int)getpid(), (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "fork") == 0) {
    uint64_t x = work_for(0.3, 1);
    pid_t pid = fork();
    if (pid == 0) {
      x = work_for(0.3, x);
      pthread_t t;
      pthread_create(&t, NULL, exit_worker, (void *)1);
      pthread_join(t, NULL);
      exit(3); /* exit, not _exit: atexit handlers run in the child */
    }
    int st = wait_status(pid);
    x = work_for(0.3, x);
    printf("child status %d x=%d\n", st, (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "exec") == 0) {
    uint64_t x = work_for(0.2, 1);
    pid_t pid = fork();
    if (pid == 0) {
      execl(self_path, self_path, "work", "600", (char *)NULL);
      _exit(127);
    }
    int st = wait_status(pid);
    x = work_for(0.2, x);
    printf("exec child status %d x=%d\n", st, (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "execself") == 0) {
    uint64_t x = work_for(0.3, 1);
    printf("before exec x=%d\n", (int)(x & 1) * 0);
    execl(self_path, self_path, "work", "600", (char *)NULL);
    return 127;
  }
  if (strcmp(mode, "vfork") == 0) {
    uint64_t x = work_for(0.2, 1);
    pid_t a = vfork();
    if (a == 0)
      _exit(5);
    int sa = wait_status(a);
    pid_t b = vfork();
    if (b == 0) {
      execl("/bin/true", "true", (char *)NULL);
      _exit(127);
    }
    int sb = wait_status(b);
    x = work_for(0.3, x);
    printf("vfork statuses %d %d x=%d\n", sa, sb, (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "spawn") == 0) {
    uint64_t x = work_for(0.2, 1);
    pid_t pid;
    char *args[] = {(char *)self_path, "work", "600", NULL};
    int r = posix_spawn(&pid, self_path, NULL, NULL, args, environ);
    int st = r == 0 ? wait_status(pid) : -r;
    x = work_for(0.2, x);
    printf("spawn status %d x=%d\n", st, (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "threads") == 0 && argc > 3)
    return run_threads(atol(argv[2]), atol(argv[3]));
  if (strcmp(mode, "detached") == 0 && argc > 2)
    return run_detached(atol(argv[2]));
  if (strcmp(mode, "ctor") == 0) {
    void *ret = NULL;
    if (ctor_started)
      pthread_join(ctor_thread, &ret);
    printf("ctor thread %s\n", ret ? "joined" : "missing");
    return 0;
  }
  if (strcmp(mode, "pthread_exit") == 0) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < 3; i++) {
      pthread_t t;
      pthread_create(&t, &attr, exit_worker, (void *)(uintptr_t)(i + 2));
    }
    pthread_exit(NULL);
  }
  if (strcmp(mode, "sigprof") == 0)
    return run_itimer(SIGPROF, ITIMER_PROF, 0.6);
  if (strcmp(mode, "sigalrm") == 0)
    return run_itimer(SIGALRM, ITIMER_REAL, 0.6);
  if (strcmp(mode, "sigblock") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, blocked_worker, NULL);
    uint64_t x = work_for(0.4, 1);
    pthread_join(t, NULL);
    printf("main x=%d\n", (int)(x & 1) * 0);
    return 0;
  }
  if (strcmp(mode, "altstack") == 0)
    return run_altstack();
  if (strcmp(mode, "restart") == 0)
    return run_restart(argc > 2 ? atol(argv[2]) : 3000);
  if (strcmp(mode, "segv") == 0 || strcmp(mode, "abort") == 0 ||
      strcmp(mode, "forever") == 0) {
    double secs = strcmp(mode, "forever") == 0 ? 1e9 : 1.5;
    uint64_t x = work_for(secs, 1);
    if (strcmp(mode, "abort") == 0)
      abort();
    *(volatile int *)(uintptr_t)(x & 0) = 1; /* SIGSEGV */
    return 0;
  }
  if (strcmp(mode, "alloc") == 0)
    return run_alloc();
  fprintf(stderr, "robust: unknown mode %s\n", mode);
  return 2;
}

static void *alloc_worker(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  void *keep[64] = {0};
  double end = now_s() + 0.5;
  long n = 0;
  while (now_s() < end) {
    for (int i = 0; i < 64; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      free(keep[i]);
      keep[i] = malloc(16 + (x >> 52));
      memset(keep[i], (int)i, 16);
      n++;
    }
    COZ_PROGRESS_NAMED("alloc");
  }
  for (int i = 0; i < 64; i++)
    free(keep[i]);
  return (void *)(intptr_t)n;
}

static int run_alloc(void) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++)
    pthread_create(&t[i], NULL, alloc_worker, (void *)(uintptr_t)(i + 1));
  long total = 0;
  for (int i = 0; i < 8; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)(intptr_t)r;
  }
  printf("alloc ok=%d\n", total > 0);
  return 0;
}
