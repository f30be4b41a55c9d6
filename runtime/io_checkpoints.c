/* io_checkpoints.c: the I/O and sleep calls of io_calls.def, interposed in
 * dynamically linked executables (the definitions here win symbol lookup,
 * like the synchronization interposers; the real functions come from the
 * next object, libc, through dlsym). What each role does is in
 * io_calls.def; in short, the blocking rules of §3.4.1 extended to
 * descriptors: reads are credited only when a thread of this program
 * wrote the data (fd_channels.h), and the calls feed the call-path
 * profiler's read/write bytes and wall-clock time.
 *
 * The definitions are weak: a program that defines a function of the same
 * name (its own `send`) keeps it, and links. Calls libc makes internally
 * (fread, getline, system) use libc's private aliases and are not seen;
 * -static executables are not interposed here (docs/design.md). errno and
 * the result always pass through untouched. */
#include "callpath/callpath.h"
#include "checkpoints.h"
#include "fd_channels.h"

#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define IO_EXPORT __attribute__((visibility("default"), weak))

/* --- The real functions. --- */
static struct {
#define COZ_IO_CALL(ROLE, RET, NAME, PARAMS, ARGS) RET(*NAME) PARAMS;
#include "io_calls.def"
#undef COZ_IO_CALL
} real;

/* From coz_real_resolve (init, before main): the interposers are then
 * safe to use from signal handlers, where dlsym is not. The lazy lookup
 * below covers calls made earlier, by other libraries' constructors. */
