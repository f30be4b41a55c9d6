/* real.h: pointers to the real synchronization functions. The runtime calls
 * these, never the plain names: in a dynamic executable the plain names are
 * the runtime's own interposers, and under -Wl,--wrap they are redirected. */
#ifndef COZ_REAL_H
#define COZ_REAL_H

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <threads.h>
#include <time.h>

struct coz_real_fns {
#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...) RET(*NAME) PARAMS;
#include "checkpoints.def"
#undef COZ_CHECKPOINT
};

extern struct coz_real_fns coz_real;

/* Fills coz_real (dlsym in dynamic executables, __real_ in static ones).
 * Idempotent; called at init and lazily if a checkpoint runs before it. */
void coz_real_resolve(void);

/* Dynamic executables only (interpose_dynamic.c): the definition of libc
 * function `name` in the objects after the executable, for coz_real and the
 * I/O interposers. A missing one ends the program with one line naming it:
 * no call of it could be completed. */
void *coz_libc_function(const char *name);

#define COZ_REAL(NAME)                                                         \
  (__builtin_expect(coz_real.NAME != NULL, 1)                                  \
       ? coz_real.NAME                                                         \
       : (coz_real_resolve(), coz_real.NAME))

#endif /* COZ_REAL_H */
