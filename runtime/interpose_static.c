/* interpose_static.c: for -static executables, linked with -Wl,--wrap=NAME
 * for every NAME of checkpoints.def: every reference to NAME in the link
 * (the program, libstdc++.a, ...) reaches __wrap_NAME, and __real_NAME is the
 * libc function. No dlsym. */
#include "checkpoints.h"

#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  extern COZ_CP_NORETURN_##ROLE RET __real_##NAME PARAMS;
#include "checkpoints.def"
#undef COZ_CHECKPOINT

struct coz_real_fns coz_real = {
#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  .NAME = __real_##NAME,
#include "checkpoints.def"
#undef COZ_CHECKPOINT
};

void coz_real_resolve(void) {}

#define COZ_CHECKPOINT(ROLE, RET, NAME, PARAMS, ARGS, ...)                     \
  COZ_CP_FORWARD(ROLE, RET, __wrap_##NAME, NAME, PARAMS, ARGS)
#include "checkpoints.def"
#undef COZ_CHECKPOINT