void coz_io_resolve(void) {
#define COZ_IO_CALL(ROLE, RET, NAME, PARAMS, ARGS)                             \
  if (!real.NAME)                                                              \
    __atomic_store_n(&real.NAME, (RET(*) PARAMS)coz_libc_function(#NAME),      \
                     __ATOMIC_RELEASE);
#include "io_calls.def"
#undef COZ_IO_CALL
}

#define REAL(NAME)                                                             \
  (__builtin_expect(__atomic_load_n(&real.NAME, __ATOMIC_ACQUIRE) != NULL, 1)  \
       ? real.NAME                                                             \
       : (coz_io_resolve(), real.NAME))

/* --- What the roles share. --- */
#define CALLER_RA ((uintptr_t)__builtin_return_address(0))

static inline bool wall_on(void) {
  return atomic_load_explicit(&coz_callpath_wall, memory_order_relaxed);
}

static inline bool bytes_on(void) {
  return atomic_load_explicit(&coz_callpath_bytes, memory_order_relaxed);
}

/* Before the call: owed delays, the samples of kernel time the thread's
 * earlier calls left in its ring (runtime.h; the ring is opened here too
 * once it is due: a thread whose user-mode samples all land while an I/O
 * checkpoint holds its state, as in a sanitizer's read() interceptor,
 * never opened it from its handler), and the start of a wall-clock wait. */
static inline struct coz_thread *begin_wait(bool wall, uintptr_t ra) {
  struct coz_thread *t = coz_checkpoint_enter();
  if (t && coz_kernel_ring_due(&t->sampler))
    coz_process_kernel_time(t);
  if (wall)
    coz_callpath_block_begin(ra);
  return t;
}

/* The same for a call that waits whatever its descriptors (SLEEP, WAIT,
 * POLL, SELECT): it counts toward the sampler's look at threads that
 * mostly wait (checkpoints.h, coz_checkpoint_count_wait), here before the
 * call, outside any hold, so that the real call stays a tail call. Reads
 * do not count: a read of data already there does not wait, and a look
 * every 32 small reads would add four system calls to them. */
static inline struct coz_thread *begin_block(bool wall, uintptr_t ra) {
  struct coz_thread *t = begin_wait(wall, ra);
  if (t)
    coz_checkpoint_count_wait(t);
  return t;
}

/* The same for a call whose return may credit a wake-up (READ, READY),
 * counted when it `blocks` whatever its descriptors (READY): the state is
 * held from before the call to the credit, as for the blocking checkpoints
 * (checkpoints.h, coz_checkpoint_hold). */
static inline struct coz_thread *begin_credited_wait(bool wall, uintptr_t ra,
                                                     bool blocks) {
  struct coz_thread *t = blocks ? begin_block(wall, ra) : begin_wait(wall, ra);
  if (t)
    coz_checkpoint_hold(t);
  return t;
}

static void end_wait(uintptr_t ra) { coz_callpath_block_end(ra); }

static void count_bytes(bool written, ssize_t n, uintptr_t ra) {
  if (n > 0)
    coz_callpath_io_bytes(written, (uint64_t)n, ra);
}

/* Credit from the channel fd reads from (its writer's delay count); t's
 * state is held (coz_checkpoint_hold). */
static void credit_from(struct coz_thread *t, int fd) {
  uint64_t stamp;
  if (coz_fd_read_stamp(fd, &stamp))
    coz_checkpoint_absorb(t, stamp);
}

/* What a writer stamps: the delays it has executed. A thread ahead of G
 * (it ran the selected line and has not settled yet) stamps G: a reader
 * credited beyond G would raise G for everyone. */
static inline uint64_t executed_delay(const struct coz_thread *t) {
  uint64_t g = coz_delay_global();
  return t->local_delay < g ? t->local_delay : g;
}

static void after_read(struct coz_thread *t, bool wall, int fd, ssize_t n,
                       uintptr_t ra) {
  int saved_errno = errno;
  if (wall)
    end_wait(ra);
  if (t) {
    if (n > 0)
      credit_from(t, fd);
    coz_checkpoint_release(t);
  }
  if (n > 0)
    count_bytes(false, n, ra);
  errno = saved_errno;
}

static void after_write(bool wall, ssize_t n, uintptr_t ra) {
  int saved_errno = errno;
  if (wall)
    end_wait(ra);
  count_bytes(true, n, ra);
  errno = saved_errno;
}

static void after_wait(bool wall, uintptr_t ra) {
  int saved_errno = errno;
  if (wall)
    end_wait(ra);
  errno = saved_errno;
}

static void after_poll(struct coz_thread *t, bool wall,
                       const struct pollfd *fds, nfds_t n, int r,
                       uintptr_t ra) {
  int saved_errno = errno;
  if (wall)
    end_wait(ra);
  for (nfds_t i = 0; t && r > 0 && i < n; i++)
    if (fds[i].revents & (POLLIN | POLLRDNORM | POLLPRI))
      credit_from(t, fds[i].fd);
  if (t)
    coz_checkpoint_release(t);
  errno = saved_errno;
}

static void after_select(struct coz_thread *t, bool wall, int nfds,
                         const fd_set *rd, int r, uintptr_t ra) {
  int saved_errno = errno;
  if (wall)
    end_wait(ra);
  for (int fd = 0; t && r > 0 && rd && fd < nfds && fd < FD_SETSIZE; fd++)
    if (FD_ISSET(fd, rd))
      credit_from(t, fd);
  if (t)
    coz_checkpoint_release(t);
  errno = saved_errno;
}

/* --- The roles. --- When the thread is not profiled and call paths want
 * neither bytes nor wall time, each is a load or three and a tail call. */
#define READ(RET, NAME, PARAMS, ARGS)                                          \
  IO_EXPORT RET NAME PARAMS {                                                  \
    bool wall = wall_on();                                                     \
    struct coz_thread *t = begin_credited_wait(wall, CALLER_RA, false);        \
    if (!t && !wall && !bytes_on())                                            \
      return REAL(NAME) ARGS;                                                  \
    RET r = REAL(NAME) ARGS;                                                   \
    after_read(t, wall, fd, (ssize_t)r, CALLER_RA);                            \
    return r;                                                                  \
  }

#define WRITE(RET, NAME, PARAMS, ARGS)                                         \
  IO_EXPORT RET NAME PARAMS {                                                  \
    bool wall = wall_on();                                                     \
    struct coz_thread *t = begin_wait(wall, CALLER_RA);                        \
    if (t)                                                                     \
      coz_fd_stamp_write(fd, executed_delay(t));                               \
    if (!wall && !bytes_on())                                                  \
      return REAL(NAME) ARGS;                                                  \
    RET r = REAL(NAME) ARGS;                                                   \
    after_write(wall, (ssize_t)r, CALLER_RA);                                  \
    return r;                                                                  \
  }

#define WAIT(RET, NAME, PARAMS, ARGS)                                          \
  IO_EXPORT RET NAME PARAMS {                                                  \
    bool wall = wall_on();                                                     \
    begin_block(wall, CALLER_RA);                                              \
    if (!wall)                                                                 \
      return REAL(NAME) ARGS;                                                  \
    RET r = REAL(NAME) ARGS;                                                   \
    after_wait(wall, CALLER_RA);                                               \
    return r;                                                                  \
  }
#define SLEEP WAIT

/* POLL and SELECT: AFTER credits from the descriptors found ready. */
#define READY(RET, NAME, PARAMS, ARGS, AFTER)                                  \
  IO_EXPORT RET NAME PARAMS {                                                  \
    bool wall = wall_on();                                                     \
    struct coz_thread *t = begin_credited_wait(wall, CALLER_RA, true);         \
    if (!t && !wall)                                                           \
      return REAL(NAME) ARGS;                                                  \
    RET r = REAL(NAME) ARGS;                                                   \
    AFTER;                                                                     \
    return r;                                                                  \
  }
#define POLL(RET, NAME, PARAMS, ARGS)                                          \
  READY(RET, NAME, PARAMS, ARGS, after_poll(t, wall, fds, n, r, CALLER_RA))
#define SELECT(RET, NAME, PARAMS, ARGS)                                        \
  READY(RET, NAME, PARAMS, ARGS, after_select(t, wall, nfds, rd, r, CALLER_RA))

#define PLAIN(RET, NAME, PARAMS, ARGS) /* below, one by one */

#define COZ_IO_CALL(ROLE, RET, NAME, PARAMS, ARGS) ROLE(RET, NAME, PARAMS, ARGS)
#include "io_calls.def"
#undef COZ_IO_CALL

/* --- Descriptors: the channel table follows them. --- */
IO_EXPORT int pipe(int fds[2]) {
  int r = REAL(pipe)(fds);
  if (r == 0)
    coz_fd_pipe(fds[0], fds[1]);
  return r;
}

IO_EXPORT int pipe2(int fds[2], int flags) {
  int r = REAL(pipe2)(fds, flags);
  if (r == 0)
    coz_fd_pipe(fds[0], fds[1]);
  return r;
}

IO_EXPORT int socketpair(int domain, int type, int proto, int fds[2]) {
  int r = REAL(socketpair)(domain, type, proto, fds);
  if (r == 0)
    coz_fd_socketpair(fds[0], fds[1]);
  return r;
}

IO_EXPORT int eventfd(unsigned initval, int flags) {
  int fd = REAL(eventfd)(initval, flags);
  if (fd >= 0)
    coz_fd_eventfd(fd);
  return fd;
}

IO_EXPORT int dup(int oldfd) {
  int fd = REAL(dup)(oldfd);
  if (fd >= 0)
    coz_fd_dup(oldfd, fd);
  return fd;
}

IO_EXPORT int dup2(int oldfd, int newfd) {
  int fd = REAL(dup2)(oldfd, newfd);
  if (fd >= 0 && fd != oldfd)
    coz_fd_dup(oldfd, fd);
  return fd;
}

IO_EXPORT int dup3(int oldfd, int newfd, int flags) {
  int fd = REAL(dup3)(oldfd, newfd, flags);
  if (fd >= 0)
    coz_fd_dup(oldfd, fd);
  return fd;
}

/* Forgotten before the call: once close returns, another thread may get
 * the same number for something new. */
IO_EXPORT int close(int fd) {
  coz_fd_forget(fd);
  return REAL(close)(fd);
}
