/* fd_floor.h: the runtime's file descriptors out of the program's way.
 *
 * A descriptor the runtime opens would take the lowest free number, and
 * the program's next open() would get another number than in the plain
 * build: programs and tests that name descriptors by number notice (a
 * server's test that finds its own connection by fd, memcached's
 * watcher_connid.t). So every descriptor the runtime keeps or opens while
 * the program runs is moved at once to the lowest free number from half
 * the RLIMIT_NOFILE soft limit up (at most 4096), and the low one closed;
 * where that fails (the limit is reached), the low one stays. System calls
 * made directly: the runtime interposes close() and fcntl's callers. */
#ifndef COZ_FD_FLOOR_H
#define COZ_FD_FLOOR_H

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Closes a descriptor of the runtime's own by the system call, not
 * through the runtime's close() (io_checkpoints.c), which is the program's:
 * it would look the number up among the program's channels. Async-signal-
 * safe; may change errno. */
static inline void coz_fd_close(int fd) { syscall(SYS_close, fd); }

/* Moves fd up (close-on-exec) and returns the new number, or fd itself
 * when it cannot; negative fds pass through. Async-signal-safe. */
static inline int coz_fd_floor(int fd) {
  if (fd < 0)
    return fd;
  struct rlimit rl;
  long floor = 512;
  if (syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl) == 0)
    floor = rl.rlim_cur / 2 > 4096 ? 4096 : (long)(rl.rlim_cur / 2);
  if (fd >= floor || floor < 16)
    return fd;
  long high = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, floor);
  if (high < 0)
    return fd;
  coz_fd_close(fd);
  return (int)high;
}

#endif /* COZ_FD_FLOOR_H */
