/* A round trip to a "device" thread on the critical path. Each round the
 * main thread computes (line A), sends a request and blocks for the reply;
 * the device waits for the request, sleeps 1 ms and replies. Speeding line
 * A up by s speeds the program up by f*s, f being A's share of a round. The
 * device is woken by the main thread's write, so it must be credited the
 * delays the main thread executed (io_checkpoints.c, fd_channels.c); if it
 * paid them on waking, the round would not get shorter at all.
 *   pipe_wait MODE ROUNDS [measure]
 * MODE: pipe       read/write on two pipes, the device sleeps with nanosleep
 *       socketpair send/recv on a socketpair, the device waits in poll
 *       eventfd    two eventfds, the device waits in select and sleeps
 *                  with usleep
 * measure: also times line A and prints f=... */
#define _GNU_SOURCE
#include "spin.h"
#include <coz.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

enum mode { PIPE, SOCKETPAIR, EVENTFD };
static enum mode mode;
static int req_r, req_w, rep_r, rep_w; /* request and reply channels */

static int get(int fd) {
  uint64_t v = 0;
  if (mode == SOCKETPAIR)
    return recv(fd, &v, 1, 0) == 1;
  return read(fd, &v, mode == EVENTFD ? 8 : 1) > 0;
}

static int put(int fd) {
  uint64_t v = 1;
  if (mode == SOCKETPAIR)
    return send(fd, &v, 1, 0) == 1;
  return write(fd, &v, mode == EVENTFD ? 8 : 1) > 0;
}

/* The device's wait for a request, where the mode has one before read. */
static void wait_readable(int fd) {
  if (mode == SOCKETPAIR) {
    struct pollfd p = {fd, POLLIN, 0};
    poll(&p, 1, -1);
  } else if (mode == EVENTFD) {
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(fd, &rd);
    select(fd + 1, &rd, NULL, NULL, NULL);
  }
}

static void *device(void *arg) {
  (void)arg;
  for (;;) {
    wait_readable(req_r);
    if (!get(req_r))
      break;
    if (mode == EVENTFD) {
      usleep(1000);
    } else {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
    if (!put(rep_w))
      break;
  }
  return NULL;
}

static void open_channels(void) {
  int a[2], b[2];
  if (mode == PIPE) {
    if (pipe(a) || pipe(b))
      exit(2);
    req_r = a[0], req_w = a[1], rep_r = b[0], rep_w = b[1];
  } else if (mode == SOCKETPAIR) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, a))
      exit(2);
    req_w = rep_r = a[0];
    req_r = rep_w = a[1];
  } else {
    req_r = req_w = eventfd(0, 0);
    rep_r = rep_w = eventfd(0, 0);
    if (req_r < 0 || rep_r < 0)
      exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pipe_wait pipe|socketpair|eventfd ROUNDS "
                    "[measure]\n");
    return 2;
  }
  mode = strcmp(argv[1], "socketpair") == 0 ? SOCKETPAIR
         : strcmp(argv[1], "eventfd") == 0  ? EVENTFD
                                            : PIPE;
  long rounds = atol(argv[2]);
  int measure = argc > 3 && strcmp(argv[3], "measure") == 0;
  open_channels();
  pthread_t t;
  pthread_create(&t, NULL, device, NULL);
  uint64_t x = 1;
  double in_a = 0, start = now_s();
  for (long r = 0; r < rounds; r++) {
    double t0 = measure ? now_s() : 0;
    SPIN(2000000, x); /* LINE_A */
    if (measure)
      in_a += now_s() - t0;
    if (!put(req_w) || !get(rep_r))
      return 1;
    COZ_PROGRESS;
  }
  double total = now_s() - start;
  if (mode == PIPE)
    close(req_w); /* the device reads end of file */
  else
    pthread_cancel(t);
  pthread_join(t, NULL);
  if (measure)
    printf("f=%.4f\n", in_a / total);
  printf("time=%.4f x=%llu\n", total, (unsigned long long)(x & 1));
  return 0;
}
