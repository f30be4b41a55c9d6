/* interpose_dynamic.c: for dynamically linked executables. The executable
 * defines every NAME of checkpoints.def, so calls the pass could not rewrite
 * (indirect calls, uninstrumented libraries such as libstdc++) reach the
 * checkpoints too: a definition in the executable wins symbol lookup. The
 * real functions come from the next object in lookup order (libc).
 *
 * dlsym may allocate, and an allocator may take a pthread mutex: the mutex
 * functions therefore bind to glibc's exported __pthread_mutex_* aliases
 * directly, with no lookup, so a lock taken inside dlsym never recurses. */
#include "checkpoints.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* glibc exports these aliases only as compatibility symbols (no default
 * version), so the reference names the version of the target's base ABI. */
#if defined(__x86_64__)
#define COZ_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define COZ_GLIBC_BASE "GLIBC_2.17"
#endif

#ifdef COZ_GLIBC_BASE
extern int coz_libc_mutex_lock(pthread_mutex_t *m);
extern int coz_libc_mutex_trylock(pthread_mutex_t *m);
extern int coz_libc_mutex_unlock(pthread_mutex_t *m);
__asm__(".symver coz_libc_mutex_lock, __pthread_mutex_lock@" COZ_GLIBC_BASE);
__asm__(
    ".symver coz_libc_mutex_trylock, __pthread_mutex_trylock@" COZ_GLIBC_BASE);
__asm__(
    ".symver coz_libc_mutex_unlock, __pthread_mutex_unlock@" COZ_GLIBC_BASE);

struct coz_real_fns coz_real = {
    .pthread_mutex_lock = coz_libc_mutex_lock,
    .pthread_mutex_trylock = coz_libc_mutex_trylock,
    .pthread_mutex_unlock = coz_libc_mutex_unlock,
};

/* A versioned reference binds to the first definition of the name, and
 * AddressSanitizer's runtime (gcc's and clang's, shared or linked into the
 * executable) defines __pthread_mutex_lock and __pthread_mutex_unlock: on
 * glibc 2.34+, which exports them only as compatibility symbols, its
 * interceptors find no real function and jump to address 0. Where the
 * bound function is not in libc (or is reached through the executable's
 * PLT, as in non-PIE executables), the public name is taken from the next
 * object instead (a sanitizer's working interceptor, or libc's same
 * function), when coz_real_resolve runs from .preinit_array. (dlopen,
 * which could name libc itself, resets the environment that early.) */
static void ensure_libc_mutex(const char *name, void **slot) {
  Dl_info libc, bound;
  void *probe = dlsym(RTLD_DEFAULT, "gnu_get_libc_version");
  if (!probe || !dladdr(probe, &libc) ||
      (dladdr(*slot, &bound) && bound.dli_fbase == libc.dli_fbase))
    return;
  void *f = dlsym(RTLD_NEXT, name);
  if (f)
    __atomic_store_n(slot, f, __ATOMIC_RELEASE);
}

static void ensure_libc_mutexes(void) {
  ensure_libc_mutex("pthread_mutex_lock",
                    (void **)&coz_real.pthread_mutex_lock);
  ensure_libc_mutex("pthread_mutex_trylock",
                    (void **)&coz_real.pthread_mutex_trylock);
  ensure_libc_mutex("pthread_mutex_unlock",
                    (void **)&coz_real.pthread_mutex_unlock);
}
#else
struct coz_real_fns coz_real;
static void ensure_libc_mutexes(void) {}
#endif

void *coz_libc_function(const char *name) {
  /* glibc keeps the pre-2.3.2 condition variables under the default
   * version of libpthread's old ABI: ask for the current one explicitly. */
  static const char *const cond_fns[] = {
      "pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_signal",
      "pthread_cond_broadcast"};
  void *f = NULL;
  for (size_t i = 0; i < sizeof cond_fns / sizeof *cond_fns; i++)
    if (__builtin_strcmp(name, cond_fns[i]) == 0)
      f = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
  if (!f)
    f = dlsym(RTLD_NEXT, name);
  if (!f) {
    static const char head[] = "coz: cannot find ",
                      tail[] = " in libc; the program cannot continue\n";
    ssize_t unused = write(2, head, sizeof head - 1);
    unused = write(2, name, __builtin_strlen(name));
    unused = write(2, tail, sizeof tail - 1);
    (void)unused;
    abort();
  }
  return f;
}

void coz_io_resolve(void); /* io_checkpoints.c */

void coz_real_resolve(void) {
  ensure_libc_mutexes();
  coz_io_resolve();
#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  if (!coz_real.NAME) {                                                        \
    RET(*f) PARAMS = (RET(*) PARAMS)coz_libc_function(#NAME);                  \
    __atomic_store_n(&coz_real.NAME, f, __ATOMIC_RELEASE);                     \
  }
#include "checkpoints.def"
#undef COZ_CHECKPOINT
}

/* The interposers. */
#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  COZ_CP_FORWARD(ROLE, RET, NAME, NAME, PARAMS, ARGS)
#include "checkpoints.def"
#undef COZ_CHECKPOINT
