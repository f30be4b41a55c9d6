/* Wall-clock time by construction: the main thread sleeps in nanosleep
 * (path_sleep), waits in poll with no descriptors (path_poll), times out in
 * pthread_cond_timedwait (path_cond) and spins on the CPU (path_spin),
 * interleaved over 10 rounds; a second thread blocks in read() on a pipe
 * (path_read) until main is done. Each path's real time is measured here
 * and printed as wall_<path>=ns, so the test knows the true shares. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 10 };
static int pfd[2];

/* After a path's last call: keeps it a call (not a jump), so the wait is
 * seen from inside the path's own frame. */
#define NO_TAIL_CALL() __asm__ volatile("" ::: "memory")

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) void path_sleep(void) {
  struct timespec ms10 = {0, 10000000};
  for (int i = 0; i < 2; i++)
    nanosleep(&ms10, NULL);
  NO_TAIL_CALL();
}

__attribute__((noinline)) void path_poll(void) {
  for (int i = 0; i < 4; i++)
    poll(NULL, 0, 10);
  NO_TAIL_CALL();
}

__attribute__((noinline)) void path_cond(void) {
  static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
  pthread_mutex_lock(&m);
  for (int i = 0; i < 2; i++) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 10000000;
    if (until.tv_nsec >= 1000000000) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&c, &m, &until);
  }
  pthread_mutex_unlock(&m);
}

__attribute__((noinline)) uint64_t path_spin(uint64_t x) {
  uint64_t end = now_ns() + 40000000;
  while (now_ns() < end)
    for (int i = 0; i < 1000; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      __asm__ volatile("" : "+r"(x));
    }
  return x;
}

__attribute__((noinline)) void path_read(void) {
  char c;
  if (read(pfd[0], &c, 1) != 1)
    _exit(3);
  NO_TAIL_CALL();
}

static uint64_t t_read;

static void *reader(void *arg) {
  (void)arg;
  uint64_t t0 = now_ns();
  path_read();
  t_read = now_ns() - t0;
  return NULL;
}

int main(void) {
  if (pipe(pfd) != 0)
    return 1;
  pthread_t th;
  pthread_create(&th, NULL, reader, NULL);
  uint64_t t_sleep = 0, t_poll = 0, t_cond = 0, t_spin = 0, x = 1;
  for (int r = 0; r < ROUNDS; r++) {
    uint64_t t0 = now_ns();
    path_sleep();
    uint64_t t1 = now_ns();
    path_poll();
    uint64_t t2 = now_ns();
    path_cond();
    uint64_t t3 = now_ns();
    x = path_spin(x);
    uint64_t t4 = now_ns();
    t_sleep += t1 - t0, t_poll += t2 - t1, t_cond += t3 - t2;
    t_spin += t4 - t3;
  }
  if (write(pfd[1], "x", 1) != 1)
    return 2;
  pthread_join(th, NULL);
  printf("wall_path_sleep=%llu\nwall_path_poll=%llu\nwall_path_cond=%llu\n"
         "wall_path_spin=%llu\nwall_path_read=%llu\nx=%llu\n",
         (unsigned long long)t_sleep, (unsigned long long)t_poll,
         (unsigned long long)t_cond, (unsigned long long)t_spin,
         (unsigned long long)t_read, (unsigned long long)(x & 1));
  return 0;
}
