/* fd_channels.h: which in-process channel (a pipe, one direction of a
 * socketpair, an eventfd) a file descriptor reads from or writes to, and
 * the delay count of the last thread that wrote into each channel.
 *
 * Why: a thread blocked in read() on a pipe that another thread of the
 * program writes to was woken by that thread, exactly like a thread woken
 * by pthread_cond_signal, so it must be credited the delays its waker had
 * executed (§3.4.1). A read from a file, a socket or a pipe fed by another
 * process was not: the thread still owes the delays that accumulated while
 * it waited (Coz's rule for blocking I/O). Only descriptors made by
 * pipe/pipe2/socketpair/eventfd in this process (and their dup copies) have
 * channels; every other descriptor keeps Coz's rule.
 *
 * Everything here is lock-free and never allocates after the first
 * channel is made, so the I/O checkpoints may use it from any thread. */
#ifndef COZ_FD_CHANNELS_H
#define COZ_FD_CHANNELS_H

#include <stdbool.h>
#include <stdint.h>

/* A new pipe: reads from rfd see what is written to wfd. */
void coz_fd_pipe(int rfd, int wfd);
/* A new socketpair: each end reads what the other writes. */
void coz_fd_socketpair(int a, int b);
/* A new eventfd: reads see what is written to the same descriptor. */
void coz_fd_eventfd(int fd);
/* newfd now refers to what oldfd refers to (dup, dup2, dup3). */
void coz_fd_dup(int oldfd, int newfd);
/* fd is being closed, or now refers to something new. */
void coz_fd_forget(int fd);

/* A thread whose delay count is `delay` is about to write to fd. */
void coz_fd_stamp_write(int fd, uint64_t delay);
/* The delay count of the last writer into the channel fd reads from; false
 * when fd has no channel or nothing was written through it yet. */
bool coz_fd_read_stamp(int fd, uint64_t *delay);

#endif /* COZ_FD_CHANNELS_H */
