/* cp_io.c: bytes read and written, counted where the program calls the
 * read/write family (dynamically linked executables only: the definitions
 * here win symbol lookup, like the sync interposers of
 * runtime/interpose_dynamic.c; the real functions come from libc through
 * dlsym(RTLD_NEXT)). Each call adds the bytes it moved to its thread's
 * clock (cp_clocks.c); errno and the return value pass through untouched.
 *
 * Calls libc makes internally (fread, getline) use libc's private aliases
 * and are not seen; docs/callpath.md says so. */
#include "cp_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

void cp_io_bytes(enum cp_resource r, uint64_t n, uintptr_t caller_ra);

/* Weak: a program that defines a function of the same name (its own
 * `send`) keeps it, and links, instead of getting a duplicate symbol. */
#define CP_EXPORT __attribute__((visibility("default"), weak))

static void *real(const char *name, void *_Atomic *slot) {
  void *f = atomic_load_explicit(slot, memory_order_acquire);
  if (!f) {
    f = dlsym(RTLD_NEXT, name);
    if (!f) {
      static const char msg[] = "coz: cannot find an I/O function in libc; "
                                "the program cannot continue\n";
      syscall(SYS_write, 2, msg, sizeof msg - 1);
      abort();
    }
    atomic_store_explicit(slot, f, memory_order_release);
  }
  return f;
}

static inline void account(enum cp_resource r, ssize_t n, uintptr_t ra) {
  if (n > 0 && cp_config.enabled[r])
    cp_io_bytes(r, (uint64_t)n, ra);
}

#define CP_RA ((uintptr_t)__builtin_return_address(0))

#define CP_IO(RES, RET, NAME, PARAMS, ARGS)                                    \
  CP_EXPORT RET NAME PARAMS {                                                  \
    static void *_Atomic slot;                                                 \
    RET(*f) PARAMS = (RET(*) PARAMS)real(#NAME, &slot);                        \
    RET n = f ARGS;                                                            \
    if (n > 0) {                                                               \
      int saved = errno;                                                       \
      account(RES, (ssize_t)n, CP_RA);                                         \
      errno = saved;                                                           \
    }                                                                          \
    return n;                                                                  \
  }

#include <errno.h>

CP_IO(CP_READ, ssize_t, read, (int fd, void *buf, size_t len), (fd, buf, len))
CP_IO(CP_READ, ssize_t, pread, (int fd, void *buf, size_t len, off_t off),
      (fd, buf, len, off))
CP_IO(CP_READ, ssize_t, pread64, (int fd, void *buf, size_t len, off_t off),
      (fd, buf, len, off))
CP_IO(CP_READ, ssize_t, readv, (int fd, const struct iovec *iov, int cnt),
      (fd, iov, cnt))
CP_IO(CP_READ, ssize_t, recv, (int fd, void *buf, size_t len, int flags),
      (fd, buf, len, flags))
CP_IO(CP_READ, ssize_t, recvfrom,
      (int fd, void *buf, size_t len, int flags, struct sockaddr *addr,
       socklen_t *alen),
      (fd, buf, len, flags, addr, alen))
CP_IO(CP_WRITE, ssize_t, write, (int fd, const void *buf, size_t len),
      (fd, buf, len))
CP_IO(CP_WRITE, ssize_t, pwrite,
      (int fd, const void *buf, size_t len, off_t off), (fd, buf, len, off))
CP_IO(CP_WRITE, ssize_t, pwrite64,
      (int fd, const void *buf, size_t len, off_t off), (fd, buf, len, off))
CP_IO(CP_WRITE, ssize_t, writev, (int fd, const struct iovec *iov, int cnt),
      (fd, iov, cnt))
CP_IO(CP_WRITE, ssize_t, send, (int fd, const void *buf, size_t len, int flags),
      (fd, buf, len, flags))
CP_IO(CP_WRITE, ssize_t, sendto,
      (int fd, const void *buf, size_t len, int flags,
       const struct sockaddr *addr, socklen_t alen),
      (fd, buf, len, flags, addr, alen))
