/* interpose_static.c: for -static executables, linked with -Wl,--wrap=NAME
 * for every NAME of checkpoints.def: every reference to NAME in the link
 * (the program, libstdc++.a, ...) reaches __wrap_NAME, and __real_NAME is the
 * libc function. No dlsym. */
#include "checkpoints.h"

#define COZ_SIG(RET, NAME, PARAMS, ARGS) extern RET __real_##NAME PARAMS;
#define COZ_SIG_NORETURN(NAME, PARAMS, ARGS)                                   \
  extern __attribute__((noreturn)) void __real_##NAME PARAMS;
#include "checkpoint_sigs.def"
#undef COZ_SIG
#undef COZ_SIG_NORETURN

struct coz_real_fns coz_real = {
#define COZ_SIG(RET, NAME, PARAMS, ARGS) .NAME = __real_##NAME,
#define COZ_SIG_NORETURN(NAME, PARAMS, ARGS) .NAME = __real_##NAME,
#include "checkpoint_sigs.def"
#undef COZ_SIG
#undef COZ_SIG_NORETURN
};

void coz_real_resolve(void) {}

#define COZ_SIG(RET, NAME, PARAMS, ARGS)                                       \
  COZ_EXPORT RET __wrap_##NAME PARAMS { return __coz_##NAME ARGS; }
#define COZ_SIG_NORETURN(NAME, PARAMS, ARGS)                                   \
  COZ_EXPORT __attribute__((noreturn)) void __wrap_##NAME PARAMS {             \
    __coz_##NAME ARGS;                                                         \
  }
#include "checkpoint_sigs.def"
#undef COZ_SIG
#undef COZ_SIG_NORETURN
